// Work that `git status` does not show but removing the worktree would delete: edits under
// assume-unchanged or skip-worktree, and untracked files hidden only by ignore rules HEAD
// does not commit. Found by the same capture park saves (parkCapture.ts), so what the
// dirty check refuses over is exactly what --park would save.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { GitEnv } from '../git/gitExec';
import { captureWork } from './parkCapture';
import { worktreeInfo } from './worktreeInfo';

/**
 * Porcelain-style lines (`XY path (why git status misses it)`) for changes of the worktree
 * at `dir` that `statusLines` (its `git status --porcelain -z` entries) do not name.
 */
export async function workStatusMisses(dir: string, statusLines: string[], opts: GitEnv = {}): Promise<string[]> {
  const info = await worktreeInfo(dir, opts);
  if (info.head === null) return [];
  const seen = new Set(statusLines.map((l) => l.slice(3)));
  const scratch = fs.mkdtempSync(path.join(info.gitDir, 'svc-reap-'));
  try {
    const work = await captureWork(info, info.head, path.join(scratch, `check-${crypto.randomBytes(4).toString('hex')}.index`), scratch, opts);
    const lines: string[] = [];
    for (const c of work.changes) {
      const name = c.path.toString('utf8');
      if (seen.has(name)) continue;
      const bits = work.hiddenByBits.get(c.path.toString('hex'))?.bits;
      if (bits) lines.push(`${c.status.padStart(2)} ${name} (hidden from git status by ${bits.join(' and ')})`);
      else lines.push(`!! ${name} (ignored, but not by a .gitignore committed at HEAD)`);
    }
    return lines;
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
