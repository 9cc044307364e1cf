// The lanes root of a project and its three checks (spec Launch rule 7), on real paths.
import * as os from 'node:os';
import * as path from 'node:path';
import type { Project } from '../../shared/config';
import { refused } from '../../shared/errors';
import { isInside, realPathLoose } from '../util/realPath';

/** The real path of a folder that must exist or be creatable; a dangling symlink is refused. */
function realRoot(p: string): string {
  const real = realPathLoose(p);
  if (real === null) throw refused('lanesRootUnresolvable', `lanes root ${path.resolve(p)} is a symlink whose target cannot be resolved; point gauntlet.lanes_root in projects.yaml at a real folder`);
  return real;
}

/** Home, /tmp and the checkout: fall back to the path as given when they cannot be resolved. */
const realOrGiven = (p: string): string => realPathLoose(p) ?? path.resolve(p);

function expandHome(p: string): string {
  return p === '~' || p.startsWith('~/') ? path.join(os.homedir(), p.slice(1)) : p;
}

/** The project's lanes root, checked: under home, outside /tmp, not containing the checkout. */
export function lanesRootOf(project: Project): string {
  const checkout = path.resolve(project.path);
  const configured = project.gauntlet?.lanes_root;
  const root = configured ? path.resolve(checkout, expandHome(configured)) : `${checkout}-lanes`;
  const real = realRoot(root);
  const home = realOrGiven(os.homedir());
  const tmps = [realOrGiven('/tmp'), realOrGiven(os.tmpdir())];
  // Containing the checkout is the first thing wrong with a root such as $HOME or `/`.
  if (isInside(realOrGiven(checkout), real)) {
    throw refused('lanesRootContainsCheckout', `lanes root ${real} contains the project checkout ${checkout}; choose a folder beside it (default: ${checkout}-lanes)`);
  }
  if (!isInside(real, home) || real === home) {
    throw refused('lanesRootOutsideHome', `lanes root ${real} is not under your home ${home}; set gauntlet.lanes_root in projects.yaml to a folder under it`);
  }
  if (tmps.some((t) => isInside(real, t))) {
    throw refused('lanesRootInTmp', `lanes root ${real} is under ${tmps.find((t) => isInside(real, t))}; lanes must outlive reboots: set gauntlet.lanes_root outside /tmp`);
  }
  return real;
}
