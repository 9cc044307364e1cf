// How much a park would copy into SVC_HOME, measured before the agent is stopped: the sizes
// on disk of the files `git status` shows changed or new (a deletion costs nothing). A
// binary patch carries a new or changed file whole, so a tree holding a build's output or a
// dataset would otherwise fill the person's home without a word. Over `reap.park_max_mb`
// the reap is refused (nothing stopped or changed); over `reap.park_warn_mb` it goes ahead
// and its report says how much was parked and what the largest files were.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ParkSize } from '../../shared/protocol/lanes';

export const MIB = 1024 * 1024;
const LARGEST_SHOWN = 3;

/** The limits of config.yaml `reap:`, in bytes. */
export interface ParkLimits {
  warnBytes: number;
  maxBytes: number;
}

export const DEFAULT_PARK_WARN_MB = 100;
export const DEFAULT_PARK_MAX_MB = 1024;

export function parkLimitsOf(reap: { park_warn_mb?: number; park_max_mb?: number } | undefined): ParkLimits {
  return {
    warnBytes: (reap?.park_warn_mb ?? DEFAULT_PARK_WARN_MB) * MIB,
    maxBytes: (reap?.park_max_mb ?? DEFAULT_PARK_MAX_MB) * MIB,
  };
}

/** The size of the work behind `status` (`git status --porcelain=v1 -z` records of `dir`). */
export function parkSizeOf(dir: string, status: string[]): ParkSize {
  let bytes = 0;
  const files: { path: string; bytes: number }[] = [];
  for (const record of status) {
    const rel = record.slice(3);
    const st = lstatOrNone(path.join(dir, rel));
    if (!st?.isFile()) continue;
    bytes += st.size;
    files.push({ path: rel, bytes: st.size });
  }
  files.sort((a, b) => b.bytes - a.bytes);
  return { bytes, largest: files.slice(0, LARGEST_SHOWN) };
}

/** The path's lstat; none when it is gone, even as a folder that became a file (ENOTDIR). */
function lstatOrNone(file: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(file);
  } catch {
    return undefined; // deleted: costs nothing to park
  }
}
