// Real paths for containment checks (lanes root rules, reap's inside-the-root check):
// judged on where a path really is, so a symlink cannot smuggle a folder in or out.
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Real path of `p`; for a path that does not exist (a lane folder not made yet, or
 * already gone) the nearest existing ancestor is resolved and the rest appended: what
 * does not exist cannot be a symlink. Null when something that exists cannot be
 * resolved (a dangling or looping symlink): its target is unknown, so it is inside nothing.
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

/** Real path of `p`, or `p` resolved as given when it cannot be resolved (missing, dangling): for comparing folders the user named. */
export function realOrSelf(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

/** Whether `child` is `parent` or below it (both already real paths). */
export function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
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
