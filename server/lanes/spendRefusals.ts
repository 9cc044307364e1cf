// Every refusal of spend caps, each message made here and nowhere else (docs/style.md §16).
// Reasons: shared/refusals/spend.ts.
import { refusalsOf } from '../../shared/errors';
import type { SvcError } from '../../shared/errors';
import { SPEND_REFUSALS } from '../../shared/refusals/spend';

const { usage, notFound, refused, conflict } = refusalsOf(SPEND_REFUSALS);

/** `which`: the cap that is reached; `spent`: `$0.62 of $0.50 (124%)`. */
export function spendHeldError(lane: string, which: 'lane' | 'run', run: string, spent: string): SvcError<'spendHeld'> {
  const raise = which === 'lane' ? `svc lane budget ${lane} <usd>` : `svc lane budget --run ${run} <usd>`;
  return conflict(
    'spendHeld',
    `lane ${lane} is stopped at its ${which === 'lane' ? 'spend cap' : `run's spend cap (run ${run})`}: spent ${spent}; no turn runs until the cap is raised (${raise}, by a person or the lane's launcher) — or stop the lane (svc lane stop ${lane})`,
  );
}

export function spendAtLaunchError(what: string, spent: string, raise: string): SvcError<'spendAtLaunch'> {
  return refused(
    'spendAtLaunch',
    `${what} reached its spend cap (spent ${spent}): a new lane there would be stopped before its first turn; raise the cap first (${raise})`,
  );
}

/** `caller`: `#<id> (<name>)`. */
export function budgetNotAllowedError(caller: string, target: string): SvcError<'budgetNotAllowed'> {
  return refused(
    'budgetNotAllowed',
    `conversation ${caller} may not set the spend cap of ${target}: a person may, or the conversation that launched it (or one that launched that one)`,
  );
}

export function budgetTargetError(): SvcError<'budgetTarget'> {
  return usage(
    'budgetTarget',
    'svc lane budget takes a lane (svc lane budget <lane> <usd>) or a run (svc lane budget --run <key> <usd>), not both and not neither',
  );
}

export function noSuchRunError(run: string, project?: string): SvcError<'noSuchRun'> {
  return notFound(
    'noSuchRun',
    `no lanes in run ${run}${project ? ` of project ${project}` : ''}; svc lane runs lists the runs`,
  );
}
