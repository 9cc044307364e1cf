// Everything svc creates locally is the user's alone: under SVC_HOME every folder is 0700
// and every file 0600 (store, backups, logs, agents' folders, parked patches and their
// tar files, keys, the discovery file), the lanes root svc creates and a lane's worktree
// folder are 0700, and a run record written to its default place is 0600.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LaneRecord } from '../../shared/protocol/lanes';
import { laneWorld, ok, startLane } from '../helpers/lanes';
import type { LaneWorld } from '../helpers/lanes';
import { makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import { writeBrief } from '../helpers/scriptBrief';

const mode = (p: string) => (fs.lstatSync(p).mode & 0o777).toString(8);

/** Every folder and regular file under `dir` whose mode is not 0700 / 0600, as `<mode> <path>`. */
function notPrivate(dir: string): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    const st = fs.lstatSync(p);
    if (st.isDirectory()) {
      if (mode(p) !== '700') out.push(`${mode(p)} ${p}/`);
      for (const e of fs.readdirSync(p)) walk(path.join(p, e));
    } else if (st.isFile() && mode(p) !== '600') out.push(`${mode(p)} ${p}`);
  };
  walk(dir);
  return out;
}

describe('local privacy: svc creates its folders 0700 and its files 0600', function () {
  this.timeout(180_000);
  let s: Scratch;
  let w: LaneWorld;

  before(async () => {
    s = makeScratch('privacy');
    w = await laneWorld(s);
  });
  after(async () => s.dispose());

  it('SVC_HOME, the lanes root, a worktree, parked work and a run record', async () => {
    const idle = writeBrief(w.briefs, 'idle.md', [{ say: 'idle' }]);
    await startLane(w, { run: 'pv', key: 'held', role: 'builder', model: 'm', brief: idle });
    await startLane(w, { run: 'pv', key: 'gone', role: 'builder', model: 'm', brief: idle });
    const lanes = JSON.parse((await ok(s.svc(['lane', 'list', '--json']))).stdout) as LaneRecord[];
    const held = lanes.find((l) => l.name === 'pv-held-builder-i1')!;
    const gone = lanes.find((l) => l.name === 'pv-gone-builder-i1')!;
    // Parked work, with a tar file beside the patch (a 0600 file: a patch cannot carry its mode).
    fs.writeFileSync(path.join(gone.cwd, 'secret.txt'), 'mine alone\n', { mode: 0o600 });
    fs.writeFileSync(path.join(gone.cwd, 'wip.txt'), 'wip\n');
    await ok(s.svc(['lane', 'reap', gone.name, '--park']));
    const folder = path.join(s.svcHome, 'agents', `conv-${gone.name}`);
    assert.deepEqual(
      fs
        .readdirSync(folder)
        .filter((f) => f.startsWith('parked-'))
        .map((f) => f.replace(/^parked-[^.]*/, 'parked-<stamp>'))
        .sort(),
      ['parked-<stamp>.files.tar', 'parked-<stamp>.patch'],
    );
    await ok(s.svc(['daemon', 'log']));
    await ok(s.svc(['run', 'export', 'pv']));

    assert.deepEqual(notPrivate(s.svcHome), []);
    assert.ok(fs.existsSync(path.join(s.svcHome, 'logs', 'daemon.log')), 'the daemon log was written');
    const worktree = fs.realpathSync(held.cwd);
    const lanesRoot = path.dirname(worktree);
    assert.equal(lanesRoot, path.join(fs.realpathSync(s.home), 'proj-lanes'));
    assert.deepEqual(
      [lanesRoot, worktree].map((p) => `${mode(p)} ${p}`),
      [lanesRoot, worktree].map((p) => `700 ${p}`),
    );
    assert.equal(mode(path.join(s.home, 'svc-run-proj-pv.html')), '600');
  });
});
