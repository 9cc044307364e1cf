// The proof that reap --park never loses work (docs/spec.md: no code path deletes a user's work): random dirty worktrees of
// every kind — modified, added, deleted, renamed (staged and not), exec-bit changes,
// binary, empty and >1 MB files, names with spaces, newlines, non-ASCII and non-UTF-8
// bytes, nested untracked folders, symlinks (added, retargeted, type changes), files
// becoming folders and back, staged-then-edited files, ignored files, edits hidden by
// assume-unchanged or skip-worktree, .gitignore files the lane wrote (hiding themselves),
// svc's old review entries in the shared info/exclude, CRLF work under a committed
// `* text=auto`, permission bits git does not record (0600, 0000, 0444…, and folders' bits),
// and the less common ways git holds work: a commit left on a detached HEAD (only the HEAD
// reflog holds it), a commit only a per-worktree ref holds, a merge in progress (clean, or
// with conflicts one of two resolved), a cherry-pick or revert stopped on a conflict, an
// interactive rebase stopped at a `break`, a `.git` file in a subfolder, a writer outside
// the lane holding a file of it open, a program of the lane's run from elsewhere (mapped,
// not open), a `.gitignore` of `*` the lane committed itself, a nested repository in an
// ignored folder. Each case
// runs the whole reap sequence, plain or --park, and either
// - it is refused, for a reason the case holds (a nested .git, an operation in progress,
//   a process inside, dirty work without --park), and nothing changed: every file, git
//   status, HEAD, the conflicts, MERGE_HEAD, CHERRY_PICK_HEAD, REVERT_HEAD, rebase-merge/; or
// - it succeeds: the worktree is removed (never forced), every commit the case made is on
//   a ref, and the tree comes back byte for byte — with --park by the restore command
//   printed in the patch header, run verbatim; a plain reap only when the branch's own
//   checkout gives back every file.
// 200 cases in `npm test`; `npm run test:soak` sets SVC_PARK_CASES=5000.
// A failure prints fast-check's seed: rerun it with SVC_PARK_SEED=<seed> (SVC_PARK_NOSHRINK=1
// reports the first failing case as generated, without shrinking it).
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as fc from 'fast-check';
import { SvcError } from '../../shared/errors';
import { reapLaneDir } from '../../server/reap/reapLaneDir';
import type { ReapReport } from '../../shared/format/reapReport';
import { git, makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import {
  addWorktree,
  b,
  forceRemoveWorktree,
  headerRestoreCommand,
  makeLaneRepo,
  sh,
  snapshot,
  sorted,
} from './parkFixtures';
import type { LaneRepo } from './parkFixtures';
import { Mutator, op } from './parkCases';

const CASES = Number(process.env.SVC_PARK_CASES ?? 200);

/** The pseudo-refs a half-done operation leaves, each naming a commit it may alone hold. */
const OPERATION_HEADS = ['MERGE_HEAD', 'CHERRY_PICK_HEAD', 'REVERT_HEAD'] as const;
/** The folders a stopped rebase or `git am` leaves. */
const OPERATION_DIRS = ['rebase-merge', 'rebase-apply'] as const;

/** What a refused reap must leave as it was, beyond the files: git status, HEAD, an operation in progress. */
function gitState(wt: string, env: NodeJS.ProcessEnv) {
  const run = (args: string[]) => spawnSync('git', args, { cwd: wt, env, encoding: 'utf8' }).stdout;
  const gitDir = run(['rev-parse', '--absolute-git-dir']).trim();
  const read = (f: string) =>
    fs.existsSync(path.join(gitDir, f)) ? fs.readFileSync(path.join(gitDir, f), 'utf8') : null;
  const operations: Record<string, string | string[]> = {};
  for (const h of OPERATION_HEADS) {
    const sha = read(h);
    if (sha !== null) operations[h] = sha;
  }
  for (const d of OPERATION_DIRS) {
    if (fs.existsSync(path.join(gitDir, d))) operations[d] = fs.readdirSync(path.join(gitDir, d)).sort();
  }
  return {
    status: run(['status', '--porcelain=v1', '-z', '--untracked-files=all']),
    head: run(['rev-parse', 'HEAD']).trim(),
    /** Stage numbers and paths of unmerged entries: the conflicts a half-done operation left. */
    conflicts: run(['ls-files', '--unmerged', '-z']),
    operations,
  };
}

/** Every `.git` below the top of `wt` (the worktree's own left out); symlinks are not followed. */
function nestedGitIn(wt: string): string[] {
  const found: string[] = [];
  const walk = (dir: Buffer, top: boolean) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true, encoding: 'buffer' })) {
      const full = Buffer.concat([dir, b('/'), e.name]);
      if (e.name.toString('latin1') === '.git') {
        if (!top) found.push(full.toString('latin1'));
      } else if (e.isDirectory()) walk(full, false);
    }
  };
  walk(b(wt), true);
  return found;
}

