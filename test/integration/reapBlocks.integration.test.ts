// The reap building blocks that do not need lanes, against real processes and real git:
// the process probe, the lanes-root check, unpushed commits, worktree and play removal.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SvcError } from '../../shared/errors';
import { checkInsideLanesRoot } from '../../server/reap/lanesRootCheck';
import { processesInside } from '../../server/reap/processesInside';
import type { ProcessSource } from '../../server/reap/processesInside';
import { findGit, removePlayDir, removeWorktree } from '../../server/reap/removeDirs';
import { unpushedCommits } from '../../server/reap/unpushed';
import { keepPrivateCommits } from '../../server/reap/privateCommits';
import { uncommittedPaths, worktreeInfo } from '../../server/reap/worktreeInfo';
import { eventually, git, makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import { addWorktree, forceRemoveWorktree, makeLaneRepo } from './parkFixtures';
import type { LaneRepo } from './parkFixtures';
import type { SvcReason } from '../../shared/refusals/reasons';

function refusal(fn: () => unknown, reason: SvcReason): SvcError {
  try {
    fn();
  } catch (e) {
    assert.ok(SvcError.is(e, reason), `expected ${reason}, got ${String(e)}`);
    assert.equal(e.kind, 'refused');
    return e;
  }
  assert.fail(`expected a ${reason} refusal`);
}

async function asyncRefusal(p: Promise<unknown>, reason: SvcReason): Promise<SvcError> {
  const e = await p.then(
    () => assert.fail(`expected a ${reason} refusal`),
    (err: unknown) => err,
  );
  assert.ok(SvcError.is(e, reason), `expected ${reason}, got ${String(e)}`);
  return e;
}

describe('reap building blocks', function () {
  let s: Scratch;
  let repo: LaneRepo;
  const worktrees: string[] = [];
  let n = 0;
  const fresh = (branch: string | null) => {
    const wt = addWorktree(repo, s.env, `blk-${n++}`, branch);
    worktrees.push(wt);
    return wt;
  };

  before(() => {
    s = makeScratch('reap-blocks');
    repo = makeLaneRepo(s);
  });
  after(async () => {
    for (const wt of worktrees) forceRemoveWorktree(repo, s.env, wt);
    await s.dispose();
  });

  describe('processesInside (step 3)', () => {
    const children: ChildProcess[] = [];
    afterEach(() => {
      for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
    });
    const sleepIn = (cwd: string) => {
      const c = spawn('sleep', ['300'], { cwd, stdio: 'ignore' });
      children.push(c);
      return c;
    };

    for (const source of ['proc', 'lsof'] as ProcessSource[]) {
      it(`lists a real sleep with its cwd inside, nested or through a symlinked path (${source})`, async () => {
        const dir = path.join(repo.lanesRoot, `procs-${source}`);
        fs.mkdirSync(path.join(dir, 'deep', 'er'), { recursive: true });
        const alias = path.join(s.home, `alias-${source}`);
        fs.symlinkSync(dir, alias);
        const outside = path.join(repo.lanesRoot, `procs-${source}-sibling`);
        fs.mkdirSync(outside);
        const top = sleepIn(dir);
        const nested = sleepIn(path.join(alias, 'deep', 'er'));
        sleepIn(outside); // a sibling whose name starts with the same text is not inside
        const found = await eventually(
          async () => {
            const list = await processesInside(alias, { source });
            return list.length === 2 ? list : null;
          },
          10_000,
          'both sleeps',
        );
        assert.deepEqual(
          found,
          [
            { pid: top.pid, command: 'sleep 300' },
            { pid: nested.pid, command: 'sleep 300' },
          ].sort((a, b) => (a.pid as number) - (b.pid as number)),
        );
        top.kill('SIGKILL');
        nested.kill('SIGKILL');
        await eventually(async () => (await processesInside(dir, { source })).length === 0, 10_000, 'sleeps gone');
      });
    }

    it('a folder that is gone holds no process', async () => {
      assert.deepEqual(await processesInside(path.join(repo.lanesRoot, 'never-made')), []);
    });

    it('excludes the calling process and any PID it is told to leave out', async () => {
      const dir = path.join(repo.lanesRoot, 'procs-self');
      fs.mkdirSync(dir);
      const before = process.cwd();
      process.chdir(dir);
      try {
        assert.deepEqual(await processesInside(dir), []);
      } finally {
        process.chdir(before);
      }
      const c = sleepIn(dir);
      await eventually(async () => (await processesInside(dir)).length === 1, 10_000, 'sleep seen');
      assert.deepEqual(await processesInside(dir, { exclude: [c.pid as number] }), []);
    });
  });

  describe('checkInsideLanesRoot (step 2)', () => {
    it('accepts a directory inside the root and returns its real path', () => {
      const dir = fresh(null);
      assert.equal(checkInsideLanesRoot(dir, repo.lanesRoot), fs.realpathSync(dir));
    });
    it('accepts a lane directory that is already gone', () => {
      assert.equal(
        checkInsideLanesRoot(path.join(repo.lanesRoot, 'gone', 'x'), repo.lanesRoot),
        path.join(fs.realpathSync(repo.lanesRoot), 'gone', 'x'),
      );
    });
    it('accepts a root given through a symlink', () => {
      const dir = fresh(null);
      const rootAlias = path.join(s.home, 'lanes-alias');
      fs.symlinkSync(repo.lanesRoot, rootAlias);
      assert.equal(checkInsideLanesRoot(path.join(rootAlias, path.basename(dir)), rootAlias), fs.realpathSync(dir));
    });
    it('refuses a directory outside the root', () => {
      const e = refusal(() => checkInsideLanesRoot(repo.dir, repo.lanesRoot), 'outsideLanesRoot');
      assert.equal(
        e.message,
        `${repo.dir} is outside the lanes root ${fs.realpathSync(repo.lanesRoot)}; reap only removes lane directories`,
      );
    });
    it('refuses a sibling whose name merely starts with the root', () => {
      const sibling = `${repo.lanesRoot}-other`;
      fs.mkdirSync(sibling, { recursive: true });
      refusal(() => checkInsideLanesRoot(path.join(sibling, 'x'), repo.lanesRoot), 'outsideLanesRoot');
    });
    it('refuses the root itself and ../ escapes', () => {
      refusal(() => checkInsideLanesRoot(repo.lanesRoot, repo.lanesRoot), 'outsideLanesRoot');
      refusal(() => checkInsideLanesRoot(path.join(repo.lanesRoot, '..', 'proj'), repo.lanesRoot), 'outsideLanesRoot');
    });
    it('refuses a symlink inside the root that points outside it', () => {
      const link = path.join(repo.lanesRoot, 'sneaky');
      fs.symlinkSync(repo.dir, link);
      const e = refusal(() => checkInsideLanesRoot(link, repo.lanesRoot), 'outsideLanesRoot');
      assert.equal(
        e.message,
        `${link} (it resolves to ${fs.realpathSync(repo.dir)}) is outside the lanes root ${fs.realpathSync(repo.lanesRoot)}; reap only removes lane directories`,
      );
      // and a path through a symlinked parent folder
      refusal(() => checkInsideLanesRoot(path.join(link, 'dir'), repo.lanesRoot), 'outsideLanesRoot');
    });
    it('refuses a dangling symlink: its target is unknown', () => {
      const link = path.join(repo.lanesRoot, 'dangling');
      fs.symlinkSync(path.join(s.home, 'nowhere'), link);
      const e = refusal(() => checkInsideLanesRoot(link, repo.lanesRoot), 'outsideLanesRoot');
      assert.equal(
        e.message,
        `${link} (it resolves to a symlink that cannot be resolved) is outside the lanes root ${fs.realpathSync(repo.lanesRoot)}; reap only removes lane directories`,
      );
    });
  });

  describe('unpushedCommits (step 5)', () => {
    const commit = (wt: string, msg: string) => {
      fs.appendFileSync(path.join(wt, 'text.txt'), `${msg}\n`);
      git(wt, s.env, 'commit', '--quiet', '-am', msg);
      return git(wt, s.env, 'rev-parse', 'HEAD');
    };

    it('lists commits the upstream lacks, newest first', async () => {
      const wt = fresh('up/one');
      commit(wt, 'pushed');
      git(wt, s.env, 'push', '--quiet', '-u', 'origin', 'up/one');
      const a = commit(wt, 'first unpushed');
      const b = commit(wt, 'second unpushed');
      assert.deepEqual(await unpushedCommits(wt, { env: s.env }), {
        branch: 'up/one',
        head: b,
        upstream: 'origin/up/one',
        commits: [
          { sha: b, subject: 'second unpushed' },
          { sha: a, subject: 'first unpushed' },
        ],
        unreferenced: 0,
      });
    });

    it('with no upstream, lists commits absent from every remote branch', async () => {
      const wt = fresh('up/none');
      const a = commit(wt, 'local only');
      assert.deepEqual(await unpushedCommits(wt, { env: s.env }), {
        branch: 'up/none',
        head: a,
        upstream: null,
        commits: [{ sha: a, subject: 'local only' }],
        unreferenced: 0,
      });
    });

    it('an upstream that is gone falls back to every remote branch', async () => {
      const wt = fresh('up/gone');
      const a = commit(wt, 'was pushed');
      git(wt, s.env, 'push', '--quiet', '-u', 'origin', 'up/gone');
      git(wt, s.env, 'push', '--quiet', 'origin', '--delete', 'up/gone');
      assert.deepEqual((await unpushedCommits(wt, { env: s.env })).commits, [{ sha: a, subject: 'was pushed' }]);
    });

    it('nothing to warn about when everything is pushed', async () => {
      const wt = fresh('up/clean');
      commit(wt, 'pushed');
      git(wt, s.env, 'push', '--quiet', '-u', 'origin', 'up/clean');
      assert.deepEqual((await unpushedCommits(wt, { env: s.env })).commits, []);
    });

    it('a detached HEAD with commits no ref holds: counted, and kept on a new branch on request', async () => {
      const wt = fresh(null);
      const a = commit(wt, 'detached work');
      const report = await unpushedCommits(wt, { env: s.env });
      assert.deepEqual(report, {
        branch: null,
        head: a,
        upstream: null,
        commits: [{ sha: a, subject: 'detached work' }],
        unreferenced: 1,
      });
      const kept = await keepPrivateCommits(await worktreeInfo(wt, { env: s.env }), 'svc-kept/blk', { env: s.env });
      assert.deepEqual(kept, [{ branch: 'svc-kept/blk', sha: a, commits: 1, head: true }]);
      assert.equal(git(repo.dir, s.env, 'rev-parse', 'svc-kept/blk'), a);
      assert.equal((await unpushedCommits(wt, { env: s.env })).unreferenced, 0);
      assert.deepEqual(
        await keepPrivateCommits(await worktreeInfo(wt, { env: s.env }), 'svc-kept/again', { env: s.env }),
        [],
        'nothing left to keep',
      );
    });

    it('keepPrivateCommits never moves an existing branch: a taken name gets a suffix', async () => {
      const wt = fresh(null);
      const a = commit(wt, 'more detached work');
      git(repo.dir, s.env, 'branch', 'taken', repo.base);
      const kept = await keepPrivateCommits(await worktreeInfo(wt, { env: s.env }), 'taken', { env: s.env });
      assert.deepEqual(kept, [{ branch: 'taken-2', sha: a, commits: 1, head: true }]);
      assert.equal(git(repo.dir, s.env, 'rev-parse', 'taken'), repo.base);
    });
  });

  describe('removeWorktree (step 6)', () => {
    it('removes a clean worktree (ignored files go with it), prunes, and keeps the branch', async () => {
      const wt = fresh('rm/clean');
      fs.mkdirSync(path.join(wt, 'build'));
      fs.writeFileSync(path.join(wt, 'build', 'out.o'), 'ignored');
      await removeWorktree(wt, { env: s.env });
      assert.equal(fs.existsSync(wt), false);
      assert.ok(!git(repo.dir, s.env, 'worktree', 'list', '--porcelain').includes(wt));
      assert.equal(git(repo.dir, s.env, 'rev-parse', 'rm/clean'), repo.base);
    });

    it('is refused by git for a dirty worktree, which stays as it was', async () => {
      const wt = fresh('rm/dirty');
      fs.writeFileSync(path.join(wt, 'untracked.txt'), 'work');
      const e = await asyncRefusal(removeWorktree(wt, { env: s.env }), 'worktreeRemoveFailed');
      assert.equal(
        e.message,
        `git refused to remove the worktree ${fs.realpathSync(wt)}: '${fs.realpathSync(wt)}' contains modified or untracked files, use --force to delete it; reap never forces it`,
      );
      assert.equal(fs.readFileSync(path.join(wt, 'untracked.txt'), 'utf8'), 'work');
      assert.deepEqual(await uncommittedPaths(wt, { env: s.env }), ['?? untracked.txt']);
    });

    it('refuses the main worktree', async () => {
      const e = await asyncRefusal(removeWorktree(repo.dir, { env: s.env }), 'notAWorktree');
      assert.equal(
        e.message,
        `${repo.dir} is not a linked git worktree (it is a main worktree); reap removes only lane worktrees`,
      );
      assert.ok(fs.existsSync(path.join(repo.dir, '.git')));
    });

    it('refuses a folder that is not a worktree, even inside another work tree', async () => {
      // A plain folder inside some other work tree: git would answer for the outer one.
      const outer = path.join(repo.lanesRoot, 'outer-work-tree');
      fs.mkdirSync(outer);
      git(outer, s.env, 'init', '-q');
      const dir = path.join(outer, 'no-git-here');
      fs.mkdirSync(dir);
      assert.equal(git(dir, s.env, 'rev-parse', '--show-toplevel'), outer);
      const e = await asyncRefusal(removeWorktree(dir, { env: s.env }), 'notAWorktree');
      assert.equal(
        e.message,
        `${dir} is not a linked git worktree (it is inside the work tree ${outer}, not the top of one); reap removes only lane worktrees`,
      );
      await asyncRefusal(uncommittedPaths(dir, { env: s.env }), 'notAWorktree');
      await asyncRefusal(unpushedCommits(dir, { env: s.env }), 'notAWorktree');
      const dirInLane = path.join(fresh(null), 'dir');
      await asyncRefusal(removeWorktree(dirInLane, { env: s.env }), 'notAWorktree');
    });
  });

  describe('removePlayDir (step 6, play lanes)', () => {
    const play = (name: string) => {
      const dir = path.join(repo.lanesRoot, name);
      fs.mkdirSync(path.join(dir, 'sub', 'deeper'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'notes.md'), 'play');
      return dir;
    };

    it('removes a play directory that holds no .git', () => {
      const dir = play('play-clean');
      removePlayDir(dir);
      assert.equal(fs.existsSync(dir), false);
    });

    it('refuses when a .git folder is anywhere inside, and removes nothing', () => {
      const dir = play('play-repo');
      git(path.join(dir, 'sub', 'deeper'), s.env, 'init', '--quiet');
      const e = refusal(() => removePlayDir(dir), 'playHasGit');
      assert.equal(
        e.message,
        `play directory ${dir} holds a git repository (${path.join(dir, 'sub', 'deeper', '.git')}); reap removes a play directory only when it holds no .git`,
      );
      assert.equal(fs.readFileSync(path.join(dir, 'notes.md'), 'utf8'), 'play');
    });

    it('refuses a .git file (a worktree or submodule link) too', () => {
      const dir = play('play-gitfile');
      fs.writeFileSync(path.join(dir, 'sub', '.git'), 'gitdir: /somewhere\n');
      refusal(() => removePlayDir(dir), 'playHasGit');
      assert.ok(fs.existsSync(path.join(dir, 'notes.md')));
    });

    it('does not follow symlinks: a link to a repository elsewhere is removed, the repository kept', () => {
      const dir = play('play-link');
      fs.symlinkSync(repo.dir, path.join(dir, 'proj-link'));
      assert.equal(findGit(dir), null);
      removePlayDir(dir);
      assert.equal(fs.existsSync(dir), false);
      assert.ok(fs.existsSync(path.join(repo.dir, '.git')));
    });
  });
});
