// Review pipeline methods (docs/spec.md: Review commands; docs/architecture.md §8). Senders: the shim
// (`svc review …`, `svc show`), review agents (`svc review wait`, `svc review post`) and
// the extension (request/abort/restart, the Reviews view). Who must stay in sync:
// server/review/reviewMethods.ts, cli/commands/review.ts and docs/protocol.md
// (section "review").
import { z } from 'zod';
import { ACTIVITIES } from '../activity';
import { ReviewLane } from '../config';
import { CheckInfo } from './pr';
import { IssueInfo, IssueRef } from './issues';
import { request } from './rpc';

const Caller = z.string().max(40).optional();
export const RunId = z.string().regex(/^r\d{1,6}$/, 'a review run id looks like r3');

export const VERDICTS = ['APPROVED', 'CHANGES_REQUESTED', 'FAILED'] as const;
export const VerdictName = z.enum(VERDICTS);
export type VerdictName = z.infer<typeof VerdictName>;

export const REVIEW_MODE_NAMES = ['quick', 'full', 'none'] as const;
export const ReviewModeName = z.enum(REVIEW_MODE_NAMES);
export type ReviewModeName = z.infer<typeof ReviewModeName>;

/** `pr.reviewState` in `svc show --json` (docs/architecture.md §8). */
export const PR_REVIEW_STATES = [
  'none',
  'requested',
  'in_review',
  'approved',
  'changes_requested',
  'failed',
  'stale',
] as const;
export const ReviewState = z.enum(PR_REVIEW_STATES);
export type ReviewState = z.infer<typeof ReviewState>;

/** Where a reviewer sits in the convoy: the parent, one of the four lanes, or the quick-mode agent. */
export const ReviewerRole = z.enum(['parent', 'quick', 'security', 'correctness', 'performance', 'requirements']);
export type ReviewerRole = z.infer<typeof ReviewerRole>;

/** One line of `<workspace>/.svc/pipeline.jsonl`; kinds carry more fields (source, mode, verdict, via …). */
export const JournalEntry = z
  .object({
    at: z.string(),
    kind: z.string(),
    issue: z.string(),
    runId: z.string().nullable(),
    sha: z.string().nullable(),
  })
  .passthrough();
export type JournalEntry = z.infer<typeof JournalEntry>;

export const ReportState = z.object({
  path: z.string(),
  exists: z.boolean(),
  /** The report's `Verdict:` heading, when it has a valid one. For the parent's synthesis.md
   *  (the quick agent's review.md): the posted verdict once the run has one, before that the
   *  file's verdict only when the file could be posted. */
  verdict: VerdictName.nullable(),
  /** The parent's (quick agent's) file: true once the run's verdict was posted (absent: false). */
  posted: z.boolean().optional(),
  /** Why the file cannot be read (a lane) or posted (the parent's, before its verdict); absent: none. */
  problem: z.string().nullable().optional(),
});

export const ReviewerInfo = z.object({
  id: z.number().int(),
  name: z.string(),
  role: ReviewerRole,
  runId: z.string(),
  model: z.string(),
  alive: z.boolean(),
  activity: z.enum(ACTIVITIES),
  report: ReportState,
});
export type ReviewerInfo = z.infer<typeof ReviewerInfo>;

export const RunInfo = z.object({
  runId: z.string(),
  mode: ReviewModeName,
  sha: z.string(),
  /** requested → dispatched → verdict; or aborted. */
  phase: z.enum(['requested', 'dispatched', 'verdict', 'aborted']),
  verdict: VerdictName.nullable(),
  worktree: z.string().nullable(),
});
export type RunInfo = z.infer<typeof RunInfo>;

/** A finding of the newest posted review (docs/review-findings.md), as the Reviews view lists it. */
export const FindingInfo = z.object({
  id: z.string(),
  severity: z.enum(['blocker', 'should-fix', 'nit']),
  /** `path:line` or `path:start-end` at the reviewed head. */
  location: z.string(),
  title: z.string(),
  /** Against the run before: new at this head, still open, or fixed since. */
  status: z.enum(['new', 'open', 'fixed']),
  /** A person dismissed it (`svc review dismiss`). */
  dismissed: z.boolean(),
  /** It is on its line as a review comment (this run's or an earlier one's). */
  onLine: z.boolean(),
});
export type FindingInfo = z.infer<typeof FindingInfo>;

