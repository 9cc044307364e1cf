// `svc lane start`'s line (shared/format/laneStart.ts, also the editor's), and after it: a spawn error, or a lane that has not come up within the
// 180 s wait (exit 1 either way); a lane that started, or one not waited for, says nothing.
import * as assert from 'node:assert/strict';
import { laneStartLine, laneStartTrouble } from '../../shared/format/laneStart';

describe('svc lane start: its line, the same in the shim and the editor', () => {
  it('names the run, key, role, iteration, conversation and directory', () => {
    const l = {
      run: 'r',
      key: 'k',
      role: 'builder' as const,
      iteration: 2,
      id: 7,
      name: 'r-k-builder-i2',
      cwd: '/lanes/r-k-builder-i2',
    };
    assert.equal(laneStartLine(l), 'Lane r/k builder i2: conv 7 (r-k-builder-i2) in /lanes/r-k-builder-i2');
  });
});

describe('svc lane start: a lane that did not start', () => {
  const lane = { name: 'r-k-builder-i1', activity: 'idle' as const, spawnError: null, endedAt: null, archived: false };

  it('says nothing for a lane that started, or that ended after starting', () => {
    assert.equal(laneStartTrouble(lane, true), null);
    assert.equal(laneStartTrouble({ ...lane, activity: 'starting' }, true), null);
    assert.equal(laneStartTrouble({ ...lane, activity: 'stopped', endedAt: 1 }, true), null);
  });

  it('gives the spawn error of a failed start, waited for or not', () => {
    const failed = { ...lane, activity: 'failed-to-start' as const, spawnError: "harness 'x': command 'x' not found" };
    assert.equal(
      laneStartTrouble(failed, false),
      "lane r-k-builder-i1 failed to start: harness 'x': command 'x' not found",
    );
  });

  it('says a waited-for lane that never came alive has not started after 180 s; not when --no-wait', () => {
    const never = { ...lane, activity: 'stopped' as const };
    assert.equal(
      laneStartTrouble(never, true),
      'lane r-k-builder-i1 has not started after 180 s; its harness may still come up: see svc lane show r-k-builder-i1, or svc lane stop r-k-builder-i1',
    );
    assert.equal(laneStartTrouble(never, false), null);
    assert.equal(laneStartTrouble({ ...never, archived: true }, true), null);
  });
});
