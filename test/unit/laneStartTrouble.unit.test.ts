// `svc lane start` after its line: a spawn error, or a lane that has not come up within the
// 180 s wait (exit 1 either way); a lane that started, or one not waited for, says nothing.
import * as assert from 'node:assert/strict';
import { startTrouble } from '../../server/shim/commands/laneFormat';

describe('svc lane start: a lane that did not start', () => {
  const lane = { name: 'r-k-builder-i1', activity: 'idle' as const, spawnError: null, endedAt: null, archived: false };

  it('says nothing for a lane that started, or that ended after starting', () => {
    assert.equal(startTrouble(lane, true), null);
    assert.equal(startTrouble({ ...lane, activity: 'starting' }, true), null);
    assert.equal(startTrouble({ ...lane, activity: 'stopped', endedAt: 1 }, true), null);
  });

  it('gives the spawn error of a failed start, waited for or not', () => {
    const failed = { ...lane, activity: 'failed-to-start' as const, spawnError: "harness 'x': command 'x' not found" };
    assert.equal(startTrouble(failed, false), "lane r-k-builder-i1 failed to start: harness 'x': command 'x' not found");
  });

  it('says a waited-for lane that never came alive has not started after 180 s; not when --no-wait', () => {
    const never = { ...lane, activity: 'stopped' as const };
    assert.equal(
      startTrouble(never, true),
      'lane r-k-builder-i1 has not started after 180 s; its harness may still come up: see svc lane show r-k-builder-i1, or svc lane stop r-k-builder-i1',
    );
    assert.equal(startTrouble(never, false), null);
    assert.equal(startTrouble({ ...never, archived: true }, true), null);
  });
});
