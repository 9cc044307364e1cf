// Reap step 6. A worktree goes through `git worktree remove`, never forced, so git
// itself refuses a tree holding anything uncommitted; ignored files go with it, as
// git decides. A play directory is plain files: removed only when no `.git` (folder,
// file or symlink) sits anywhere inside, since that would be a repository's history.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runGit } from '../git/gitExec';
import type { GitEnv } from '../git/gitExec';
import { notAWorktreeError, playHasGitError, playUnreadableError, worktreeRemoveFailedError } from './reapErrors';
import { worktreeInfo } from './worktreeInfo';

/**
 * Removes a linked worktree and prunes stale worktree entries. Callers that also add
 * worktrees should run it in their per-repository queue (it writes `<common>/worktrees`).
 */
export async function removeWorktree(
  dir: string,
  opts: GitEnv & { parked?: { patchFile: string; restoreCommand: string } } = {},
): Promise<void> {
  const info = await worktreeInfo(dir, opts);
  if (!info.linked) throw notAWorktreeError(dir, 'it is a main worktree');
  // Run from the common dir: a process inside the tree being removed is what step 3 forbids.
  const removed = await runGit(info.commonDir, ['worktree', 'remove', info.top], { ...opts, okCodes: [128] });
  if (removed.code !== 0)
    throw worktreeRemoveFailedError(info.top, removed.stderr.trim().replace(/^fatal: /, ''), opts.parked);
  await runGit(info.commonDir, ['worktree', 'prune'], opts);
}

/** Removes a play directory, refusing when a `.git` is anywhere inside (symlinks are not followed). */
export function removePlayDir(dir: string): void {
  const found = findGit(dir);
  if (found !== null) throw playHasGitError(dir, found);
  fs.rmSync(dir, { recursive: true, force: false });
}

/** First `.git` entry under `dir`, depth first; the walk never follows a symlink. */
export function findGit(dir: string): string | null {
  const stack = [dir];
  while (stack.length) {
    const current = stack.pop() as string;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(current, { withFileTypes: true });
    } catch (e) {
      if (current === dir) throw e;
      // An unreadable folder might hide a repository: refuse rather than delete it unseen.
      throw playUnreadableError(dir, current);
    }
    for (const e of entries) {
      const full = path.join(current, e.name);
      if (e.name === '.git') return full;
      if (e.isDirectory()) stack.push(full);
    }
  }
  return null;
}
