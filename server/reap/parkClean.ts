// Cleans a worktree whose work is saved in a verified patch, removing only what was
// saved: tracked paths go back to HEAD (`git reset --hard`, every tracked change was in
// the patch), then the untracked files the patch added are unlinked and the folders they
// leave empty removed. An untracked file that appeared after the capture is not in the
// patch and stays, so `git worktree remove` (never forced) will refuse rather than lose it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runGit, splitNul } from './gitExec';
import type { GitEnv } from './gitExec';
import type { RawChange } from './parkCapture';

export async function cleanSavedWork(top: string, changes: RawChange[], opts: GitEnv): Promise<void> {
  await runGit(top, ['-c', 'core.fsmonitor=false', 'reset', '--hard', '--quiet', '--no-recurse-submodules', 'HEAD'], opts);
  const added = new Set(changes.filter((c) => c.oldMode === '000000').map((c) => c.path.toString('hex')));
  const others = await runGit(top, ['ls-files', '--others', '--exclude-standard', '-z'], opts);
  const topBuf = Buffer.from(top + path.sep);
  const parents = new Set<string>();
  for (const rel of splitNul(others.stdout)) {
    if (!added.has(rel.toString('hex'))) continue;
    const abs = Buffer.concat([topBuf, rel]);
    const st = fs.lstatSync(abs, { throwIfNoEntry: false });
    if (!st || st.isDirectory()) continue;
    fs.unlinkSync(abs);
    for (let dir = parentOf(rel); dir.length > 0; dir = parentOf(dir)) parents.add(dir.toString('hex'));
  }
  // Deepest first; a folder still holding anything (an ignored file, a new file) stays.
  const dirs = [...parents].map((h) => Buffer.from(h, 'hex')).sort((a, b) => b.length - a.length);
  for (const rel of dirs) {
    try {
      fs.rmdirSync(Buffer.concat([topBuf, rel]));
    } catch {
      // not empty: whatever is left was not saved, so it is not ours to remove
    }
  }
}

/** Parent of a relative git path (always `/`-separated), '' at the top. */
function parentOf(rel: Buffer): Buffer {
  const i = rel.lastIndexOf(0x2f);
  return i === -1 ? Buffer.alloc(0) : rel.subarray(0, i);
}
