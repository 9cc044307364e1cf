// The one interface the review pipeline and `svc pr` use for every code host (local,
// github). Who must stay in sync: server/codehost/local/localHost.ts,
// server/codehost/github/githubHost.ts and the contract suite
// test/integration/codehostContract.integration.test.ts, which runs against both.
import type {
  Check,
  Comment,
  CommitStatus,
  LineComment,
  HeadChange,
  PrState,
  PullRequest,
  Review,
  ReviewEvent,
  StatusState,
} from '../../shared/protocol/pr';

export type { Check, Comment, CommitStatus, HeadChange, LineComment, PullRequest, Review, ReviewEvent };

export interface CreatePullRequest {
  branch: string;
  title: string;
  body?: string;
  /** Default: the project's default branch. */
  base?: string;
}

export interface CreateReview {
  event: ReviewEvent;
  /** Required for REQUEST_CHANGES and COMMENT (as on GitHub). */
  body: string;
  /** The commit reviewed. Always given: a review is pinned to what was actually read. */
  commitId: string;
  /** Comments on lines of the files at `commitId` (GitHub review comments), posted with the review. */
  comments?: NewLineComment[];
}

export interface NewLineComment {
  path: string;
  /** The (last) line commented on, from 1, on the new side of the diff. */
  line: number;
  /** The first line of a range; absent for one line. */
  startLine?: number;
  body: string;
}

export interface SetStatus {
  context: string;
  state: StatusState;
  description?: string;
  targetUrl?: string;
}

export interface MergeResult {
  sha: string;
  method: 'fast-forward' | 'merge' | 'squash' | 'rebase';
}

export type HeadChangeListener = (change: HeadChange) => void;

export interface CodeHost {
  readonly kind: 'local' | 'github';
  readonly project: string;
  /** The identity the service writes reviews, comments and statuses as (marker comments count only from it). */
  whoami(): Promise<string>;
  /** Opens a PR for a branch that exists on the remote; refused (`prExists`) while one is open for it. */
  createPullRequest(input: CreatePullRequest): Promise<PullRequest>;
  /** By number, or the open PR of a head branch (else its newest PR). */
  getPullRequest(ref: number | { branch: string }): Promise<PullRequest | undefined>;
  listPullRequests(opts?: { state?: PrState | 'all' }): Promise<PullRequest[]>;
  /** The branch's commit on the remote now; null when there is no such branch. */
  headSha(branch: string): Promise<string | null>;
  /** APPROVE / REQUEST_CHANGES by the PR's author throw `selfReviewRefusedError` (reason `selfReviewRefused`). */
  createReview(number: number, review: CreateReview): Promise<Review>;
  /** The reviews' comments on lines, oldest first, with whether each thread is resolved. */
  listLineComments(number: number): Promise<LineComment[]>;
  /** Resolves the threads of the line comments whose body holds `needle` (a finding dismissed); how many. */
  resolveLineComments(number: number, needle: string): Promise<number>;
  /** Chronological. `head`: the PR's head now, so what is learnt about reviewers can be kept for it. */
  listReviews(number: number, head?: string | null): Promise<Review[]>;
  /** When the PR's base branch last changed (an ISO time), if it ever did since svc first saw it: verdicts before it judged another diff. */
  baseChangedAt?(number: number): string | null;
  createComment(number: number, body: string): Promise<Comment>;
  /** Chronological. */
  listComments(number: number): Promise<Comment[]>;
  setStatus(sha: string, status: SetStatus): Promise<CommitStatus>;
  /** The latest status per context (empty when there are none). */
  listStatuses(sha: string): Promise<CommitStatus[]>;
  /** Statuses and check runs together, for readiness. */
  listChecks(sha: string): Promise<Check[]>;
  /**
   * Merges exactly `sha` (which must still be the head) into the base. Callers check readiness first.
   * `method`: how (`svc lane land` passes the project's land.method); default the host's own choice.
   */
  mergePullRequest(number: number, opts: { sha: string; method?: 'merge' | 'squash' | 'rebase' }): Promise<MergeResult>;
  /** Head changes (push, webhook, PR opened). Returns an unsubscribe function. */
  onHeadChange(fn: HeadChangeListener): () => void;
  /** Stops watchers; the host is not used afterwards. */
  close(): Promise<void>;
}
