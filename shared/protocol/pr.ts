// Pull request methods (the code host). Senders: the shim (`svc pr …`) and the extension;
// the review pipeline reads the same shapes in-process through server/codehost.
// Who must stay in sync: server/codehost/prMethods.ts, cli/commands/pr.ts and
// docs/protocol.md (section "pr").
import { z } from 'zod';
import { ProjectKey } from '../config';
import { notification, request } from './rpc';

export const PR_STATES = ['open', 'closed', 'merged'] as const;
export const PrState = z.enum(PR_STATES);
export type PrState = z.infer<typeof PrState>;

export const PullRequestInfo = z.object({
  project: z.string(),
  number: z.number().int(),
  title: z.string(),
  body: z.string(),
  branch: z.string(),
  base: z.string(),
  /** Login that opened the PR; the host refuses APPROVE/REQUEST_CHANGES from it. */
  author: z.string(),
  state: PrState,
  draft: z.boolean(),
  /** Whether the head merges cleanly into the base: null while the host has not computed it (or does not say). */
  mergeable: z.boolean().nullable(),
  /** GitHub's `mergeable_state` (clean, dirty, blocked, behind, unstable, has_hooks, draft, unknown); null where the host does not report one. */
  mergeableState: z.string().nullable(),
  /** The live head commit (for a merged PR: the head that was merged); null when the branch is gone. */
  head: z.string().nullable(),
  url: z.string().nullable(),
  createdAt: z.string(),
  mergedAt: z.string().nullable(),
  mergeSha: z.string().nullable(),
});
export type PullRequest = z.infer<typeof PullRequestInfo>;

export const REVIEW_EVENTS = ['APPROVE', 'REQUEST_CHANGES', 'COMMENT'] as const;
export const ReviewEvent = z.enum(REVIEW_EVENTS);
export type ReviewEvent = z.infer<typeof ReviewEvent>;

export const REVIEW_STATES = ['APPROVED', 'CHANGES_REQUESTED', 'COMMENTED', 'DISMISSED', 'PENDING'] as const;
export const ReviewStateName = z.enum(REVIEW_STATES);
export type ReviewStateName = z.infer<typeof ReviewStateName>;

export const ReviewInfo = z.object({
  id: z.number(),
  author: z.string(),
  state: ReviewStateName,
  body: z.string(),
  /** The commit the review is pinned to. */
  commitId: z.string().nullable(),
  submittedAt: z.string().nullable(),
  /** GitHub's `author_association` (OWNER, MEMBER, COLLABORATOR, CONTRIBUTOR, NONE …); null on the local host. */
  association: z.string().nullable(),
  /** The author can push to the repository (only such reviews count for readiness). */
  writeAccess: z.boolean(),
});
export type Review = z.infer<typeof ReviewInfo>;

/** A review's comment on a line (or a range `startLine`–`line`) of the file at the review's commit. */
export const LineCommentInfo = z.object({
  id: z.number(),
  /** The review it belongs to. */
  reviewId: z.number(),
  path: z.string(),
  line: z.number().int(),
  startLine: z.number().int().nullable(),
  body: z.string(),
  /** Its thread was resolved (GitHub) or its finding dismissed (`svc review dismiss`). */
  resolved: z.boolean(),
});
export type LineComment = z.infer<typeof LineCommentInfo>;

