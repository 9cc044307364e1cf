// Reap step 2: the lane directory must lie inside the project's lanes root, compared on
// real paths, so a lane directory that is (or passes through) a symlink pointing
// elsewhere is refused. The root itself is never a lane directory.
import * as path from 'node:path';
import { realPathLoose } from '../util/realPath';
import { outsideLanesRootError } from './reapErrors';

/** Returns the real path of `dir` when it is strictly inside `lanesRoot`; refuses otherwise. */
export function checkInsideLanesRoot(dir: string, lanesRoot: string): string {
  const root = realPathLoose(lanesRoot) ?? path.resolve(lanesRoot);
  const real = realPathLoose(dir);
  if (real === null) throw outsideLanesRootError(path.resolve(dir), 'a symlink that cannot be resolved', root);
  const rel = path.relative(root, real);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel))
    throw outsideLanesRootError(path.resolve(dir), real, root);
  return real;
}
