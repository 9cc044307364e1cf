// The paths a builder's worktree changes relative to its project's base, and whether its
// branch still merges cleanly into that base: the facts the overlap forecast (overlaps.ts)
// and the siblings' warning (land/siblings.ts) are made of. Every answer comes from git
// processes, off the daemon's thread; what depends only on commits is kept by its commits.
import { spawnGit, splitNul, FACTS_TIMEOUT_MS } from '../git/gitExec';

/** Kept answers; a bound, since heads move on and old pairs are never asked again. */
const KEPT_MAX = 2048;
const committedKept = new Map<string, string[]>();
const conflictKept = new Map<string, string[] | null>();

function keep<V>(map: Map<string, V>, key: string, value: V): V {
  if (map.size >= KEPT_MAX) map.delete(map.keys().next().value!);
  map.set(key, value);
  return value;
}

async function nulList(cwd: string, args: string[]): Promise<string[] | undefined> {
  const r = await spawnGit(cwd, args, { timeoutMs: FACTS_TIMEOUT_MS }).catch(() => undefined);
  if (!r || r.code !== 0) return undefined;
  return splitNul(r.stdout)
    .map((b) => b.toString('utf8'))
    .filter((p) => p !== '');
}

/**
 * The commit the project's base names in `repo` now (origin/<base> when the project has an
 * origin, else the local branch), undefined when neither resolves. Never fetches: the forecast
 * reads what the repository knows; a landing fetches before it tells (land/siblings.ts).
 */
export async function baseCommit(repo: string, base: string): Promise<string | undefined> {
  for (const ref of [`refs/remotes/origin/${base}`, `refs/heads/${base}`]) {
    const r = await spawnGit(repo, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], {
      timeoutMs: FACTS_TIMEOUT_MS,
    }).catch(() => undefined);
    if (r?.code === 0) return r.stdout.toString('utf8').trim();
  }
  return undefined;
}

export interface WorktreeState {
  dir: string;
  headSha: string;
  /** Uncommitted or untracked changes: the worktree itself must be read, nothing is kept. */
  dirty: boolean;
}

/**
 * Paths changed since the merge base of the worktree's HEAD and `baseSha`, sorted: committed
 * ones (kept by the pair of commits) and, for a dirty worktree, its tracked changes against the
 * merge base and its untracked files (read each time). Undefined when git cannot say.
 */
export async function changedPaths(w: WorktreeState, baseSha: string): Promise<string[] | undefined> {
  if (!w.dirty) {
    const pair = `${baseSha}...${w.headSha}`;
    const known = committedKept.get(pair);
    if (known) return known;
    const paths = await nulList(w.dir, ['diff', '--name-only', '-z', '--no-renames', pair, '--']);
    return paths && keep(committedKept, pair, [...new Set(paths)].sort());
  }
  // The working tree against the merge base (committed, staged and unstaged together), and untracked files.
  const [tracked, untracked] = await Promise.all([
    nulList(w.dir, ['diff', '--name-only', '-z', '--no-renames', '--merge-base', baseSha, '--']),
    nulList(w.dir, ['ls-files', '--others', '--exclude-standard', '-z']),
  ]);
  if (!tracked || !untracked) return undefined;
  return [...new Set([...tracked, ...untracked])].sort();
}

/**
 * The paths that conflict when `headSha` is merged into `baseSha` (git merge-tree, which touches
 * no worktree), sorted; null when they merge cleanly, undefined when git cannot say. Kept by the pair.
 */
export async function baseConflictPaths(
  repo: string,
  baseSha: string,
  headSha: string,
): Promise<string[] | null | undefined> {
  const pair = `${baseSha}\0${headSha}`;
  if (conflictKept.has(pair)) return conflictKept.get(pair);
  const r = await spawnGit(
    repo,
    ['merge-tree', '--write-tree', '--name-only', '--no-messages', '-z', baseSha, headSha],
    {
      timeoutMs: FACTS_TIMEOUT_MS,
    },
  ).catch(() => undefined);
  // 0: clean; 1: conflicts; anything else (an unknown commit, an old git) says nothing.
  if (!r || (r.code !== 0 && r.code !== 1)) return undefined;
  if (r.code === 0) return keep(conflictKept, pair, null);
  const [, ...names] = splitNul(r.stdout).map((b) => b.toString('utf8'));
  return keep(conflictKept, pair, [...new Set(names.filter((n) => n !== ''))].sort());
}
