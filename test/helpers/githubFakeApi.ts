// What a test holds of the GitHub fake (githubFake.ts): its address, what it was asked and
// answered, and the controls that act on it as a person on GitHub would.
import type { Json, Role } from './githubFakeState';

export interface FakeCheckRun {
  name: string;
  status: 'queued' | 'in_progress' | 'completed';
  conclusion?: 'success' | 'failure' | 'neutral' | 'skipped' | 'cancelled' | 'timed_out' | 'action_required' | null;
}

export interface GithubFake {
  url: string;
  /** Every request, in order: what was asked, who asked, and the answer's status. */
  requests: { method: string; path: string; login?: string; status?: number }[];
  /** Every answer with a body, in order (for checking them against GitHub's OpenAPI description). */
  responses: { method: string; path: string; status: number; body: unknown }[];
  /** `association` is what GitHub reports for the user on this repository (default COLLABORATOR);
   *  `permission` the user's role (default: write for OWNER, MEMBER, COLLABORATOR, else
   *  read). GitHub gives a COLLABORATOR or MEMBER association to read and triage roles
   *  too; its permission endpoint answers maintain as write and triage as read, with the
   *  role in role_name. `integration`: an App installation's token (GET /user is 403). */
  addUser(token: string, login: string, o?: { association?: string; permission?: Role; integration?: boolean }): void;
  /** Dismisses a review as a maintainer would (its state becomes DISMISSED). */
  dismissReview(id: number): void;
  /** Resolves the review thread a line comment opened, as a person does on GitHub. */
  resolveThread(commentId: number): void;
  /** Every review comment on lines, oldest first. */
  reviewComments(): Json[];
  /** Deletes a comment, as its author or a maintainer can. */
  deleteComment(id: number): void;
  /** Moves a PR to another base branch (PATCH base), as GitHub does: a new updated_at. */
  editBase(number: number, base: string): { updated_at: string };
  /** The fork a PR's head came from was deleted: GitHub reports `head.repo: null`. */
  deleteHeadRepo(number: number): void;
  /** Edits a comment as GitHub would: same author and created_at, a new updated_at. */
  editComment(id: number, body: string): void;
  /** Moves a review's commit_id, as GitHub has been seen doing across base merges (docs/codehost.md). */
  moveReview(id: number, commitId: string): void;
  /** Sets what `pulls.get` reports for a PR's mergeability (default: mergeable, clean). */
  setMergeable(number: number, mergeable: boolean | null, state: string): void;
  /** Marks a PR as a draft or ready. */
  setDraft(number: number, draft: boolean): void;
  /** The next `n` requests are answered with this status, headers and message instead (outages, rate limits). */
  failNext(n: number, status: number, message: string, headers?: Record<string, string>): void;
  /** Which merge methods the repository allows (default all three). */
  allowMerges(o: { merge: boolean; squash: boolean; rebase: boolean }): void;
  addCheckRun(sha: string, run: FakeCheckRun): void;
  maxPerPage: number;
  close(): Promise<void>;
}
