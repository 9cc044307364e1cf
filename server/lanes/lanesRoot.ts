// The lanes root of a project and its three checks (spec Launch rule 7), on real paths.
import * as os from 'node:os';
import * as path from 'node:path';
import type { Project } from '../../shared/config';
import { isInside, realPathLoose } from '../util/realPath';
import {
  lanesRootContainsCheckoutError,
  lanesRootInsideCheckoutError,
  lanesRootInTmpError,
  lanesRootOutsideHomeError,
  lanesRootUnresolvableError,
} from './laneRefusals';

/** The real path of a folder that must exist or be creatable; a dangling symlink is refused. */
function realRoot(p: string): string {
  const real = realPathLoose(p);
  if (real === null) throw lanesRootUnresolvableError(path.resolve(p));
  return real;
}

/** Home, /tmp and the checkout: fall back to the path as given when they cannot be resolved. */
const realOrGiven = (p: string): string => realPathLoose(p) ?? path.resolve(p);

function expandHome(p: string): string {
  return p === '~' || p.startsWith('~/') ? path.join(os.homedir(), p.slice(1)) : p;
}

/** The project's lanes root, checked: under home, outside /tmp, neither containing the checkout nor inside it. */
export function lanesRootOf(project: Project): string {
  const checkout = path.resolve(project.path);
  const configured = project.gauntlet?.lanes_root;
  const root = configured ? path.resolve(checkout, expandHome(configured)) : `${checkout}-lanes`;
  const real = realRoot(root);
  const home = realOrGiven(os.homedir());
  const tmps = [realOrGiven('/tmp'), realOrGiven(os.tmpdir())];
  // Containing the checkout is the first thing wrong with a root such as $HOME or `/`.
  if (isInside(realOrGiven(checkout), real)) {
    throw lanesRootContainsCheckoutError(real, checkout);
  }
  // Nor inside it: lanes would be folders of the main working tree, seen by its git status.
  if (isInside(real, realOrGiven(checkout))) {
    throw lanesRootInsideCheckoutError(real, checkout);
  }
  if (!isInside(real, home) || real === home) {
    throw lanesRootOutsideHomeError(real, home);
  }
  if (tmps.some((t) => isInside(real, t))) {
    throw lanesRootInTmpError(
      real,
      tmps.find((t) => isInside(real, t)),
    );
  }
  return real;
}