export const IssueState = z.object({
  issue: IssueInfo,
  pr: z
    .object({
      number: z.number().int(),
      state: z.enum(['open', 'closed', 'merged']),
      head: z.string().nullable(),
      url: z.string().nullable(),
      reviewState: ReviewState,
      /** Merge readiness, computed live (spec rule 2). */
      ready: z.boolean(),
      reasons: z.array(z.string()),
      checks: z.array(CheckInfo),
    })
    .nullable(),
  /** The newest review run (from the journal). */
  run: RunInfo.nullable(),
  /** The newest run's reviewers (the convoy, or the quick-mode agent). */
  reviewers: z.array(ReviewerInfo),
  /** The journal's tail, oldest first. */
  journal: z.array(JournalEntry),
  /** The newest posted review's findings and those it found fixed; absent before one posted any. */
  findings: z.array(FindingInfo).optional(),
});
export type IssueState = z.infer<typeof IssueState>;

export const RequestResult = z.object({
  issue: z.string(),
  runId: z.string(),
  mode: ReviewModeName,
  sha: z.string(),
  pr: z.number().int(),
  /** True when the run already under way at this head was kept (svc done twice). */
  reused: z.boolean(),
});
export type RequestResult = z.infer<typeof RequestResult>;

/** Client → daemon. The single review entry point (`svc review request`, the extension). Appends `review.requested`. */
export const reviewRequest = request(
  'review/request',
  z
    .object({
      issue: IssueRef,
      message: z.string().max(10_000).optional(),
      /** Who asks: `command` (the shim, default) or `extension`. */
      source: z.enum(['command', 'extension']).optional(),
      caller: Caller,
    })
    .strict(),
  RequestResult,
);

/** Client → daemon. Stops every running reviewer of the issue; the work agent is not messaged. */
export const reviewAbort = request(
  'review/abort',
  z.object({ issue: IssueRef }).strict(),
  z.object({ issue: z.string(), runId: z.string().nullable(), stopped: z.array(z.string()) }),
);

/** Client → daemon. Restarts the review parent and re-runs lanes without a report (`role`: only that lane). */
export const reviewRestart = request(
  'review/restart',
  z
    .object({ issue: IssueRef, role: ReviewLane.optional(), model: z.string().trim().min(1).max(200).optional() })
    .strict(),
  z.object({ issue: z.string(), runId: z.string(), restarted: z.array(z.string()) }),
);

export const LaneResult = z.object({
  lane: ReviewLane,
  name: z.string(),
  path: z.string(),
  /** report: a valid report; invalid: a file without a valid `Verdict:` heading; died: ended without one; pending: still running. */
  state: z.enum(['report', 'invalid', 'died', 'pending']),
  verdict: VerdictName.nullable(),
  note: z.string().nullable(),
});
export type LaneResult = z.infer<typeof LaneResult>;

/** Review parent → daemon (long-running). Returns when every lane has a report or has died without one. */
export const reviewWait = request(
  'review/wait',
  z
    .object({
      caller: Caller,
      issue: IssueRef.optional(),
      run: RunId.optional(),
      timeoutS: z.number().int().min(1).max(86_400).optional(),
    })
    .strict(),
  z.object({
    issue: z.string(),
    runId: z.string(),
    outcome: z.enum(['complete', 'incomplete', 'timeout']),
    lanes: z.array(LaneResult),
  }),
);

/** Review parent or quick-mode agent → daemon. Validates synthesis.md (review.md) and posts one PR review pinned to the run's commit. */
export const reviewPost = request(
  'review/post',
  z.object({ issue: IssueRef, run: RunId, caller: Caller }).strict(),
  z.object({
    issue: z.string(),
    runId: z.string(),
    verdict: VerdictName,
    /** review: a formal PR review; marker: the own-PR fallback comment; comment: a COMMENT-type review (FAILED). */
    via: z.enum(['review', 'marker', 'comment']),
    sha: z.string(),
    pr: z.number().int(),
    /** The review or comment id on the code host. */
    id: z.number(),
  }),
);

/** Client → daemon (`svc show`). Derived issue state: PR review state, readiness, reviewers, journal tail. */
export const reviewShow = request(
  'review/show',
  z.object({ issue: IssueRef, lines: z.number().int().min(1).max(10_000).optional() }).strict(),
  IssueState,
);

export const FindingId = z.string().regex(/^f-[0-9a-f]{10}$/, 'a finding id looks like f-0123456789');

/** Client → daemon (`svc review dismiss`, the Reviews view). A person dismisses a finding:
 *  it is not posted again while the code at its location stays the same. Appends `review.dismissed`. */
export const reviewDismiss = request(
  'review/dismiss',
  z.object({ issue: IssueRef, finding: FindingId, caller: Caller }).strict(),
  z.object({
    issue: z.string(),
    finding: z.string(),
    /** Where the finding was last reported (`path:line`) and its title. */
    location: z.string(),
    title: z.string(),
    /** Line comments marked resolved on the local host (GitHub: resolve the thread there). */
    resolved: z.number().int(),
  }),
);
