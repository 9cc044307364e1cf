// review/request, abort, restart, wait, post, show (shared/protocol/review.ts).
import {
  reviewAbort,
  reviewDismiss,
  reviewPost,
  reviewRequest,
  reviewRestart,
  reviewShow,
  reviewWait,
} from '../../shared/protocol/review';
import type { IssueRow } from '../issues/issueStore';
import type { ReviewCtx } from './context';
import { dismissFinding } from './dismiss';
import { readJournal } from './journal';
import type { ReviewPipeline } from './pipeline';
import { reviewerOf } from './reviewers';
import { issueRequiredError, noReviewError, notAReviewerError, notFullError, unknownRunError } from './reviewRefusals';
import { latestRun, runsOf } from './runs';
import { issueState } from './show';
import { DEFAULT_WAIT_S, waitForLanes } from './wait';

export function registerReviewMethods(ctx: ReviewCtx, pipeline: ReviewPipeline): void {
  const { app } = ctx;

  app.rpc.handle(reviewRequest, (p) => {
    const by = p.caller ? ctx.conv.resolve(p.caller).name : undefined;
    return pipeline.request(p.issue, { source: p.source ?? 'command', message: p.message, by });
  });

  app.rpc.handle(reviewAbort, (p) => pipeline.abort(p.issue));
  app.rpc.handle(reviewRestart, (p) => pipeline.restart(p.issue, { role: p.role, model: p.model }));

  app.rpc.handle(reviewWait, async (p, rctx) => {
    const { issue, runId } = whichRun(ctx, pipeline, p);
    const run = runsOf(readJournal(issue.workspace)).get(runId);
    if (!run) throw unknownRunError(issue, runId);
    if (run.mode !== 'full') throw notFullError(issue, runId, run.mode, 'wait');
    const r = await waitForLanes(ctx, issue, runId, p.timeoutS ?? DEFAULT_WAIT_S, rctx.signal);
    return { issue: issue.id, runId, ...r };
  });

  app.rpc.handle(reviewPost, (p) => pipeline.post(p.issue, p.run));

  app.rpc.handle(reviewDismiss, (p) => {
    const issue = pipeline.issue(p.issue);
    const by = p.caller ? ctx.conv.resolve(p.caller).name : undefined;
    return pipeline.serial(issue.id, () => dismissFinding(ctx, issue, p.finding, by));
  });

  app.rpc.handle(reviewShow, (p) => issueState(ctx, pipeline.issue(p.issue), p.lines));
}

/** The caller's own run (a reviewer), else the named issue and run, else the issue's newest run. */
function whichRun(
  ctx: ReviewCtx,
  pipeline: ReviewPipeline,
  p: { caller?: string; issue?: string; run?: string },
): { issue: IssueRow; runId: string } {
  if (!p.issue && p.caller) {
    const row = ctx.conv.resolve(p.caller);
    const r = reviewerOf(row);
    if (!r) throw notAReviewerError(row);
    return { issue: pipeline.issue(row.issueId!), runId: p.run ?? r.runId };
  }
  if (!p.issue) throw issueRequiredError();
  const issue = pipeline.issue(p.issue);
  const runId = p.run ?? latestRun(readJournal(issue.workspace))?.runId;
  if (!runId) throw noReviewError(issue, false);
  return { issue, runId };
}
