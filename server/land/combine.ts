// A builder's frozen head combined with the base by the project's land method, without
// touching any checkout: merge and squash through `git merge-tree --write-tree` (the
// combined tree straight into the object store, the conflicting paths when there are
// some), rebase by replaying the builder's commits in a landing worktree of its own.
// The result is always a descendant of the base, so moving the base to it is a fast-forward.
import * as fs from 'node:fs';
import type { LandMethod } from '../../shared/config';
import { git, GitError, gitOk, serialized } from '../git/git';
import { spawnGit } from '../git/gitExec';

export type Combined = { ok: true; sha: string } | { ok: false; paths: string[] };

export interface CombineRequest {
  repo: string;
  baseSha: string;
  headSha: string;
  method: LandMethod;
  /** A folder for the rebase's worktree (it must not exist; removed afterwards). */
  worktree: string;
  /** The commit message of a merge or squash commit. */
  message: string;
}

export async function combine(r: CombineRequest): Promise<Combined> {
  const ff = await gitOk(r.repo, ['merge-base', '--is-ancestor', r.baseSha, r.headSha]);
  if (ff && r.method !== 'squash') return { ok: true, sha: r.headSha };
  if (r.method === 'rebase') return rebase(r);
  const merged = await mergeTree(r.repo, r.baseSha, r.headSha);
  if (!merged.ok) return merged;
  const parents = r.method === 'merge' ? ['-p', r.baseSha, '-p', r.headSha] : ['-p', r.baseSha];
  const sha = (await git(r.repo, ['commit-tree', merged.tree, ...parents, '-m', r.message])).trim();
  return { ok: true, sha };
}

/** The merged tree, or the conflicting paths (merge-tree exits 1 with the tree, then one path a line). */
async function mergeTree(
  repo: string,
  base: string,
  head: string,
): Promise<{ ok: true; tree: string } | { ok: false; paths: string[] }> {
  const args = ['merge-tree', '--write-tree', '--name-only', '--no-messages', base, head];
  const r = await spawnGit(repo, args);
  const lines = r.stdout.toString('utf8').split('\n');
  if (r.code === 0) return { ok: true, tree: lines[0].trim() };
  if (r.code !== 1) throw new GitError(args, r.code, r.stderr);
  return {
    ok: false,
    paths: [
      ...new Set(
        lines
          .slice(1)
          .map((l) => l.trim())
          .filter(Boolean),
      ),
    ].sort(),
  };
}

async function rebase(r: CombineRequest): Promise<Combined> {
  await serialized(r.repo, () => git(r.repo, ['worktree', 'add', '--quiet', '--detach', r.worktree, r.headSha]));
  try {
    try {
      await git(r.worktree, ['rebase', '--quiet', r.baseSha]);
    } catch (e) {
      if (!(e instanceof GitError)) throw e;
      const paths = (await git(r.worktree, ['diff', '--name-only', '--diff-filter=U'])).split('\n').filter(Boolean);
      await git(r.worktree, ['rebase', '--abort']).catch(() => undefined);
      if (!paths.length) throw e;
      return { ok: false, paths: paths.sort() };
    }
    return { ok: true, sha: (await git(r.worktree, ['rev-parse', 'HEAD'])).trim() };
  } finally {
    await serialized(r.repo, () => git(r.repo, ['worktree', 'remove', '--force', r.worktree])).catch(() =>
      fs.rmSync(r.worktree, { recursive: true, force: true }),
    );
  }
}
