// Cleans a worktree whose work is saved in a verified patch, removing only what was
// saved: the index bits that hid saved edits are cleared (else git would keep trusting
// them and leave the edits), tracked paths go back to HEAD (`git reset --hard`, every
// tracked change was in the patch), then the untracked files the patch added (ignored
// ones included) are unlinked and the folders they leave empty removed. An untracked
// file that appeared after the capture is not in the patch and stays, so
// `git worktree remove` (never forced) will refuse rather than lose it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runGit, splitNul } from '../git/gitExec';
import type { GitEnv } from '../git/gitExec';
import { clearBits } from './indexFlags';
import type { Capture } from './parkCapture';

export async function cleanSavedWork(
  top: string,
  work: Pick<Capture, 'changes' | 'hiddenByBits'>,
  opts: GitEnv,
): Promise<void> {
  // Bits go on what was saved, and on entries the index holds apart from HEAD: the reset
  // drops or rewrites those, and git refuses to reset an entry whose bit still hides it
  // (a staged file under skip-worktree whose folder became a file: "not uptodate").
  const clear = new Set([
    ...work.changes.map((c) => c.path.toString('hex')),
    ...(await stagedApartFromHead(top, opts)),
  ]);
  await clearBits(
    top,
    [...work.hiddenByBits.entries()].filter(([hex]) => clear.has(hex)).map(([, e]) => e),
    opts,
  );
  await runGit(
    top,
    ['-c', 'core.fsmonitor=false', 'reset', '--hard', '--quiet', '--no-recurse-submodules', 'HEAD'],
    opts,
  );
  const added = work.changes.filter((c) => c.oldMode === '000000').map((c) => c.path);
  if (added.length === 0) return;
  const topBuf = Buffer.from(top + path.sep);
  const parents = new Set<string>();
  const folders = new Map<string, boolean>();
  for (const rel of added) {
    // Never through a symlink: a saved path that a restored symlink now leads elsewhere
    // names a file outside this tree, which is not ours to touch.
    if (!parentsAreFolders(topBuf, rel, folders)) continue;
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

/** Hex paths whose index entry differs from HEAD's (added, removed or changed in the index). */
async function stagedApartFromHead(top: string, opts: GitEnv): Promise<string[]> {
  const r = await runGit(top, ['diff-index', '--cached', '--no-renames', '--name-only', '-z', 'HEAD'], opts);
  return splitNul(r.stdout).map((p) => p.toString('hex'));
}

/** Parent of a relative git path (always `/`-separated), '' at the top. */
function parentOf(rel: Buffer): Buffer {
  const i = rel.lastIndexOf(0x2f);
  return i === -1 ? Buffer.alloc(0) : rel.subarray(0, i);
}

/**
 * True when every folder on the way from the top to `rel` is a real folder (no symlink).
 * `known` holds the folders already judged in this clean (keyed by their bytes as hex):
 * nothing but the clean itself changes the tree meanwhile, and it only removes files, so
 * each folder is lstat-ed once, not once per file below it (thousands of new files share
 * a few hundred folders).
 */
function parentsAreFolders(topBuf: Buffer, rel: Buffer, known: Map<string, boolean>): boolean {
  for (let at = rel.indexOf(0x2f); at !== -1; at = rel.indexOf(0x2f, at + 1)) {
    const folder = rel.subarray(0, at);
    const key = folder.toString('hex');
    let isFolder = known.get(key);
    if (isFolder === undefined) {
      isFolder = fs.lstatSync(Buffer.concat([topBuf, folder]), { throwIfNoEntry: false })?.isDirectory() === true;
      known.set(key, isFolder);
    }
    if (!isFolder) return false;
  }
  return true;
}
