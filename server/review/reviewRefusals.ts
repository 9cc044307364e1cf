// Every refusal of the review pipeline (request, restart, wait, post, the reviewers'
// settings and the shape of a report to post), each message made here and nowhere else
// (docs/style.md §16). Reasons: shared/refusals/review.ts.
import { refusalsOf } from '../../shared/errors';
import type { SvcError } from '../../shared/errors';
import { REVIEW_REFUSALS } from '../../shared/refusals/review';

const { usage, notFound, refused, conflict } = refusalsOf(REVIEW_REFUSALS);

/** The issue a refusal names, and (where it has one) its branch. */
interface IssueRef {
  id: string;
  branch: string;
}

// ---- Who reviews: the role settings

/** `who`: the reviewer in words; `lane`, when it is one of the four lane reviewers. */
export function noReviewModelError(
  who: string,
  lane: string | undefined,
  configFile: string,
): SvcError<'noReviewModel'> {
  return refused(
    'noReviewModel',
    `no model for ${who}: set ${lane ? `roles.review.sub.${lane}.model (or roles.review.model)` : 'roles.review.model'} in ${configFile}`,
  );
}

export function noReviewHarnessError(who: string, configFile: string): SvcError<'noReviewHarness'> {
  return refused('noReviewHarness', `no harness for ${who}: set roles.review.harness in ${configFile}`);
}

// ---- Requesting and restarting

export function noPrError(issue: IssueRef): SvcError<'noPr'> {
  return conflict('noPr', `issue ${issue.id} has no open PR for ${issue.branch}; run svc done ${issue.id} first`);
}

export function headMissingError(issue: IssueRef): SvcError<'headMissing'> {
  return conflict('headMissing', `branch ${issue.branch} of issue ${issue.id} is gone from the remote`);
}

export function dispatchFailedError(issue: IssueRef, runId: string, why: string): SvcError<'dispatchFailed'> {
  return conflict(
    'dispatchFailed',
    `review ${runId} of ${issue.id} was requested but its reviewers could not start: ${why}`,
  );
}

/** `restart`: there is nothing to restart (notFound, with what to run); else the issue has no run at all. */
export function noReviewError(issue: IssueRef, restart: boolean): SvcError<'noReview'> {
  return restart
    ? notFound(
        'noReview',
        `issue ${issue.id} has no review to restart; request one with svc review request ${issue.id}`,
      )
    : conflict('noReview', `issue ${issue.id} has no review run`);
}

/** `doing`: restart (no reviewers) or post (nothing to post). */
export function noAiReviewError(issue: IssueRef, runId: string, doing: 'restart' | 'post'): SvcError<'noAiReview'> {
  return refused(
    'noAiReview',
    `review ${runId} of ${issue.id} runs in mode none; ${doing === 'restart' ? 'there are no reviewers to restart' : 'there is nothing to post'}`,
  );
}

/** `doing`: restart (the way on is a new review) or post (nothing was posted). */
export function alreadyPostedError(
  issue: IssueRef,
  runId: string,
  verdict: string | null,
  doing: 'restart' | 'post',
): SvcError<'alreadyPosted'> {
  return conflict(
    'alreadyPosted',
    `review ${runId} of ${issue.id} already posted its verdict (${verdict}); ${doing === 'restart' ? `request a new review with svc review request ${issue.id}` : 'nothing posted'}`,
  );
}

/** `--role` on restart, or a wait for lanes, on a quick review. */
export function notFullError(
  issue: IssueRef,
  runId: string,
  mode: string,
  doing: 'role' | 'wait',
): SvcError<'notFull'> {
  return usage(
    'notFull',
    doing === 'role'
      ? `--role applies to full reviews; review ${runId} of ${issue.id} is a ${mode} review`
      : `review ${runId} of ${issue.id} is a ${mode} review; only full reviews have lanes to wait for`,
  );
}

// ---- Waiting and posting

export function unknownRunError(issue: IssueRef, runId: string): SvcError<'unknownRun'> {
  return notFound('unknownRun', `issue ${issue.id} has no review run ${runId}`);
}