/** `updatedAt` differs from `createdAt` once the comment was edited (an edited verdict marker no longer counts). */
export const CommentInfo = z.object({
  id: z.number(),
  author: z.string(),
  body: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Comment = z.infer<typeof CommentInfo>;

export const STATUS_STATES = ['pending', 'success', 'failure', 'error'] as const;
export const StatusState = z.enum(STATUS_STATES);
export type StatusState = z.infer<typeof StatusState>;

export const CommitStatusInfo = z.object({
  context: z.string(),
  state: StatusState,
  description: z.string().nullable(),
  targetUrl: z.string().nullable(),
  /** Who set it; null where the host does not say (GitHub's combined status omits it). */
  creator: z.string().nullable(),
  createdAt: z.string(),
});
export type CommitStatus = z.infer<typeof CommitStatusInfo>;

/** A commit status (latest per context) or a check run, in one list. */
export const CheckInfo = z.object({
  name: z.string(),
  source: z.enum(['status', 'check_run']),
  /** Status state, or a check run's conclusion, or its status while not completed (`queued`, `in_progress`). */
  state: z.string(),
});
export type Check = z.infer<typeof CheckInfo>;

export const VerdictInfo = z.object({
  by: z.string(),
  state: z.enum(['APPROVED', 'CHANGES_REQUESTED']),
  sha: z.string().nullable(),
  via: z.enum(['review', 'marker']),
  at: z.string(),
  /** Review id or comment id. */
  id: z.number(),
});
export type Verdict = z.infer<typeof VerdictInfo>;

export const ReadinessInfo = z.object({
  ready: z.boolean(),
  /** Why it is not ready, one line each; empty when ready. */
  reasons: z.array(z.string()),
  /** What was seen and ignored (an author's approval, a marker by someone else). */
  notes: z.array(z.string()),
  approvals: z.array(VerdictInfo),
  blocking: z.array(VerdictInfo),
  /** The newest verdict of any counted reviewer (review or service marker). */
  latestVerdict: VerdictInfo.nullable(),
  /** The newest verdict is for a commit other than the head. */
  stale: z.boolean(),
  checks: z.enum(['none', 'green', 'pending', 'failing']),
});
export type Readiness = z.infer<typeof ReadinessInfo>;

export const PrDetail = z.object({
  codeHost: z.enum(['local', 'github']),
  /** The identity the service writes reviews and comments as. */
  identity: z.string(),
  pr: PullRequestInfo,
  reviews: z.array(ReviewInfo),
  /** The reviews' comments on lines, oldest first. */
  lineComments: z.array(LineCommentInfo),
  comments: z.array(CommentInfo),
  checks: z.array(CheckInfo),
  readiness: ReadinessInfo,
});
export type PrDetail = z.infer<typeof PrDetail>;

export const HEAD_CHANGE_SOURCES = ['opened', 'push', 'rescan', 'webhook', 'poll'] as const;
export const HeadChangeInfo = z.object({
  project: z.string(),
  number: z.number().int(),
  branch: z.string(),
  /** Null when the PR was just opened (or reopened / marked ready, from a webhook). */
  before: z.string().nullable(),
  after: z.string(),
  /** `opened` by svc; `push` seen on the local remote's refs; `rescan` at daemon start; `webhook` from GitHub; `poll` GitHub's open PRs read again (a missed webhook). */
  source: z.enum(HEAD_CHANGE_SOURCES),
  /** The webhook action (`opened`, `reopened`, `synchronize`, `ready_for_review`). */
  action: z.string().optional(),
});
export type HeadChange = z.infer<typeof HeadChangeInfo>;

/** Which project: `project`, else the one whose checkout holds `cwd`, else the only one. */
const Where = { project: ProjectKey.optional(), cwd: z.string().max(4096).optional() };
/** A PR number (`12`, `#12`) or a head branch name. */
const PrRef = z.string().min(1).max(255);

/** Client → daemon. Lists PRs of one project, or of every project when none is named or found by cwd. */
export const prList = request(
  'pr/list',
  z.object({ ...Where, state: z.enum(['open', 'closed', 'merged', 'all']).optional() }).strict(),
  z.object({ prs: z.array(PullRequestInfo), errors: z.array(z.object({ project: z.string(), error: z.string() })) }),
);

/** Client → daemon. One PR with its reviews, comments, checks and live merge readiness. */
export const prShow = request('pr/show', z.object({ ...Where, pr: PrRef }).strict(), PrDetail);

/** Client → daemon. Merges a PR into its base; refused (`notReady`) with the reasons unless ready. */
export const prMerge = request(
  'pr/merge',
  z.object({ ...Where, pr: PrRef }).strict(),
  z.object({ pr: PullRequestInfo, sha: z.string(), method: z.enum(['fast-forward', 'merge', 'squash', 'rebase']) }),
);

/** Client → daemon. Low level: opens a PR for a pushed branch (the pipeline's `svc done` does this itself). */
export const prCreate = request(
  'pr/create',
  z
    .object({
      project: ProjectKey,
      branch: z.string().min(1).max(255),
      title: z.string().trim().min(1).max(256),
      body: z.string().max(65536).optional(),
      base: z.string().min(1).max(255).optional(),
    })
    .strict(),
  PullRequestInfo,
);

/**
 * Client → daemon. Low level: posts a review as the service identity (`codehost.local.reviewer`
 * on the local host, the reviewer token on GitHub), pinned to `sha` (default: the head now).
 * APPROVE / REQUEST_CHANGES on the identity's own PR are refused (`selfReviewRefused`).
 */
export const prReview = request(
  'pr/review',
  z
    .object({
      ...Where,
      pr: PrRef,
      event: ReviewEvent,
      body: z.string().max(65536).optional(),
      sha: z
        .string()
        .regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/, 'a full commit sha')
        .optional(),
    })
    .strict(),
  z.object({ pr: PullRequestInfo, review: ReviewInfo }),
);

/** Daemon → every client. A PR's head moved (or a PR was opened); the review pipeline reacts in-process. */
export const prHeadChanged = notification('pr/headChanged', HeadChangeInfo);
