// The reap sequence (spec steps 1–7) over real worktrees and play folders, with the
// lane parts (stop door, archive) faked: every refusal archives, removes and cleans
// nothing; a parked reap prints a restore command that works; archive failures do
// not fail the reap.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SvcError } from '../../shared/errors';
import { verifyPatch } from '../../server/reap/parkVerify';
import { reapLaneDir } from '../../server/reap/reapLaneDir';
import type { ReapPlan } from '../../server/reap/reapLaneDir';
import { formatReapReport } from '../../shared/format/reapReport';
import { eventually, git, makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import { addWorktree, forceRemoveWorktree, makeLaneRepo, sh, snapshot, sorted } from './parkFixtures';
import type { LaneRepo } from './parkFixtures';
import type { ReapRefusal } from '../../shared/refusals/reap';

describe('reapLaneDir: the reap sequence', function () {
  let s: Scratch;
  let repo: LaneRepo;
  const worktrees: string[] = [];
  let n = 0;

  before(() => {
    s = makeScratch('reap-seq');
    repo = makeLaneRepo(s);
  });
  after(async () => {
    for (const wt of worktrees) forceRemoveWorktree(repo, s.env, wt);
    await s.dispose();
  });

  /** A plan over a fresh lane worktree, recording what the fake lane parts were asked. */
  function lane(o: { branch?: boolean; kind?: 'worktree' | 'play' } = {}) {
    const name = `r1-k${n++}`;
    let dir: string;
    if (o.kind === 'play') {
      dir = path.join(repo.lanesRoot, `${name}-play-i1`);
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, 'notes.md'), 'played\n');
    } else {
      dir = addWorktree(repo, s.env, name, o.branch === false ? null : `r1/${name}`);
      worktrees.push(dir);
    }
    const calls = { stop: 0, archive: 0 };
    const plan: ReapPlan = {
      env: s.env,
      conv: { id: 40 + n, name: `${name}-builder-i1` },
      dir,
      kind: o.kind ?? 'worktree',
      lanesRoot: repo.lanesRoot,
      park: false,
      keep: false,
      patchFile: path.join(s.svcHome, 'agents', `conv-${name}`, 'parked-20250101T000000Z.patch'),
      stop: async () => {
        calls.stop++;
        return true;
      },
      archive: () => {
        calls.archive++;
      },
    };
    return { plan, calls, dir };
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

  it('a clean lane: stopped, removed, branch kept, archived', async () => {
    const { plan, calls, dir } = lane();
    const report = await reapLaneDir(plan);
    assert.deepEqual(calls, { stop: 1, archive: 1 });
    assert.equal(fs.existsSync(dir), false);
    assert.equal(git(repo.dir, s.env, 'rev-parse', `r1/${path.basename(dir)}`), repo.base);
    assert.equal(
      formatReapReport(report),
      [
        `reaped conv ${plan.conv.id} (${plan.conv.name})`,
        `removed worktree ${dir}`,
        `kept branch r1/${path.basename(dir)} at ${repo.base.slice(0, 7)}`,
        `archived conv ${plan.conv.id}`,
      ].join('\n'),
    );
  });

  it('--park saves the work, reaps, and the printed restore command brings it back', async () => {
    const { plan, calls, dir } = lane();
    fs.writeFileSync(path.join(dir, 'text.txt'), 'work in progress\n');
    fs.writeFileSync(path.join(dir, 'new file.txt'), 'untracked\n');
    const before = sorted(snapshot(dir));
    const report = await reapLaneDir({ ...plan, park: true });
    assert.equal(calls.archive, 1);
    assert.equal(fs.existsSync(dir), false);
    assert.ok(report.park);
    assert.equal(report.park.patchFile, plan.patchFile);
    const text = formatReapReport(report);
    const restore = /^ {2}restore with: (.*)$/m.exec(text)?.[1];
    assert.equal(restore, report.park.restoreAfterRemoveCommand);
    assert.match(text, new RegExp(`^parked 2 paths in ${plan.patchFile.replace(/[.]/g, '\\.')}$`, 'm'));
    const r = sh(restore, s.env, s.home);
    assert.equal(r.code, 0, r.stderr);
    worktrees.push(dir);
    assert.deepEqual(sorted(snapshot(dir)), before);
  });

  it('refuses when the harness is still alive after the stop door: nothing archived or removed', async () => {
    const { plan, calls, dir } = lane();
    const e = await refused({ ...plan, stop: async () => false }, 'harnessAlive');
    assert.equal(
      e.message,
      `conv ${plan.conv.id} is still alive 30 s after the stop request; reap never kills a process: end it with svc conv stop --kill ${plan.conv.id}, then reap again`,
    );
    assert.equal(calls.archive, 0);
    assert.ok(fs.existsSync(path.join(dir, '.git')));
  });

  it('refuses a directory outside the lanes root, also through a symlink: nothing archived or removed', async () => {
    const { plan, calls, dir } = lane();
    const otherRoot = path.join(s.home, 'elsewhere');
    fs.mkdirSync(otherRoot, { recursive: true });
    await refused({ ...plan, lanesRoot: otherRoot }, 'outsideLanesRoot');
    const link = path.join(repo.lanesRoot, `link-to-${n}`);
    const outside = addWorktree(repo, s.env, `../outside-${n}`, null);
    worktrees.push(outside);
    fs.symlinkSync(outside, link);
    const e = await refused({ ...plan, dir: link }, 'outsideLanesRoot');
    assert.equal(
      e.message,
      `${link} (it resolves to ${fs.realpathSync(outside)}) is outside the lanes root ${fs.realpathSync(repo.lanesRoot)}; reap only removes lane directories`,
    );
    assert.equal(calls.archive, 0);
    assert.ok(fs.existsSync(path.join(dir, '.git')));
    assert.ok(fs.existsSync(path.join(outside, '.git')));
  });

  it('refuses while a process has its cwd inside, listing PID and command line: nothing archived or removed', async () => {
    const { plan, calls, dir } = lane();
    fs.mkdirSync(path.join(dir, 'sub'), { recursive: true });
    const sleeper = spawn('sleep', ['300'], { cwd: path.join(dir, 'sub'), stdio: 'ignore' });
    try {
      await eventually(
        () => fs.existsSync(`/proc/${sleeper.pid}/cwd`) && fs.readlinkSync(`/proc/${sleeper.pid}/cwd`).endsWith('sub'),
        10_000,
        'sleep started',
      );
      const e = await refused(plan, 'processesInside');
      assert.equal(
        e.message,
        `1 process has its working directory inside ${dir}; reap never kills a process: end it or move it out, then reap again\n  ${sleeper.pid} sleep 300`,
      );
      assert.equal(calls.archive, 0);
      assert.ok(fs.existsSync(path.join(dir, '.git')));
    } finally {
      sleeper.kill('SIGKILL');
    }
  });

  it('refuses a dirty worktree without --park: nothing archived, removed or cleaned', async () => {
    const { plan, calls, dir } = lane();
    fs.writeFileSync(path.join(dir, 'text.txt'), 'uncommitted\n');
    fs.writeFileSync(path.join(dir, 'scratch.txt'), 'untracked\n');
    const before = sorted(snapshot(dir));
    const e = await refused(plan, 'dirty');
    assert.equal(
      e.message,
      `${dir} has uncommitted work (2 paths); commit it, or reap with --park to save it to a patch\n   M text.txt\n  ?? scratch.txt`,
    );
    assert.equal(calls.archive, 0);
    assert.deepEqual(sorted(snapshot(dir)), before);
    assert.equal(fs.existsSync(plan.patchFile), false);
  });

  it('a patch that fails verification aborts the reap with the tree untouched', async () => {
    const { plan, calls, dir } = lane();
    fs.writeFileSync(path.join(dir, 'text.txt'), 'precious\n');
    git(dir, s.env, 'add', 'text.txt');
    fs.writeFileSync(path.join(dir, 'more.txt'), 'also precious\n');
    const before = sorted(snapshot(dir));
    const staged = git(dir, s.env, 'diff', '--cached', '--name-only');
    await refused(
      {
        ...plan,
        park: true,
        verify: async (input) => {
          fs.appendFileSync(input.patchFile, 'garbage that is not a patch\n');
          fs.writeFileSync(
            input.patchFile,
            fs.readFileSync(input.patchFile, 'latin1').replace('+precious', '+PRECIOUS'),
            'latin1',
          );
          return verifyPatch(input);
        },
      },
      'parkVerifyFailed',
    );
    assert.equal(calls.archive, 0);
    assert.deepEqual(sorted(snapshot(dir)), before);
    assert.equal(git(dir, s.env, 'diff', '--cached', '--name-only'), staged, 'the index is untouched too');
    assert.equal(fs.existsSync(plan.patchFile), false);
  });

  it('warns about unpushed commits and keeps the branch', async () => {
    const { plan, dir } = lane();
    fs.appendFileSync(path.join(dir, 'text.txt'), 'more\n');
    git(dir, s.env, 'commit', '--quiet', '-am', 'lane work');
    const sha = git(dir, s.env, 'rev-parse', 'HEAD');
    const branch = `r1/${path.basename(dir)}`;
    const report = await reapLaneDir(plan);
    assert.equal(git(repo.dir, s.env, 'rev-parse', branch), sha);
    assert.deepEqual(report.unpushed, [{ sha, subject: 'lane work' }]);
    const text = formatReapReport(report);
    assert.match(
      text,
      new RegExp(
        `^kept branch ${branch} at ${sha.slice(0, 7)}\nwarning: 1 commit on ${branch} is on no remote branch:\n {2}${sha.slice(0, 7)} lane work$`,
        'm',
      ),
    );
  });

  it('a detached lane with commits nothing holds: kept on the named branch', async () => {
    const { plan, dir } = lane({ branch: false });
    fs.appendFileSync(path.join(dir, 'text.txt'), 'critic fix\n');
    git(dir, s.env, 'commit', '--quiet', '-am', 'critic fix');
    const sha = git(dir, s.env, 'rev-parse', 'HEAD');
    const report = await reapLaneDir({ ...plan, keepBranchName: `svc-kept/${plan.conv.name}` });
    assert.equal(report.keptBranch, `svc-kept/${plan.conv.name}`);
    assert.equal(git(repo.dir, s.env, 'rev-parse', `svc-kept/${plan.conv.name}`), sha);
    assert.match(formatReapReport(report), /^kept the detached commits on new branch svc-kept\//m);
  });

  it('an archive failure still reaps and prints the exact line', async () => {
    const { plan, dir } = lane();
    const report = await reapLaneDir({
      ...plan,
      archive: () => {
        throw new Error('database is locked');
      },
    });
    assert.equal(fs.existsSync(dir), false);
    assert.deepEqual(report.archive, { state: 'failed', error: 'database is locked' });
    assert.equal(
      formatReapReport(report).split('\n').pop(),
      `reaped, but archiving failed: database is locked; archive conv ${plan.conv.id} from the Command Deck`,
    );
  });

  it('--keep leaves the conversation listed', async () => {
    const { plan, calls } = lane();
    const report = await reapLaneDir({ ...plan, keep: true });
    assert.equal(calls.archive, 0);
    assert.deepEqual(report.archive, { state: 'kept' });
  });

  it('a play directory is removed when it holds no .git, refused when it does', async () => {
    const clean = lane({ kind: 'play' });
    const report = await reapLaneDir(clean.plan);
    assert.equal(report.removed, 'playDir');
    assert.equal(fs.existsSync(clean.dir), false);
    assert.equal(clean.calls.archive, 1);

    const withRepo = lane({ kind: 'play' });
    git(withRepo.dir, s.env, 'init', '--quiet', 'toy');
    await refused(withRepo.plan, 'playHasGit');
    assert.equal(withRepo.calls.archive, 0);
    assert.equal(fs.readFileSync(path.join(withRepo.dir, 'notes.md'), 'utf8'), 'played\n');
  });

  it('a lane whose directory is already gone is archived with nothing to remove', async () => {
    const { plan, calls } = lane({ kind: 'play' });
    fs.rmSync(plan.dir, { recursive: true });
    const report = await reapLaneDir(plan);
    assert.equal(report.removed, 'alreadyGone');
    assert.equal(calls.archive, 1);
  });

  it('if git refuses the removal after a park, the refusal says where the work went', async () => {
    const { plan, calls, dir } = lane();
    fs.writeFileSync(path.join(dir, 'text.txt'), 'parked\n');
    git(repo.dir, s.env, 'worktree', 'lock', '--reason', 'in use', dir);
    try {
      const e = await refused({ ...plan, park: true }, 'worktreeRemoveFailed');
      assert.equal(
        e.message,
        `git refused to remove the worktree ${dir}: cannot remove a locked working tree, lock reason: in use\nuse 'remove -f -f' to override or unlock first; reap never forces it; the uncommitted work was parked in ${plan.patchFile} (restore with: git -C ${dir} apply --index -p2 --whitespace=nowarn ${plan.patchFile})`,
      );
      assert.equal(calls.archive, 0);
      assert.equal(sh(`git -C ${dir} apply --index -p2 --whitespace=nowarn ${plan.patchFile}`, s.env, s.home).code, 0);
      assert.equal(fs.readFileSync(path.join(dir, 'text.txt'), 'utf8'), 'parked\n');
    } finally {
      git(repo.dir, s.env, 'worktree', 'unlock', dir);
    }
  });
});
