// Every refusal of `svc project add`, each message made here and nowhere else (docs/style.md §16).
// Reasons: shared/refusals/projects.ts.
import { refusalsOf } from '../../shared/errors';
import type { SvcError } from '../../shared/errors';
import { PROJECT_REFUSALS } from '../../shared/refusals/projects';

const { usage, conflict } = refusalsOf(PROJECT_REFUSALS);

export function badPathError(dir: string): SvcError<'badPath'> {
  return usage('badPath', `project path ${dir} is not a folder`);
}

export function projectExistsError(key: string, at: string): SvcError<'projectExists'> {
  return conflict('projectExists', `project '${key}' already exists at ${at}`);
}

export function checkoutRegisteredError(dir: string, key: string): SvcError<'checkoutRegistered'> {
  return conflict(
    'checkoutRegistered',
    `${dir} is already project '${key}'; one checkout is one project (svc project list shows them)`,
  );
}

export function badDefaultBranchError(branch: string): SvcError<'badDefaultBranch'> {
  return usage(
    'badDefaultBranch',
    `default branch '${branch}' is not a valid git branch name (git check-ref-format); pass --default-branch <name> with the branch lanes start from`,
  );
}

/** The folder is not the top of a checkout: a bare repository, no checkout at all, or inside one (`top`). */
export const notACheckout = {
  bare: (dir: string): SvcError<'notACheckout'> =>
    usage(
      'notACheckout',
      `project path ${dir} is a bare repository; clone it (git clone ${dir} <folder>) and add the clone`,
    ),
  none: (dir: string): SvcError<'notACheckout'> =>
    usage(
      'notACheckout',
      `project path ${dir} is not a git checkout; run git init (or git clone) there first, or pass the folder of a checkout`,
    ),
  inside: (dir: string, top: string, key: string): SvcError<'notACheckout'> =>
    usage(
      'notACheckout',
      `project path ${dir} is inside the git checkout ${top}; add the checkout itself: svc project add ${key} ${top}`,
    ),
};
