// A real crash mid-park: the daemon is killed with SIGKILL while `svc lane reap --park`
// runs, after the patch was published and the tree cleaned but before the worktree was
// removed (the daemon's test pause, SVC_TEST_PAUSE_AFTER_PARK, holds it there). The
// restarted daemon must still show the patch with the command that restores it, a second
// reap must name it, and that command must bring the work back byte for byte.
import * as assert from 'node:assert/strict';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LaneRecord } from '../../shared/protocol/lanes';
import { alive, daemonPids } from '../helpers/daemonProcs';
import { laneWorld, ok, startLane } from '../helpers/lanes';
import type { LaneWorld } from '../helpers/lanes';
import { eventually, git, makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import { writeBrief } from '../helpers/scriptBrief';
import { sh } from './parkFixtures';

describe('reap: the daemon killed with SIGKILL mid-park loses nothing from sight', function () {
  this.timeout(180_000);
  let s: Scratch;
  let w: LaneWorld;
  let marker: string;

  before(async () => {
    s = makeScratch('reap-kill');
    marker = path.join(s.root, 'paused-after-park');
    s.env.SVC_TEST_PAUSE_AFTER_PARK = marker;
    w = await laneWorld(s);
  });
  after(async () => s.dispose());

  const lane = async (name: string): Promise<LaneRecord> =>
    (JSON.parse((await ok(s.svc(['lane', 'list', '--json']))).stdout) as LaneRecord[]).find((l) => l.name === name)!;

  it('lane show, lane list --json and the next reap name the patch; its restore command brings the work back byte-exact', async () => {
    const idle = writeBrief(w.briefs, 'crash.md', [{ say: 'idle' }]);
    await startLane(w, { run: 'kc', key: 'crash', role: 'builder', model: 'm', brief: idle });
    const l = await lane('kc-crash-builder-i1');
    const dir = fs.realpathSync(l.cwd);
    // The work: an edit of a tracked file, a new text file without a final newline, a new binary file.
    const work: Record<string, Buffer> = {
      'README.md': Buffer.from('# proj\nedited before the crash\n'),
      'notes/wip.txt': Buffer.from('no newline at the end'),
      'blob.bin': crypto.randomBytes(4096),
    };
    for (const [name, bytes] of Object.entries(work)) {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), bytes);
    }

    const reap = s.svc(['lane', 'reap', l.name, '--park']);
    const pid = Number(
      (
        await eventually(
          () => (fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8') : undefined),
          90_000,
          'the reap to pause after parking',
        )
      ).trim(),
    );
    assert.deepEqual(daemonPids(s.svcHome), [pid], 'the paused process is the daemon of this home');
    process.kill(pid, 'SIGKILL');
    await eventually(() => !alive(pid), 10_000, 'the daemon to die');
    const cut = await reap;
    assert.notEqual(cut.code, 0, `the reap cut off by the kill does not claim success\n${cut.stdout}${cut.stderr}`);

    // The crash left the state this test is about: patch published, tree cleaned, worktree still there.
    const folder = path.join(s.svcHome, 'agents', `conv-${l.name}`);
    const patches = fs.readdirSync(folder).filter((f) => /^parked-.*\.patch$/.test(f));
    assert.equal(patches.length, 1, fs.readdirSync(folder).join(' '));
    const patch = path.join(folder, patches[0]);
    assert.equal(git(dir, s.env, 'status', '--porcelain').trim(), '', 'the tree was cleaned');
    const inPlace = `git -C ${dir} apply --index -p2 --whitespace=nowarn ${patch}`;

    // The next svc command starts a new daemon; it shows the patch.
    const rec = await lane(l.name);
    assert.deepEqual(rec.parked, [{ patchFile: patch, tarFile: null, paths: 3, restoreCommand: inPlace }]);
    const show = await ok(s.svc(['lane', 'show', l.name]));
    assert.ok(show.stdout.includes(`\n    parked ${patch} (3 paths)\n      restore with: ${inPlace}\n`), show.stdout);

    // A second reap has nothing to park; it finishes the reap and names the earlier patch.
    const again = await ok(s.svc(['lane', 'reap', l.name, '--park']));
    const after = `git -C ${w.repo} worktree add ${dir} kc/crash && ${inPlace}`;
    assert.equal(
      again.stdout,
      [
        `reaped conv ${l.id} (${l.name})`,
        `note: an earlier park of this lane left ${patch} (3 paths)`,
        `  restore with: ${after}`,
        `removed worktree ${dir}`,
        `kept branch kc/crash at ${rec.git?.headSha?.slice(0, 7)}`,
        `archived conv ${l.id}`,
        '',
      ].join('\n'),
    );
    assert.equal(fs.existsSync(dir), false, 'the worktree is gone');
    assert.deepEqual((await lane(l.name)).parked, [
      { patchFile: patch, tarFile: null, paths: 3, restoreCommand: after },
    ]);

    // The printed command, run as printed, brings every byte back.
    const r = sh(after, s.env, s.home);
    assert.equal(r.code, 0, r.stderr);
    for (const [name, bytes] of Object.entries(work))
      assert.ok(fs.readFileSync(path.join(dir, name)).equals(bytes), `${name} is byte-exact`);
  });
});