describe('reap property: random worktrees are refused unchanged, or reaped with every commit kept and every byte restored', function () {
  // Park now also rehearses the restore on disk (a checkout of the whole tree per case).
  this.timeout(Math.max(120_000, CASES * 6_000));
  let s: Scratch;
  let repo: LaneRepo;
  let patches: string;
  let baseSnapshot: ReturnType<typeof sorted>;
  // A second base: the first plus a committed `* text=auto`, so CRLF work is normalized by git.
  let textAuto: { sha: string; snapshot: ReturnType<typeof sorted> };
  let exclude: string;

  before(() => {
    s = makeScratch('park-prop');
    repo = makeLaneRepo(s);
    patches = path.join(s.svcHome, 'agents', 'conv-prop');
    exclude = path.join(repo.dir, '.git', 'info', 'exclude');
    fs.mkdirSync(patches, { recursive: true });
    const probe = addWorktree(repo, s.env, 'probe', null);
    baseSnapshot = sorted(snapshot(probe));
    fs.writeFileSync(path.join(probe, '.gitattributes'), '* text=auto\n');
    git(probe, s.env, 'add', '.gitattributes');
    git(probe, s.env, 'commit', '--quiet', '-m', 'text=auto');
    textAuto = { sha: git(probe, s.env, 'rev-parse', 'HEAD'), snapshot: sorted(snapshot(probe)) };
    git(repo.dir, s.env, 'tag', 'text-auto', textAuto.sha);
    forceRemoveWorktree(repo, s.env, probe);
  });
  after(() => s.dispose());

  it(`${CASES} random states: reap (plain or --park) refuses with nothing changed, or removes the worktree keeping every commit, and the printed restore command gives back every byte and mode`, async () => {
    let n = 0;
    let parked = 0;
    let refusals = 0;
    let bigCases = 0;
    const started = Date.now();
    await fc.assert(
      fc.asyncProperty(
        fc.array(op, { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        fc.boolean(),
        fc.nat(3),
        async (ops, onBranch, withTextAuto, parkPick) => {
          const name = `case-${n++}`;
          // SVC_PARK_PROGRESS=<k> prints a line every k cases, so a long soak shows how far it got.
          const every = Number(process.env.SVC_PARK_PROGRESS ?? 0);
          if (every > 0 && n % every === 0)
            process.stdout.write(
              `      … ${n} cases, ${parked} parked, ${refusals} refused, ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
            );
          const branch = onBranch ? `prop/${name}` : null;
          const base = withTextAuto ? textAuto : { sha: repo.base, snapshot: baseSnapshot };
          const wt = addWorktree(repo, s.env, name, branch, base.sha);
          const patch = path.join(patches, `parked-${name}.patch`);
          // Three cases in four park; the rest are plain reaps, which must refuse over any work.
          const park = parkPick > 0;
          const keepName = `prop-kept/${name}`;
          const m = new Mutator(wt, s.env, exclude);
          try {
            for (const o of ops) m.apply(o);
            const expected = sorted(snapshot(wt));
            if (
              expected.some(
                ([, e]) =>
                  e.type === 'file' &&
                  e.size > 1_000_000 &&
                  !baseSnapshot.some(([, be]) => be.type === 'file' && 'sha256' in be && be.sha256 === e.sha256),
              )
            )
              bigCases++;
            const before = gitState(wt, s.env);
            // The commits the case made that something in the worktree still names (a later op may have dropped one itself).
            const reachable = new Set(
              spawnSync(
                'git',
                ['rev-list', '--all', '--reflog', ...OPERATION_HEADS.filter((h) => h in before.operations)],
                {
                  cwd: wt,
                  env: s.env,
                  encoding: 'utf8',
                },
              ).stdout.split('\n'),
            );
            const precious = m.made.filter((c) => reachable.has(c));
            const mustRefuse = new Set<string>();
            if (nestedGitIn(wt).length) mustRefuse.add('nestedGit');
            // An operation's marker, or conflict stages it left behind (a patch carries neither).
            if (Object.keys(before.operations).length || before.conflicts) mustRefuse.add('operationInProgress');
            if (m.holdersInside().length) mustRefuse.add('processesInside');

            let report: ReapReport | null = null;
            let refusal: SvcError | null = null;
            try {
              report = await reapLaneDir({
                env: s.env,
                conv: { id: n, name },
                dir: wt,
                kind: 'worktree',
                lanesRoot: repo.lanesRoot,
                park,
                keep: true,
                patchFile: patch,
                keepBranchName: keepName,
                stop: async () => true,
                archive: () => undefined,
              });
            } catch (e) {
              if (!(e instanceof SvcError) || e.kind !== 'refused') throw e;
              refusal = e;
            }

            if (refusal) {
              refusals++;
              const allowed = new Set([...mustRefuse, ...(park ? [] : ['dirty'])]);
              assert.ok(
                allowed.has(refusal.reason),
                `refused for ${refusal.reason}, which this case does not hold (allowed: ${[...allowed].join(', ') || 'none'}): ${refusal.message}`,
              );
              assert.deepEqual(sorted(snapshot(wt)), expected, 'a refused reap changed a file');
              assert.deepEqual(
                gitState(wt, s.env),
                before,
                'a refused reap changed git status, HEAD, conflicts or an operation in progress',
              );
              assert.equal(fs.existsSync(patch), false, 'a refused reap left a patch');
              return;
            }
            assert.ok(report);
            assert.deepEqual([...mustRefuse], [], `reaped a tree it must refuse (${[...mustRefuse].join(', ')})`);
            assert.equal(fs.existsSync(wt), false, 'worktree removed without force');
            for (const sha of precious) {
              const holders = git(repo.dir, s.env, 'for-each-ref', '--contains', sha, '--format=%(refname)');
              assert.notEqual(holders, '', `commit ${sha} the case made is on no ref after the reap`);
            }
            const r = report.park;
            if (r === null) {
              // Nothing parked: the branch (or the kept head) checked out again must give back every
              // file; permission bits alone on a tree git calls clean are not work.
              const at = report.branch ?? report.keptBranch ?? report.head!;
              const again = sh(
                report.branch
                  ? `git worktree add --quiet ${wt} ${at}`
                  : `git worktree add --quiet --detach ${wt} ${at}`,
                s.env,
                repo.dir,
              );
              assert.equal(again.code, 0, again.stderr);
              const bitsAside = (x: ReturnType<typeof sorted>) =>
                x.map(([k, e]) => [k, e.type === 'symlink' ? e : { ...e, mode: '' }]);
              assert.deepEqual(
                bitsAside(sorted(snapshot(wt))),
                bitsAside(expected),
                'a reap that parked nothing removed work',
              );
              return;
            }
            parked++;
            const restore = headerRestoreCommand(r.patchFile);
            assert.equal(restore, r.restoreAfterRemoveCommand, 'the header prints the command the report gives');
            const restored = sh(restore, s.env, s.home);
            assert.equal(restored.code, 0, `restore failed: ${restored.stderr}`);
            assert.deepEqual(sorted(snapshot(wt)), expected, 'restored work differs');
          } finally {
            for (const c of m.spawned) {
              try {
                process.kill(-c.pid!, 'SIGKILL');
              } catch {
                // gone
              }
            }
            forceRemoveWorktree(repo, s.env, wt);
            fs.rmSync(exclude, { force: true });
            for (const ref of git(
              repo.dir,
              s.env,
              'for-each-ref',
              '--format=%(refname)',
              `refs/heads/prop/${name}`,
              `refs/heads/${keepName}`,
              `refs/heads/${keepName}-*`,
            )
              .split('\n')
              .filter(Boolean)) {
              spawnSync('git', ['update-ref', '-d', ref], { cwd: repo.dir, env: s.env });
            }
            fs.rmSync(patch, { force: true });
            fs.rmSync(patch.replace(/\.patch$/, '.files.tar'), { force: true });
          }
        },
      ),
      // SVC_PARK_SEED replays a reported failure with the seed fast-check printed.
      process.env.SVC_PARK_SEED
        ? { numRuns: CASES, seed: Number(process.env.SVC_PARK_SEED), endOnFailure: !!process.env.SVC_PARK_NOSHRINK }
        : { numRuns: CASES, endOnFailure: !!process.env.SVC_PARK_NOSHRINK },
    );
    const ms = Date.now() - started;
    // Reported so the suite's cost stays visible: a slower park shows here before CI's time runs out.
    process.stdout.write(
      `      ${n} cases (${parked} parked, ${refusals} refused, ${bigCases} with a new or changed file over 1 MB) in ${(ms / 1000).toFixed(1)} s, ${(ms / n).toFixed(0)} ms per case\n`,
    );
  });
});
