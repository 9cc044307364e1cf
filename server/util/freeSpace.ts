// Bytes free to this user on a folder's filesystem: what a refusal says when git's own
// message on a full disk ("couldn't write …lock", "failed to write new configuration
// file") does not name the disk.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Bytes free to this user on the filesystem of `folder` (its nearest existing ancestor). */
export type FreeBytes = (folder: string) => number;

export const freeBytes: FreeBytes = (folder) => {
  let at = folder;
  while (!fs.existsSync(at) && path.dirname(at) !== at) at = path.dirname(at);
  const st = fs.statfsSync(at);
  return st.bavail * st.bsize;
};

/** Below this a disk is full for git: a ref, a config or an index written whole does not fit. */
export const FULL_BELOW_BYTES = 1024 * 1024;

/** The first of `folders` whose disk is full, with what is free there; undefined when none is (or none can be read). */
export function fullDiskOf(
  folders: string[],
  free: FreeBytes = freeBytes,
): { folder: string; free: number } | undefined {
  for (const folder of folders) {
    try {
      const has = free(folder);
      if (has < FULL_BELOW_BYTES) return { folder, free: has };
    } catch {
      // a folder that cannot be stat'ed says nothing about its disk
    }
  }
  return undefined;
}
