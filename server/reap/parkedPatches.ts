// Every parked patch of a lane, read from the folder park writes them to. The files are
// the record: a reap killed after the patch was published (and perhaps after the tree was
// cleaned) never got to report it, so `lane show`, `lane list --json`, the Command Deck and
// the next reap read the folder itself, and the restore command from each patch's header.
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface ParkedPatch {
  patchFile: string;
  /** The tar file of exact copies beside it, when park wrote one. */
  tarFile: string | null;
  /** Paths the patch changes, from its header (null when the header does not say). */
  paths: number | null;
  /** The worktree it was parked from. */
  worktree: string | null;
  /** The command that re-creates the removed worktree and restores the work (from the header). */
  restoreCommand: string | null;
  /** The command that restores into the worktree where it still stands, clean at the parked HEAD. */
  restoreInPlaceCommand: string | null;
}

const HEADER_BYTES = 64 * 1024;
const NAME = /^parked-\d{8}T\d{6}Z(?:-\d+)?\.patch$/;

/** Whether a file name in a lane's folder is a published parked patch (not one being written). */
export function isParkedPatchName(name: string): boolean {
  return NAME.test(name);
}

/**
 * The published parked patches in `folder`, oldest first (names sort by time), each with
 * its header read now. `names`: the folder's entries when the caller has just learned them
 * (parkedFolders.ts), else the folder is listed here.
 */
export function parkedPatchesIn(folder: string, names?: readonly string[]): ParkedPatch[] {
  let entries = names;
  if (!entries) {
    try {
      entries = fs.readdirSync(folder);
    } catch {
      return [];
    }
  }
  return entries
    .filter(isParkedPatchName)
    .sort()
    .map((n) => readHeader(path.join(folder, n)));
}

function readHeader(patchFile: string): ParkedPatch {
  let text = '';
  try {
    const fd = fs.openSync(patchFile, 'r');
    try {
      const buf = Buffer.alloc(HEADER_BYTES);
      text = buf.subarray(0, fs.readSync(fd, buf, 0, buf.length, 0)).toString('utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // unreadable: still listed, by name
  }
  const header = text.split('\ndiff --git ')[0];
  const field = (name: string): string | null => {
    const m = new RegExp(`^${name}: (.*)$`, 'm').exec(header);
    if (!m) return null;
    try {
      return m[1].startsWith('"') ? (JSON.parse(m[1]) as string) : m[1];
    } catch {
      return null;
    }
  };
  const paths = field('paths');
  const files = /^files: (".*?") \(/m.exec(header)?.[1];
  return {
    patchFile,
    tarFile: files ? (JSON.parse(files) as string) : null,
    paths: paths !== null && /^\d+$/.test(paths) ? Number(paths) : null,
    worktree: field('worktree'),
    restoreCommand: field('restore'),
    restoreInPlaceCommand: field('restore in place'),
  };
}
