// A stalled review in words, for `svc show` and the Reviews tree alike: the newest run has
// reviewers, none of them alive, and no verdict was posted (a quick agent that ended or was
// stopped before `svc review post`, a parent whose convoy died). The daemon's stall rule
// re-dispatches such a run by itself only after 15 minutes and at most hourly
// (server/review/stall.ts); until then nothing moves unless the person restarts it.
import { isLive } from '../activity';
import type { IssueState } from '../protocol/review';

export interface ReviewStall {
  /** What is wrong, in a few words. */
  why: string;
  /** The command that gets the review going again. */
  command: string;
}

export function reviewStall(s: Pick<IssueState, 'issue' | 'run' | 'reviewers'>): ReviewStall | null {
  const run = s.run;
  if (!run || (run.phase !== 'requested' && run.phase !== 'dispatched')) return null;
  const mine = s.reviewers.filter((r) => r.runId === run.runId);
  if (mine.length === 0 || mine.some((r) => r.alive || isLive(r.activity))) return null;
  const who = run.mode === 'quick' ? 'its reviewer is' : 'no reviewer is';
  return {
    why: `${who} ${run.mode === 'quick' ? 'not ' : ''}alive and no verdict was posted`,
    command: `svc review restart ${s.issue.id}`,
  };
}
