// Work that `git status` does not show but removing the worktree would delete: edits under
// assume-unchanged or skip-worktree, and untracked files hidden only by ignore rules that
// the lane's base commit does not hold. Found by the same capture park saves
// (parkCapture.ts), so what the dirty check refuses over is exactly what --park would save.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runGit, splitNul } from '../git/gitExec';
import type { GitEnv } from '../git/gitExec';
import { GITLINK_MODE, captureWork } from './parkCapture';
import type { Capture } from './parkCapture';
import { worktreeInfo } from './worktreeInfo';
import type { WorktreeInfo } from './worktreeInfo';

export interface WorkSeen {
  /** Porcelain-style lines (`XY path (why git status misses it)`) for changes git status does not name. */
  hidden: string[];
  /** Paths whose change is a nested repository or submodule (no patch can carry them). */
  gitlinks: string[];
}

/** A capture kept for the park that follows (park.ts starts from it instead of capturing again). */
export interface KeptCapture {
  /** The HEAD the capture was taken against. */
  head: string;
  /** The scratch index holding the captured work. */
  indexFile: string;
  work: Capture;
  /** Removes the scratch folder; the park that used the capture is done with it. */
  dispose(): void;
}

/**
 * What the capture of the worktree at `dir` finds beyond `statusLines` (its `git status
 * --porcelain -z` entries), and which of its changes a patch cannot carry. With `keep`, the
 * capture itself is handed back (its scratch index included) for a park to start from.
 */
export async function inspectWork(
  dir: string,
  statusLines: string[],
  opts: GitEnv = {},
  known?: { info?: WorktreeInfo; keep?: boolean },
): Promise<WorkSeen & { kept: KeptCapture | null }> {
  const info = known?.info ?? (await worktreeInfo(dir, opts));
  if (info.head === null) return { hidden: [], gitlinks: [], kept: null };
  const seen = new Set(statusLines.map((l) => l.slice(3)));
  const scratch = fs.mkdtempSync(path.join(info.gitDir, 'svc-reap-'));
  const dispose = () => fs.rmSync(scratch, { recursive: true, force: true });
  let kept: KeptCapture | null = null;
  try {
    const indexFile = path.join(scratch, `check-${crypto.randomBytes(4).toString('hex')}.index`);
    const work = await captureWork(info, info.head, indexFile, scratch, opts);
    const hidden: string[] = [];
    for (const c of work.changes) {
      const name = c.path.toString('utf8');
      if (seen.has(name)) continue;
      const bits = work.hiddenByBits.get(c.path.toString('hex'))?.bits;
      if (bits) hidden.push(`${c.status.padStart(2)} ${name} (hidden from git status by ${bits.join(' and ')})`);
      else hidden.push(`!! ${name} (ignored, but not by a .gitignore committed at the base commit of the lane)`);
    }
    const gitlinks = work.changes
      .filter((c) => c.oldMode === GITLINK_MODE || c.newMode === GITLINK_MODE)
      .map((c) => c.path.toString('utf8'));
    if (known?.keep) kept = { head: info.head, indexFile, work, dispose };
    return { hidden, gitlinks, kept };
  } finally {
    if (!kept) dispose();
  }
}

/**
 * Whether any change of the worktree could be a gitlink, without capturing it: only an
 * entry of the index or of HEAD can be one, since a new nested repository is refused
 * before (nestedGit.ts). False lets a check that only needs the gitlinks skip the capture.
 */
export async function gitlinksPossible(info: WorktreeInfo, opts: GitEnv = {}): Promise<boolean> {
  const staged = await runGit(info.top, ['ls-files', '--stage', '-z'], opts);
  if (splitNul(staged.stdout).some((r) => r.subarray(0, 6).toString('latin1') === GITLINK_MODE)) return true;
  // A gitlink HEAD holds and the index no longer does (a staged removal).
  const removed = await runGit(info.top, ['diff-index', '--cached', '--raw', '-z', '--no-renames', 'HEAD', '--'], opts);
  return splitNul(removed.stdout).some((f) => f.subarray(0, 7).toString('latin1') === `:${GITLINK_MODE}`);
}

/** The hidden lines of inspectWork alone. */
export async function workStatusMisses(dir: string, statusLines: string[], opts: GitEnv = {}): Promise<string[]> {
  return (await inspectWork(dir, statusLines, opts)).hidden;
}
