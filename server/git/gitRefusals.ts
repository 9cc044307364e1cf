// Every refusal of the git runner and of user-given refs, each message made here and
// nowhere else (docs/style.md §16). Reasons: shared/refusals/git.ts.
import { refusalsOf } from '../../shared/errors';
import type { SvcError } from '../../shared/errors';
import { GIT_REFUSALS } from '../../shared/refusals/git';

const { usage, internal, conflict } = refusalsOf(GIT_REFUSALS);

/** A user-given ref svc will not pass to git, or git does not know; `what` names it (`--from`, `branch`). */
export const badRef = {
  optionLike: (what: string, ref: string): SvcError<'badRef'> =>
    usage('badRef', `${what} '${ref}' looks like an option; refs cannot start with -`),
  controlCharacter: (what: string): SvcError<'badRef'> => usage('badRef', `${what} contains a control character`),
  notACommit: (what: string, ref: string, repo: string): SvcError<'badRef'> =>
    usage('badRef', `${what} '${ref}' is not a commit in ${repo}`),
  notABranchName: (name: string): SvcError<'badRef'> => usage('badRef', `'${name}' is not a valid branch name`),
};

export function gitCouldNotStartError(args: string[], why: string): SvcError<'gitFailed'> {
  return internal('gitFailed', `git ${args.join(' ')} could not start: ${why}`);
}

/** `why`: the exit code or the signal; `detail`: git's stderr, else `why`. */
export function gitFailedError(args: string[], cwd: string, why: string, detail: string): SvcError<'gitFailed'> {
  return internal('gitFailed', `git ${args.join(' ')} failed in ${cwd} (${why}): ${detail}`);
}

/**
 * A place in the repository's git dir that git never makes as it is (a symbolic link, a FIFO),
 * where the daemon's git would write: a lane may have planted it, so nothing is written.
 */
export function plantedLinkError(commonDir: string, what: string): SvcError<'plantedLink'> {
  return conflict(
    'plantedLink',
    `${what} in ${commonDir}: git never makes one there and a lane may have planted it, so svc writes nothing through it; look at it, remove it and try again`,
  );
}
