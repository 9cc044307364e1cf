// Reap step 5: commits on HEAD that its upstream lacks (or, with no upstream, that no
// remote-tracking branch holds), for the warning. The branch is always kept, so those
// commits stay reachable; a detached HEAD has no branch to keep them, which is why the
// report also counts what no ref holds at all (privateCommits.ts keeps those on a branch).
import { runGit, gitText } from '../git/gitExec';
import type { GitEnv } from '../git/gitExec';
import { worktreeInfo } from './worktreeInfo';

export interface UnpushedCommit {
  sha: string;
  subject: string;
}

export interface UnpushedReport {
  branch: string | null;
  head: string | null;
  /** Short name of the upstream compared with; null when there is none (or it is gone) and every remote branch was used. */
  upstream: string | null;
  /** Newest first. */
  commits: UnpushedCommit[];
  /** Commits of HEAD that no branch, tag or remote-tracking branch holds (0 on a branch). */
  unreferenced: number;
}

export async function unpushedCommits(worktreeDir: string, opts: GitEnv = {}): Promise<UnpushedReport> {
  const { head } = await worktreeInfo(worktreeDir, opts);
  const sym = await runGit(worktreeDir, ['symbolic-ref', '-q', 'HEAD'], { ...opts, okCodes: [1] });
  const ref = sym.code === 0 ? sym.stdout.toString('utf8').trim() : null;
  const branch = ref?.replace(/^refs\/heads\//, '') ?? null;
  if (head === null) return { branch, head, upstream: null, commits: [], unreferenced: 0 };

  const upstream = ref === null ? null : await liveUpstream(worktreeDir, ref, opts);
  const not = upstream === null ? ['--not', '--remotes'] : ['--not', upstream.full];
  const log = await gitText(
    worktreeDir,
    // --ignore-missing: a ref naming no object (a lane can write the shared refs/) is no holder, never a failure.
    [
      'log',
      '--ignore-missing',
      '--no-show-signature',
      '--no-decorate',
      '--no-color',
      '--format=%H %s',
      head,
      ...not,
      '--',
    ],
    opts,
  );
  const commits =
    log === ''
      ? []
      : log
          .split('\n')
          .map((line) => ({ sha: line.slice(0, line.indexOf(' ')), subject: line.slice(line.indexOf(' ') + 1) }));
  const unreferenced =
    ref !== null
      ? 0
      : Number(
          await gitText(
            worktreeDir,
            ['rev-list', '--ignore-missing', '--count', head, '--not', '--branches', '--tags', '--remotes', '--'],
            opts,
          ),
        );
  return { branch, head, upstream: upstream?.short ?? null, commits, unreferenced };
}

/** The branch's configured upstream, when its ref still exists. */
async function liveUpstream(
  dir: string,
  branchRef: string,
  opts: GitEnv,
): Promise<{ full: string; short: string } | null> {
  const line = await gitText(dir, ['for-each-ref', '--format=%(upstream)%00%(upstream:short)', branchRef], opts);
  const [full, short] = line.split('\0');
  if (!full) return null;
  const exists = await runGit(dir, ['rev-parse', '-q', '--verify', `${full}^{commit}`], { ...opts, okCodes: [1] });
  return exists.code === 0 ? { full, short } : null;
}
