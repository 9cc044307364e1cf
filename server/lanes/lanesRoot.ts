// The lanes root of a project and its three checks (spec Launch rule 7), on real paths.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Project } from '../../shared/config';
import { refused } from '../../shared/errors';

/** Real path of `p`, resolving the nearest existing ancestor when `p` does not exist yet. */
export function realPathLoose(p: string): string {
  const abs = path.resolve(p);
  let head = abs;
  const tail: string[] = [];
  for (;;) {
    try {
      return path.join(fs.realpathSync(head), ...tail.reverse());
    } catch {
      const parent = path.dirname(head);
      if (parent === head) return abs;
      tail.push(path.basename(head));
      head = parent;
    }
  }
}

export function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function expandHome(p: string): string {
  return p === '~' || p.startsWith('~/') ? path.join(os.homedir(), p.slice(1)) : p;
}

/** The project's lanes root, checked: under home, outside /tmp, not containing the checkout. */
export function lanesRootOf(project: Project): string {
  const checkout = path.resolve(project.path);
  const configured = project.gauntlet?.lanes_root;
  const root = configured ? path.resolve(checkout, expandHome(configured)) : `${checkout}-lanes`;
  const real = realPathLoose(root);
  const home = realPathLoose(os.homedir());
  const tmps = [realPathLoose('/tmp'), realPathLoose(os.tmpdir())];
  // Containing the checkout is the first thing wrong with a root such as $HOME or `/`.
  if (isInside(realPathLoose(checkout), real)) {
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
