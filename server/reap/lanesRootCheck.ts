// Reap step 2: the lane directory must lie inside the project's lanes root, compared on
// real paths, so a lane directory that is (or passes through) a symlink pointing
// elsewhere is refused. The root itself is never a lane directory.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { outsideLanesRootError } from './reapErrors';

/** Returns the real path of `dir` when it is strictly inside `lanesRoot`; refuses otherwise. */
export function checkInsideLanesRoot(dir: string, lanesRoot: string): string {
  const root = realPathLoose(lanesRoot) ?? path.resolve(lanesRoot);
  const real = realPathLoose(dir);
  if (real === null) throw outsideLanesRootError(path.resolve(dir), 'a symlink that cannot be resolved', root);
  const rel = path.relative(root, real);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) throw outsideLanesRootError(path.resolve(dir), real, root);
  return real;
}

/**
 * Real path of `p`; for a path that does not exist (a lane folder already gone) the
 * nearest existing ancestor is resolved and the rest appended: what does not exist
 * cannot be a symlink. Null when something that exists cannot be resolved (a dangling
 * or looping symlink): its target is unknown, so it is inside nothing.
 */
export function realPathLoose(p: string): string | null {
  const tail: string[] = [];
  for (let head = path.resolve(p); ; head = path.dirname(head)) {
    try {
      return path.join(fs.realpathSync(head), ...tail.reverse());
    } catch {
      if (entryExists(head)) return null;
      if (path.dirname(head) === head) return path.resolve(p);
      tail.push(path.basename(head));
    }
  }
}

/** False only when nothing is there; an entry we may not inspect still exists. */
function entryExists(p: string): boolean {
  try {
    fs.lstatSync(p);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code !== 'ENOENT' && code !== 'ENOTDIR';
  }
}
