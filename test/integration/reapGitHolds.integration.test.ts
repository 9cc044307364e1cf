// Work git holds in less common ways, through the whole reap sequence: commits only the
// worktree's HEAD reflog or its own refs hold are kept on named branches; a merge,
// cherry-pick, revert or rebase half done, a `.git` that is not the worktree's (a file in
// a folder, a clone in an ignored folder) and names git will not store are refused with
// nothing changed; a process holding a file of the lane open or mapped is a process
// inside; ignored means ignored by the rules of the lane's base commit; new files outside
// a sparse checkout's cone are work like any other.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SvcError } from '../../shared/errors';
import { reapLaneDir } from '../../server/reap/reapLaneDir';
import type { ReapPlan } from '../../server/reap/reapLaneDir';
import { formatReapReport } from '../../shared/format/reapReport';
import type { ReapRefusal } from '../../shared/refusals/reap';
import { eventually, git, makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import { addWorktree, forceRemoveWorktree, makeLaneRepo, sh, snapshot, sorted } from './parkFixtures';
import type { LaneRepo } from './parkFixtures';

describe('reap: work git holds in less common ways', function () {
  this.timeout(120_000);
  let s: Scratch;
  let repo: LaneRepo;
  const worktrees: string[] = [];
  const children: ChildProcess[] = [];
  let n = 0;

  before(() => {
    s = makeScratch('reap-holds');
    repo = makeLaneRepo(s);
  });
  afterEach(() => {
    for (const c of children.splice(0)) if (c.pid) killGroup(c.pid);
  });
  after(async () => {
    for (const wt of worktrees) forceRemoveWorktree(repo, s.env, wt);
    await s.dispose();
  });

  function killGroup(pid: number): void {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // gone
    }
  }

  function lane(o: { branch?: boolean } = {}) {
    const name = `g1-k${n++}`;
    const dir = addWorktree(repo, s.env, name, o.branch === false ? null : `g1/${name}`);
    worktrees.push(dir);
    const calls = { stop: 0, archive: 0 };
    const plan: ReapPlan = {
      env: s.env,
      conv: { id: 70 + n, name: `${name}-builder-i1` },
      dir,
      kind: 'worktree',
      lanesRoot: repo.lanesRoot,
      park: false,
      keep: false,
      patchFile: path.join(s.svcHome, 'agents', `conv-${name}`, 'parked-20250101T000000Z.patch'),
      keepBranchName: `g1/${name}-builder-i1-kept`,
      stop: async () => {
        calls.stop++;
        return true;
      },
      archive: () => {
        calls.archive++;
      },
    };
    return { plan, calls, dir, name };
  }

  async function refused(plan: ReapPlan, reason: ReapRefusal): Promise<SvcError> {
    const e = await reapLaneDir(plan).then(
      () => assert.fail(`expected ${reason}`),
      (err: unknown) => err,
    );
    assert.ok(SvcError.is(e, reason), `expected ${reason}, got ${String(e)}`);
    assert.equal(e.kind, 'refused');
    return e;
  }

  /** Everything a refusal must leave as it was: the files, git's view of them, HEAD, the private git state. */
  function state(dir: string) {
    const gitDir = git(dir, s.env, 'rev-parse', '--absolute-git-dir');
    const markers = ['MERGE_HEAD', 'CHERRY_PICK_HEAD', 'REVERT_HEAD', 'rebase-merge'].filter((m) =>
      fs.existsSync(path.join(gitDir, m)),
    );
    return {
      files: sorted(snapshot(dir)),
      status: git(dir, s.env, 'status', '--porcelain=v1'),
      head: git(dir, s.env, 'rev-parse', 'HEAD'),
      markers,
    };
  }

  const commitFile = (dir: string, file: string, text: string, msg: string) => {
    fs.writeFileSync(path.join(dir, file), text);
    git(dir, s.env, 'add', file);
    git(dir, s.env, 'commit', '--quiet', '-m', msg);
    return git(dir, s.env, 'rev-parse', 'HEAD');
  };

  it('a commit left on a detached HEAD (only the HEAD reflog holds it) is kept on a named branch', async () => {
    const { plan, dir, name } = lane();
    const branch = git(dir, s.env, 'symbolic-ref', '--short', 'HEAD');
    git(dir, s.env, 'checkout', '--quiet', '--detach');
    const ab = commitFile(dir, 'ab.txt', 'x\n', 'ab');
    git(dir, s.env, 'checkout', '--quiet', branch);
    const report = await reapLaneDir(plan);
    assert.equal(fs.existsSync(dir), false);
    const kept = `g1/${name}-builder-i1-kept-${ab.slice(0, 7)}`;
    assert.deepEqual(report.keptRefs, [{ branch: kept, sha: ab, commits: 1 }]);
    assert.equal(git(repo.dir, s.env, 'rev-parse', `refs/heads/${kept}`), ab);
    assert.match(
      formatReapReport(report),
      new RegExp(
        `^kept 1 commit only this worktree's reflog or its own refs held on new branch ${kept} at ${ab.slice(0, 7)}$`,
        'm',
      ),
    );
  });

  it("a commit held by a per-worktree ref (refs/worktree/keep) and its parent are kept; a detached HEAD's own commits keep the plain name", async () => {
    const { plan, dir, name } = lane({ branch: false });
    const first = commitFile(dir, 'one.txt', '1\n', 'one');
    const second = commitFile(dir, 'two.txt', '2\n', 'two');
    git(dir, s.env, 'update-ref', 'refs/worktree/keep', 'HEAD');
    git(dir, s.env, 'checkout', '--quiet', '--detach', repo.base);
    const own = commitFile(dir, 'own.txt', 'own\n', 'own');
    const report = await reapLaneDir(plan);
    assert.equal(report.keptBranch, `g1/${name}-builder-i1-kept`);
    assert.equal(git(repo.dir, s.env, 'rev-parse', `refs/heads/g1/${name}-builder-i1-kept`), own);
    const kept = `g1/${name}-builder-i1-kept-${second.slice(0, 7)}`;
    assert.deepEqual(report.keptRefs, [{ branch: kept, sha: second, commits: 2 }]);
    assert.equal(git(repo.dir, s.env, 'rev-parse', `${kept}~1`), first);
  });

  it('commits a branch reflog or a shared ref still holds get no kept branch', async () => {
    const { plan, dir } = lane();
    commitFile(dir, 'a.txt', 'a\n', 'a');
    git(dir, s.env, 'commit', '--quiet', '--amend', '-m', 'a, amended'); // the old one stays in the branch's reflog
    git(dir, s.env, 'stash', 'list');
    const report = await reapLaneDir(plan);
    assert.deepEqual(report.keptRefs, []);
    assert.equal(report.keptBranch, null);
  });

  it('a merge in progress (a deleted branch, conflicts partly resolved): plain and --park refused, MERGE_HEAD and every file kept', async () => {
    const { plan, calls, dir } = lane();
    git(dir, s.env, 'checkout', '--quiet', '-b', 'side');
    const side = commitFile(dir, 'text.txt', 'side one\nside two\n', 'side');
    commitFile(dir, 'dir/other.txt', 'side other\n', 'side other');
    const sideTip = git(dir, s.env, 'rev-parse', 'HEAD');
    git(dir, s.env, 'checkout', '--quiet', `g1/${path.basename(dir)}`);
    git(dir, s.env, 'branch', '--quiet', '-D', 'side');
    commitFile(dir, 'text.txt', 'ours one\n', 'ours');
    fs.writeFileSync(path.join(dir, 'dir/other.txt'), 'ours other, uncommitted\n');
    git(dir, s.env, 'commit', '--quiet', '-am', 'ours other');
    assert.equal(sh(`git merge ${sideTip}`, s.env, dir).code, 1, 'the merge conflicts');
    fs.writeFileSync(path.join(dir, 'text.txt'), 'resolved by hand\n');
    git(dir, s.env, 'add', 'text.txt'); // one conflict resolved, dir/other.txt still conflicted
    const before = state(dir);
    assert.deepEqual(before.markers, ['MERGE_HEAD']);
    const gitDir = git(dir, s.env, 'rev-parse', '--absolute-git-dir');
    for (const park of [false, true]) {
      const e = await refused({ ...plan, park }, 'operationInProgress');
      assert.equal(
        e.message,
        `${dir} is in the middle of a merge; a parked patch would keep the files but not the operation (its other parent, its conflicts): finish or abort it, then reap again; nothing was changed\n  a merge (${gitDir}/MERGE_HEAD): commit it (git commit), or git merge --abort`,
      );
      assert.deepEqual(state(dir), before);
    }
    assert.equal(calls.archive, 0);
    assert.equal(fs.existsSync(plan.patchFile), false);
    assert.equal(git(dir, s.env, 'rev-parse', 'MERGE_HEAD'), sideTip, `the other parent ${side} is still named`);
  });

  for (const op of ['cherry-pick', 'revert', 'rebase'] as const) {
    it(`a ${op} stopped on a conflict: --park refused, its state kept`, async () => {
      const { plan, dir } = lane();
      const branch = git(dir, s.env, 'symbolic-ref', '--short', 'HEAD');
      git(dir, s.env, 'checkout', '--quiet', '-b', `${op}-src`);
      const theirs = commitFile(dir, 'text.txt', `${op} theirs\n`, `${op} theirs`);
      git(dir, s.env, 'checkout', '--quiet', branch);
      commitFile(dir, 'text.txt', `${op} ours\n`, `${op} ours`);
      const cmd =
        op === 'cherry-pick'
          ? `git cherry-pick ${theirs}`
          : op === 'revert'
            ? `git revert --no-edit HEAD~1`
            : `git rebase ${op}-src`;
      if (op === 'revert') commitFile(dir, 'text.txt', 'revert ours again\n', 'again');
      assert.notEqual(sh(cmd, s.env, dir).code, 0, `${cmd} conflicts`);
      const before = state(dir);
      assert.equal(before.markers.length, 1, JSON.stringify(before.markers));
      const e = await refused({ ...plan, park: true }, 'operationInProgress');
      assert.match(e.message, new RegExp(`is in the middle of a (cherry-pick|revert|rebase)`));
      assert.deepEqual(state(dir), before);
    });
  }

  it('conflict stages left without a marker (git merge --quit): plain and --park refused, the stages kept', async () => {
    const { plan, dir } = lane();
    const branch = git(dir, s.env, 'symbolic-ref', '--short', 'HEAD');
    git(dir, s.env, 'checkout', '--quiet', '-b', 'quit-src');
    commitFile(dir, 'text.txt', 'quit theirs\n', 'quit theirs');
    git(dir, s.env, 'checkout', '--quiet', branch);
    commitFile(dir, 'text.txt', 'quit ours\n', 'quit ours');
    assert.notEqual(sh('git merge quit-src', s.env, dir).code, 0, 'the merge conflicts');
    git(dir, s.env, 'merge', '--quit');
    const before = state(dir);
    assert.deepEqual(before.markers, [], 'no operation marker is left');
    const stages = git(dir, s.env, 'ls-files', '-u');
    assert.equal(stages.split('\n').length, 3, stages);
    for (const park of [false, true]) {
      const e = await refused({ ...plan, park }, 'operationInProgress');
      assert.match(e.message, /is in the middle of a conflict resolution; /);
      assert.match(e.message, /index: 1 path with conflict stages\): resolve each path and git add it/);
      assert.deepEqual(state(dir), before);
      assert.equal(git(dir, s.env, 'ls-files', '-u'), stages);
    }
  });

  it('a .git file in a subfolder: plain and --park refused naming it, nothing changed', async () => {
    const { plan, calls, dir } = lane();
    fs.mkdirSync(path.join(dir, 'd'));
    fs.writeFileSync(path.join(dir, 'd', '.git'), 'gitdir: /nonexistent\n');
    fs.writeFileSync(path.join(dir, 'd', 'work.txt'), 'precious\n');
    const before = state(dir);
    for (const park of [false, true]) {
      const e = await refused({ ...plan, park }, 'nestedGit');
      assert.equal(
        e.message,
        `${dir} holds 1 git repository of its own (a .git that is not the worktree's); reap would delete it and no patch can save it: commit and push its work, then move it out of the worktree (or delete it yourself), and reap again; nothing was changed\n  ${dir}/d/.git`,
      );
      assert.deepEqual(state(dir), before);
      assert.equal(fs.readFileSync(path.join(dir, 'd', '.git'), 'utf8'), 'gitdir: /nonexistent\n');
    }
    assert.equal(calls.archive, 0);
  });

  it('a nested repository inside an ignored folder (build/dep/.git with a commit): refused, nothing deleted', async () => {
    const { plan, dir } = lane();
    const dep = path.join(dir, 'build', 'dep');
    fs.mkdirSync(dep, { recursive: true });
    git(dep, s.env, 'init', '--quiet');
    fs.writeFileSync(path.join(dep, 'lib.c'), 'int x;\n');
    git(dep, s.env, 'add', 'lib.c');
    git(dep, s.env, 'commit', '--quiet', '-m', 'dep');
    assert.equal(git(dir, s.env, 'status', '--porcelain=v1'), '', 'git status sees nothing');
    for (const park of [false, true]) {
      const e = await refused({ ...plan, park }, 'nestedGit');
      assert.match(e.message, new RegExp(`\\n  ${dep}/\\.git$`));
    }
    assert.equal(git(dep, s.env, 'log', '--format=%s'), 'dep');
  });

  it('a writer started elsewhere with its output in the lane (open file) and a program mapped from the lane: refused, listed', async () => {
    const { plan, calls, dir } = lane();
    const late = path.join(dir, 'late.log');
    const fd = fs.openSync(late, 'a');
    const writer = spawn('sh', ['-c', 'sleep 300; echo LATE'], {
      cwd: s.home,
      stdio: ['ignore', fd, 'ignore'],
      detached: true,
    });
    fs.closeSync(fd);
    children.push(writer);
    await eventually(() => fs.existsSync(`/proc/${writer.pid}/fd/1`), 10_000, 'writer started');
    const e = await refused(plan, 'processesInside');
    const lines = e.message.split('\n');
    assert.equal(
      lines[0],
      `${lines.length - 1 === 1 ? '1 process works' : `${lines.length - 1} processes work`} inside ${dir} (a working directory there, or a file there held open or mapped); reap never kills a process: end ${lines.length === 2 ? 'it' : 'them'} or move ${lines.length === 2 ? 'it' : 'them'} out, then reap again`,
    );
    assert.ok(lines.includes(`  ${writer.pid} sh -c sleep 300; echo LATE (holds ${late} open)`), e.message);
    killGroup(writer.pid!);
    await eventually(
      async () =>
        !fs.existsSync(`/proc/${writer.pid}`) || fs.readFileSync(`/proc/${writer.pid}/stat`, 'utf8').includes(') Z'),
      10_000,
      'writer gone',
    );

    // A program run from the lane's (ignored) build folder maps its own file, with no descriptor open.
    fs.mkdirSync(path.join(dir, 'build'));
    const bin = path.join(dir, 'build', 'sleeper');
    fs.copyFileSync(fs.realpathSync('/bin/sleep'), bin);
    fs.chmodSync(bin, 0o755);
    const mapped = spawn(bin, ['300'], { cwd: s.home, stdio: 'ignore', detached: true });
    children.push(mapped);
    await eventually(
      () =>
        fs.existsSync(`/proc/${mapped.pid}/maps`) && fs.readFileSync(`/proc/${mapped.pid}/maps`, 'utf8').includes(bin),
      10_000,
      'program mapped',
    );
    const e2 = await refused(plan, 'processesInside');
    assert.ok(e2.message.split('\n').includes(`  ${mapped.pid} ${bin} 300 (holds ${bin} open)`), e2.message);
    assert.equal(calls.archive, 0);
    assert.ok(fs.existsSync(late));
  });

  it('a .gitignore of * the lane committed itself: plain reap refuses over the new file, --park saves it', async () => {
    const { plan, dir } = lane();
    fs.writeFileSync(path.join(dir, '.gitignore'), '*\n!.gitignore\n');
    git(dir, s.env, 'add', '.gitignore');
    git(dir, s.env, 'commit', '--quiet', '-m', 'i');
    fs.writeFileSync(path.join(dir, 'newwork.txt'), 'precious\n');
    assert.equal(git(dir, s.env, 'status', '--porcelain=v1'), '', 'git status hides it');
    const before = state(dir);
    const e = await refused(plan, 'dirty');
    assert.equal(
      e.message,
      `${dir} has uncommitted work (1 path); commit it, or reap with --park to save it to a patch\n  !! newwork.txt (ignored, but not by a .gitignore committed at the base commit of the lane)\ngit status does not show 1 of them: to commit them, clear the bit (git update-index --no-assume-unchanged <path>, or --no-skip-worktree) and add ignored files with git add --force`,
    );
    assert.deepEqual(state(dir), before);
    const report = await reapLaneDir({ ...plan, park: true });
    assert.equal(report.park?.files, 1);
    assert.equal(fs.existsSync(dir), false);
    const r = sh(report.park.restoreAfterRemoveCommand, s.env, s.home);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(fs.readFileSync(path.join(dir, 'newwork.txt'), 'utf8'), 'precious\n');
  });

  it('new files outside a sparse checkout cone: plain reap refuses listing them, --park saves and restores them', async () => {
    const { plan, dir } = lane();
    git(dir, s.env, 'sparse-checkout', 'set', '--cone', 'dir');
    fs.mkdirSync(path.join(dir, 'outside'));
    fs.writeFileSync(path.join(dir, 'outside', 'new.txt'), 'outside the cone\n');
    const before = state(dir);
    const e = await refused(plan, 'dirty');
    assert.equal(
      e.message,
      `${dir} has uncommitted work (1 path); commit it, or reap with --park to save it to a patch\n  ?? outside/new.txt`,
    );
    assert.deepEqual(state(dir), before);
    const report = await reapLaneDir({ ...plan, park: true });
    assert.equal(report.park?.files, 1);
    const r = sh(report.park.restoreAfterRemoveCommand, s.env, s.home);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(fs.readFileSync(path.join(dir, 'outside', 'new.txt'), 'utf8'), 'outside the cone\n');
  });

  it('names git will not store (.GIT, git~1): plain and --park refused with the reason, nothing changed', async () => {
    const { plan, dir } = lane();
    fs.mkdirSync(path.join(dir, 'sub'));
    fs.writeFileSync(path.join(dir, 'sub', '.GIT'), 'not a repository\n');
    fs.writeFileSync(path.join(dir, 'git~1'), 'short name\n');
    const before = state(dir);
    for (const park of [false, true]) {
      const e = await refused({ ...plan, park }, 'unstorablePaths');
      assert.equal(
        e.message,
        `${dir} holds 2 paths git refuses to store (a name git reserves for its own folder on some file systems, such as .GIT or git~1), so reap can neither check nor park them: rename them or move them out of the worktree, then reap again; nothing was changed\n  git~1\n  sub/.GIT`,
      );
      assert.deepEqual(state(dir), before);
    }
  });
});
