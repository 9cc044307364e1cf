// A lane's branch with commits but no upstream to count against (never pushed) lists its commits ahead of the
// lane's base instead of `-`: `git rev-list --count <base>..<head>`. Commits never change,
// so a count is kept by its (base, head) pair and a list of unchanged lanes runs no git.
import type { GitFacts } from '../git/git';
import { git } from '../git/git';
import { FACTS_TIMEOUT_MS } from '../git/gitExec';

/** Kept counts; a bound, since heads move on and old pairs are never asked again. */
const KEPT_MAX = 4096;
const kept = new Map<string, number>();

/** The commits of `head` not in `base`, read in `dir`; undefined when git cannot say (a base gone, a timeout). */
export async function commitsSinceBase(dir: string, base: string, head: string): Promise<number | undefined> {
  // A lane still at its base (every lane before its first commit) has none: no git, which
  // matters after a restart, when nothing is kept and each count was a spawn on the daemon's thread.
  if (base === head) return 0;
  const pair = `${base}..${head}`;
  const known = kept.get(pair);
  if (known !== undefined) return known;
  try {
    const n = Number((await git(dir, ['rev-list', '--count', pair], { timeoutMs: FACTS_TIMEOUT_MS })).trim());
    if (!Number.isInteger(n)) return undefined;
    if (kept.size >= KEPT_MAX) kept.delete(kept.keys().next().value!);
    kept.set(pair, n);
    return n;
  } catch {
    return undefined;
  }
}

/**
 * Whether facts are of a branch with no upstream to count against (none set, or one set at
 * launch that was never pushed: git calls it gone), so its ahead count is taken against the base.
 */
export function wantsBaseCount(f: GitFacts, baseSha: string | null): baseSha is string {
  return baseSha !== null && f.branch !== null && f.ahead === null && f.headSha !== null;
}