export function unknownFindingError(issue: IssueRef, finding: string): SvcError<'unknownFinding'> {
  return notFound(
    'unknownFinding',
    `issue ${issue.id} has no finding ${finding} in any posted review; svc show ${issue.id} lists the review's findings under Convoy Notes`,
  );
}

export function alreadyDismissedError(issue: IssueRef, finding: string, at: string): SvcError<'alreadyDismissed'> {
  return conflict('alreadyDismissed', `finding ${finding} of issue ${issue.id} was already dismissed at ${at}`);
}

export function notAReviewerError(conv: { id: number; name: string }): SvcError<'notAReviewer'> {
  return usage(
    'notAReviewer',
    `svc review wait: conversation #${conv.id} (${conv.name}) is not a reviewer; pass the issue id (svc review wait <id> [--run <runId>])`,
  );
}

export function issueRequiredError(): SvcError<'issueRequired'> {
  return usage('issueRequired', 'svc review wait: which issue? run it from the review parent, or pass the issue id');
}

export function runAbortedError(issue: IssueRef, runId: string): SvcError<'runAborted'> {
  return conflict('runAborted', `review ${runId} of ${issue.id} was aborted; nothing posted`);
}

export function runSupersededError(
  issue: IssueRef,
  run: { runId: string; sha: string },
  latest: { runId: string; sha: string },
): SvcError<'runSuperseded'> {
  return conflict(
    'runSuperseded',
    `review ${run.runId} of ${issue.id} (at ${run.sha.slice(0, 7)}) was superseded by ${latest.runId} (at ${latest.sha.slice(0, 7)}); nothing posted`,
  );
}

export function runWithoutPrError(issue: IssueRef, runId: string): SvcError<'noPr'> {
  return conflict('noPr', `review ${runId} of ${issue.id} names no PR`);
}

/** `name`: synthesis.md or review.md. */
export function noReportError(issue: IssueRef, runId: string, name: string, file: string): SvcError<'noReport'> {
  return usage(
    'noReport',
    `no ${name} at ${file}; write it first, then run svc review post ${issue.id} --run ${runId}`,
  );
}

/** `invalid`: each lane whose report file is there but unreadable, with parseVerdict's finding. */
export function approveOverInvalidReportError(
  issue: IssueRef,
  runId: string,
  invalid: { lane: string; path: string; why: string }[],
): SvcError<'approveOverInvalidReport'> {
  const which = invalid.map((l) => `${l.lane} (${l.path}: ${l.why})`).join('; ');
  return refused(
    'approveOverInvalidReport',
    `review ${runId} of ${issue.id} cannot be APPROVED while a lane report is invalid: ${which}; nothing was posted. Read what that lane found and post CHANGES_REQUESTED or FAILED naming it (edit the verdict line of synthesis.md, then svc review post ${issue.id} --run ${runId})`,
  );
}

// ---- The shape of a report to post

export function reportTooLargeError(file: string, length: number, max: number): SvcError<'reportTooLarge'> {
  return usage(
    'reportTooLarge',
    `${file} has ${length} characters; the limit is ${max} (a PR review body holds 65,536)`,
  );
}

/** `why`: what parseVerdict found wrong with the first line. */
export function badVerdictHeadingError(why: string): SvcError<'badVerdictHeading'> {
  return usage('badVerdictHeading', why);
}

/** `order`: the sentence that says which sections come in which order. */
export function sectionOutOfOrderError(file: string, section: string, order: string): SvcError<'badReportSections'> {
  return usage('badReportSections', `${file} has its \`${section}\` section out of order: move it so that ${order}`);
}

/** `where`: after which heading it belongs. */
export function sectionMissingError(
  file: string,
  section: string,
  where: string,
  order: string,
): SvcError<'badReportSections'> {
  return usage(
    'badReportSections',
    `${file} has no \`${section}\` section: add a \`## ${section}\` heading ${where} (${order})`,
  );
}
