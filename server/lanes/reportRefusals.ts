// Every refusal of `svc lane report` (the Report rules and the critic/verifier verdict
// rules), each message made here and nowhere else (docs/style.md §16). Reasons:
// shared/refusals/reports.ts.
import { refusalsOf } from '../../shared/errors';
import type { SvcError } from '../../shared/errors';
import type { Verdict } from '../../shared/keys';
import { REPORT_REFUSALS } from '../../shared/refusals/reports';
import { problemText } from '../util/laneFileRead';
import type { LaneFileProblem } from '../util/laneFileRead';

const { usage, refused } = refusalsOf(REPORT_REFUSALS);

/** A lane as the refusals name it. */
interface LaneRef {
  id: number;
  name: string;
  role: string;
  key: string;
  iteration: number;
  dir: string;
}

export function notInsideALaneError(): SvcError<'notInsideALane'> {
  return refused('notInsideALane', 'not inside a lane');
}

/** The verdict file cannot be read (`why`: the errno code or message), is not JSON, or has no defects array. */
export const badVerdictFile = {
  unreadable: (file: string, why: string): SvcError<'badVerdictFile'> =>
    usage('badVerdictFile', `verdict file ${file} cannot be read: ${why}`),
  notJson: (file: string): SvcError<'badVerdictFile'> => usage('badVerdictFile', `verdict file ${file} is not JSON`),
  noDefects: (file: string): SvcError<'badVerdictFile'> =>
    usage('badVerdictFile', `verdict file ${file} has no "defects" array`),
  /** Outside the lane's folders (the same words whether or not it exists), or not a regular file of a sane size. */
  notLanes: (file: string, problem: LaneFileProblem, folders: readonly string[]): SvcError<'badVerdictFile'> =>
    usage(
      'badVerdictFile',
      problem.kind === 'outside'
        ? `verdict file ${file} is not inside this lane's own folders (${folders.join(', ')}); write it there`
        : `verdict file ${file} ${problemText(problem)}`,
    ),
};

export function blockedBodyError(kinds: readonly string[]): SvcError<'blockedBody'> {
  return refused('blockedBody', `a blocked report's body must start with one of ${kinds.join(', ')}`);
}

export function verdictOnRoleError(role: string): SvcError<'verdictOnRole'> {
  return refused('verdictOnRole', `--verdict is for critic and verifier lanes; this is a ${role} lane`);
}

export function verdictOnBlockedError(status: string): SvcError<'verdictOnBlocked'> {
  return refused('verdictOnBlocked', `--verdict goes with a done report, not a ${status} one`);
}

export function verdictRequiredError(role: string): SvcError<'verdictRequired'> {
  return refused('verdictRequired', `a ${role}'s done report needs --verdict <WOWED|IMPRESSED|NOT_YET|PASS|DEFECTS>`);
}

/** Critic rule 3: this conversation already filed its verdict. */
export function secondVerdictError(role: string): SvcError<'secondVerdict'> {
  return refused('secondVerdict', `this ${role} already filed its done report; a ${role} files exactly one verdict`);
}

/** Critic rule 3, per iteration: another conversation of the iteration filed it (`earlier`). */
export function iterationHasVerdictError(
  lane: LaneRef,
  earlier: { lane: LaneRef; verdict: Verdict },
): SvcError<'secondVerdict'> {
  return refused('secondVerdict', iterationJudgedMessage(lane, earlier));
}

/** The words of critic rule 3 per iteration, said by a report and by a `--reuse` launch alike. */
export function iterationJudgedMessage(lane: LaneRef, earlier: { lane: LaneRef; verdict: Verdict }): string {
  return (
    `${lane.role} ${lane.key} i${lane.iteration} already has its verdict (${earlier.verdict}, filed by #${earlier.lane.id} ${earlier.lane.name}); ` +
    `an iteration has one verdict: a new verdict needs a new ${lane.role} iteration (svc lane start --for ${lane.key} --role ${lane.role}, without --reuse)`
  );
}

export function noWorktreeError(dir: string): SvcError<'noWorktree'> {
  return refused('noWorktree', `lane directory ${dir} is not a git worktree any more`);
}

// ---- Report rule 1: a builder's done report

export function dirtyTreeError(dir: string): SvcError<'dirtyTree'> {
  return refused(
    'dirtyTree',
    `the working tree of ${dir} has uncommitted changes; commit them (or discard them) and report again`,
  );
}

export function detachedBuilderError(dir: string): SvcError<'detachedBuilder'> {
  return refused('detachedBuilder', `${dir} is not on a branch; a builder reports done from its pushed branch`);
}

/** No upstream on origin (`ahead` undefined), or `ahead` commits the upstream lacks. */
export function unpushedError(branch: string, upstream: string | null, ahead?: number): SvcError<'unpushed'> {
  return refused(
    'unpushed',
    ahead === undefined
      ? `branch ${branch} has no upstream on origin; push it (git push -u origin HEAD) or pass --allow-unpushed`
      : `branch ${branch} has ${ahead} commit(s) that ${upstream} lacks; push them (git push) or pass --allow-unpushed`,
  );
}
