// The repository-wide reads of a facts pass (worktreeFacts.ts): ONE `git worktree list`
// gives every worktree's branch and head, ONE `git for-each-ref` every branch's upstream and
// how far ahead of it the branch is. Both are bounded by the pass's timeout.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { git } from './git';
import type { GitFacts } from './git';

/** Each worktree of `repo` by its real path: its head and branch (null: detached or unborn). */
export async function worktreeList(
  repo: string,
  timeoutMs: number,
  env: NodeJS.ProcessEnv,
): Promise<Map<string, { head: string | null; branch: string | null }>> {
  const out = await git(repo, ['worktree', 'list', '--porcelain', '-z'], { timeoutMs, env });
  const map = new Map<string, { head: string | null; branch: string | null }>();
  let cur: { path?: string; head: string | null; branch: string | null } = { head: null, branch: null };
  for (const field of out.split('\0')) {
    if (field === '') {
      if (cur.path) map.set(realOr(cur.path), { head: cur.head, branch: cur.branch });
      cur = { head: null, branch: null };
    } else if (field.startsWith('worktree ')) cur.path = field.slice('worktree '.length);
    else if (field.startsWith('HEAD ')) cur.head = field.slice('HEAD '.length);
    else if (field.startsWith('branch ')) cur.branch = field.slice('branch '.length).replace(/^refs\/heads\//, '');
  }
  if (cur.path) map.set(realOr(cur.path), { head: cur.head, branch: cur.branch });
  return map;
}

/** branch → its upstream and commits ahead of it (null when the upstream is missing). */
export async function branchTracking(
  repo: string,
  timeoutMs: number,
  env: NodeJS.ProcessEnv,
): Promise<Map<string, { upstream: string | null; ahead: number | null }>> {
  const out = await git(
    repo,
    ['for-each-ref', '--format=%(refname:short)%00%(upstream:short)%00%(upstream:track,nobracket)', 'refs/heads'],
    { timeoutMs, env },
  );
  const map = new Map<string, { upstream: string | null; ahead: number | null }>();
  for (const line of out.split('\n')) {
    if (!line) continue;
    const [branch, upstream, track] = line.split('\0');
    if (!upstream || track === 'gone') map.set(branch, { upstream: upstream || null, ahead: null });
    else map.set(branch, { upstream, ahead: Number(/ahead (\d+)/.exec(track)?.[1] ?? 0) });
  }
  return map;
}

/** One worktree's facts from the listing's entry, the branches' tracking and its dirty flag. */
export function factsOf(
  wt: { head: string | null; branch: string | null },
  tracking: Map<string, { upstream: string | null; ahead: number | null }>,
  dirty: boolean,
): GitFacts {
  const t = wt.branch ? tracking.get(wt.branch) : undefined;
  return { branch: wt.branch, headSha: wt.head, ahead: t?.ahead ?? null, upstream: t?.upstream ?? null, dirty };
}

/** A path's real path; the path itself, resolved, when it is gone (a worktree deleted by hand). */
export function realOr(p: string): string {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return path.resolve(p);
  }
}
