// `svc lane reap` through the daemon: a refused reap changes nothing, the running agent
// included (what step 4 refuses is refused before the stop door is used), over the CLI and
// HTTP alike; and a park whose reap did not finish (the tree cleaned, the worktree still
// there, as after a crash mid-park) is shown by lane show, lane list --json, and named by
// the next reap.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ConversationInfo } from '../../shared/protocol/conversations';
import type { LaneRecord } from '../../shared/protocol/lanes';
import { laneWorld, ok, startLane } from '../helpers/lanes';
import type { LaneWorld } from '../helpers/lanes';
import { git, makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import { writeBrief } from '../helpers/scriptBrief';
import { sh } from './parkFixtures';

describe('lanes: a refused reap changes nothing; every parked patch stays in sight', function () {
  this.timeout(180_000);
  let s: Scratch;
  let w: LaneWorld;

  before(async () => {
    s = makeScratch('reap-first');
    w = await laneWorld(s);
  });
  after(async () => s.dispose());

  const lane = async (name: string): Promise<LaneRecord> =>
    (JSON.parse((await ok(s.svc(['lane', 'list', '--json']))).stdout) as LaneRecord[]).find((l) => l.name === name)!;
  const conv = async (name: string) =>
    JSON.parse((await ok(s.svc(['conv', 'show', name, '--json']))).stdout) as ConversationInfo;
  const idleLane = async (key: string) => {
    const idle = writeBrief(w.briefs, `${key}.md`, [{ say: 'idle' }]);
    await startLane(w, { run: 'rf', key, role: 'builder', model: 'm', brief: idle });
    return lane(`rf-${key}-builder-i1`);
  };

  it('a plain reap of a live lane with a dirty tree is refused before the agent is stopped (CLI and HTTP)', async () => {
    const l = await idleLane('dirty');
    assert.equal((await conv(l.name)).alive, true);
    fs.writeFileSync(path.join(l.cwd, 'wip.txt'), 'wip\n');
    const r = await s.svc(['lane', 'reap', l.name]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.equal(
      r.stderr,
      `${fs.realpathSync(l.cwd)} has uncommitted work (1 path); commit it, or reap with --park to save it to a patch\n  ?? wip.txt\n`,
    );
    const c = await conv(l.name);
    assert.equal(c.alive, true, 'the agent still runs');
    assert.notEqual(c.activity, 'stopped');
    const d = JSON.parse(fs.readFileSync(path.join(s.svcHome, 'server.json'), 'utf8')) as {
      httpPort: number;
      token: string;
    };
    const res = await fetch(`http://127.0.0.1:${d.httpPort}/api/lanes/${l.name}/reap`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${d.token}` },
      body: '{}',
    });
    assert.equal(res.status, 409);
    assert.equal(((await res.json()) as { reason: string }).reason, 'dirty');
    assert.equal((await conv(l.name)).alive, true, 'still running after the refused HTTP reap');
    assert.equal(fs.readFileSync(path.join(l.cwd, 'wip.txt'), 'utf8'), 'wip\n');
  });

  it('a reap --park that did not finish (tree cleaned, worktree left) is shown with its restore command, and the next reap names it', async () => {
    const l = await idleLane('crash');
    const dir = fs.realpathSync(l.cwd);
    fs.writeFileSync(path.join(l.cwd, 'wip.txt'), 'parked before the end\n');
    // The reap stops after parking and cleaning, before the worktree is removed: the state a kill -9 mid-park leaves.
    // Locked in the repository it is a worktree of: its own (lanes.git: own), else the project's.
    const common = git(l.cwd, s.env, 'rev-parse', '--path-format=absolute', '--git-common-dir');
    git(common, s.env, 'worktree', 'lock', '--reason', 'held', l.cwd);
    const failed = await s.svc(['lane', 'reap', l.name, '--park']);
    assert.equal(failed.code, 1, failed.stdout + failed.stderr);
    git(common, s.env, 'worktree', 'unlock', l.cwd);
    assert.equal(fs.existsSync(path.join(l.cwd, 'wip.txt')), false, 'the tree was cleaned');
    const folder = path.join(s.svcHome, 'agents', `conv-${l.name}`);
    const [patchName] = fs.readdirSync(folder).filter((f) => f.startsWith('parked-'));
    const patch = path.join(folder, patchName);
    const inPlace = `git -C ${dir} apply --index -p2 --whitespace=nowarn ${patch}`;

    const rec = await lane(l.name);
    assert.deepEqual(rec.parked, [{ patchFile: patch, tarFile: null, paths: 1, restoreCommand: inPlace }]);
    const show = await ok(s.svc(['lane', 'show', l.name]));
    assert.equal(
      show.stdout,
      `i1 stopped\n#${l.id} builder i1 stopped - -\n    sandbox workspace: writes only its own worktree\n    base ${rec.baseSha}\n    parked ${patch} (1 path)\n      restore with: ${inPlace}\n`,
    );

    // Nothing left to park: the next reap succeeds and names the earlier patch, with the command that now restores it.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const again = await ok(s.svc(['lane', 'reap', l.name, '--park']));
    const after = `git -C ${w.repo} worktree add ${dir} rf/crash && ${inPlace}`;
    assert.equal(
      again.stdout,
      [
        `reaped conv ${l.id} (${l.name})`,
        `note: an earlier park of this lane left ${patch} (1 path)`,
        `  restore with: ${after}`,
        `removed worktree ${dir}`,
        `kept branch rf/crash at ${rec.git?.headSha?.slice(0, 7)}`,
        `archived conv ${l.id}`,
        '',
      ].join('\n'),
    );
    assert.deepEqual((await lane(l.name)).parked, [
      { patchFile: patch, tarFile: null, paths: 1, restoreCommand: after },
    ]);
    const r = sh(after, s.env, s.home);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(fs.readFileSync(path.join(dir, 'wip.txt'), 'utf8'), 'parked before the end\n');
  });
});
