// A lane whose git dir holds a submodule's repository (`git submodule add` clones into
// `<git dir>/modules/<name>` and leaves it there when the add fails later or the submodule
// is removed again): git will not remove such a worktree, so `svc lane reap` refuses before
// it stops the agent, parks or cleans anything. Without the check, `reap --park` parked and
// cleaned the tree and then failed at `git worktree remove`.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ConversationInfo } from '../../shared/protocol/conversations';
import type { LaneRecord } from '../../shared/protocol/lanes';
import { laneWorld, ok, startLane } from '../helpers/lanes';
import type { LaneWorld } from '../helpers/lanes';
import { eventually, git, makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import { writeBrief } from '../helpers/scriptBrief';

describe('reap: a submodule repository in the lane git dir is refused before anything is touched', function () {
  this.timeout(120_000);
  let s: Scratch;
  let w: LaneWorld;
  let l: LaneRecord;

  before(async () => {
    s = makeScratch('reap-modules');
    w = await laneWorld(s);
    // The agent adds a submodule and takes it back out: the clone stays in its git dir.
    const brief = writeBrief(w.briefs, 'sub.md', [
      {
        run: `git -c protocol.file.allow=always submodule add -q ${w.origin} sub 2>/dev/null; git rm -qf sub .gitmodules; printf 'wip\\n' > wip.txt; echo added-and-removed`,
      },
    ]);
    l = await startLane(w, { run: 'ng', key: 'k', role: 'builder', model: 'm', brief });
    await eventually(
      async () => (await ok(s.svc(['conv', 'log', l.name, '--lines', '400']))).stdout.includes('\nadded-and-removed\n'),
      30_000,
      'the script ran',
    );
  });
  after(async () => s.dispose());

  it('plain and --park reaps are refused with the git dir named; worktree, branch, files and agent are intact', async () => {
    const dir = fs.realpathSync(l.cwd);
    const gitDir = git(l.cwd, s.env, 'rev-parse', '--absolute-git-dir').trim();
    const modules = path.join(gitDir, 'modules');
    assert.equal(fs.existsSync(path.join(modules, 'sub', 'HEAD')), true, 'the add left its clone in the git dir');
    const head = git(l.cwd, s.env, 'rev-parse', 'HEAD').trim();
    // The repository it is a worktree of: its own (lanes.git: own), else the project's.
    const common = git(l.cwd, s.env, 'rev-parse', '--path-format=absolute', '--git-common-dir');
    const message =
      `${dir} has 1 submodule repository in its git dir (${modules}), as git submodule add leaves one even when it fails; ` +
      `git will not remove a worktree that holds one, and reap would delete it: push any work it holds, then delete it ` +
      `(rm -rf ${modules}) or move it out, and reap again; nothing was changed\n  ${path.join(modules, 'sub')}\n`;
    for (const args of [
      ['lane', 'reap', l.name, '--park'],
      ['lane', 'reap', l.name],
    ]) {
      const r = await s.svc(args);
      assert.deepEqual([r.code, r.stdout, r.stderr], [1, '', message], args.join(' '));
      assert.equal(fs.readFileSync(path.join(dir, 'wip.txt'), 'utf8'), 'wip\n', 'the untracked file is where it was');
      assert.equal(git(w.repo, s.env, 'rev-parse', 'refs/heads/ng/k').trim(), head, 'the branch stands');
      assert.match(git(common, s.env, 'worktree', 'list', '--porcelain'), new RegExp(`^worktree ${dir}$`, 'm'));
      assert.equal(fs.existsSync(path.join(modules, 'sub', 'HEAD')), true, 'the submodule repository stands');
      assert.deepEqual(
        fs.readdirSync(path.join(s.svcHome, 'agents', `conv-${l.name}`)).filter((f) => f.startsWith('parked-')),
        [],
        'nothing was parked',
      );
      const c = JSON.parse((await ok(s.svc(['conv', 'show', l.name, '--json']))).stdout) as ConversationInfo;
      assert.equal(c.alive, true, 'the agent was not stopped');
    }
  });

  it('once the repository is moved out, the same reap --park goes through', async () => {
    const gitDir = git(l.cwd, s.env, 'rev-parse', '--absolute-git-dir').trim();
    fs.rmSync(path.join(gitDir, 'modules'), { recursive: true });
    const r = await ok(s.svc(['lane', 'reap', l.name, '--park']));
    assert.match(r.stdout, /^parked 1 path in /m);
    assert.equal(fs.existsSync(l.cwd), false);
  });
});
