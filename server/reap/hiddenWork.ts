// Work that `git status` does not show but removing the worktree would delete: edits under
// assume-unchanged or skip-worktree, and untracked files hidden only by ignore rules that
// the lane's base commit does not hold. Found by the same capture park saves
// (parkCapture.ts), so what the dirty check refuses over is exactly what --park would save.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { GitEnv } from '../git/gitExec';
import { GITLINK_MODE, captureWork } from './parkCapture';
import { worktreeInfo } from './worktreeInfo';

export interface WorkSeen {
  /** Porcelain-style lines (`XY path (why git status misses it)`) for changes git status does not name. */
  hidden: string[];
  /** Paths whose change is a nested repository or submodule (no patch can carry them). */
  gitlinks: string[];
}

/**
 * What the capture of the worktree at `dir` finds beyond `statusLines` (its `git status
 * --porcelain -z` entries), and which of its changes a patch cannot carry.
 */
export async function inspectWork(dir: string, statusLines: string[], opts: GitEnv = {}): Promise<WorkSeen> {
  const info = await worktreeInfo(dir, opts);
  if (info.head === null) return { hidden: [], gitlinks: [] };
  const seen = new Set(statusLines.map((l) => l.slice(3)));
  const scratch = fs.mkdtempSync(path.join(info.gitDir, 'svc-reap-'));
  try {
    const work = await captureWork(
      info,
      info.head,
      path.join(scratch, `check-${crypto.randomBytes(4).toString('hex')}.index`),
      scratch,
      opts,
    );
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
    return { hidden, gitlinks };
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** The hidden lines of inspectWork alone. */
export async function workStatusMisses(dir: string, statusLines: string[], opts: GitEnv = {}): Promise<string[]> {
  return (await inspectWork(dir, statusLines, opts)).hidden;
}
