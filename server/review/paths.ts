// Where review files live (docs/spec.md: Review convoy agents and files) and the names of the
// convoy's agents. Reports live in the issue's workspace; reviewers work in a detached
// worktree beside it and write there through absolute paths (SVC_REVIEW_REPORT).
import * as path from 'node:path';
import type { ReviewLane } from '../../shared/config';
import type { ReviewerRole } from '../../shared/protocol/review';
import { lower } from '../issues/issueIds';

export const LANES: readonly ReviewLane[] = ['security', 'correctness', 'performance', 'requirements'];

export function runDir(workspace: string, runId: string): string {
  return path.join(workspace, '.svc', 'review', runId);
}

/** The file a reviewer writes: `<lane>.md`, the parent's `synthesis.md`, the quick agent's `review.md`. */
export function reportPath(workspace: string, runId: string, role: ReviewerRole): string {
  if (role === 'quick') return path.join(workspace, 'review.md');
  if (role === 'parent') return path.join(runDir(workspace, runId), 'synthesis.md');
  return path.join(runDir(workspace, runId), `${role}.md`);
}

/** `agent-<issue>-review` (parent, quick agent) or `agent-<issue>-review-<lane>`. */
export function reviewerName(issue: string, role: ReviewerRole): string {
  return role === 'parent' || role === 'quick'
    ? `agent-${lower(issue)}-review`
    : `agent-${lower(issue)}-review-${role}`;
}

/** The review worktree of a run: detached at the PR head, beside the workspace. */
export function reviewWorktree(lanesRoot: string, issue: string, runId: string): string {
  return path.join(lanesRoot, `issue-${lower(issue)}-review-${runId}`);
}

export function checksWorktree(lanesRoot: string, issue: string, runId: string): string {
  return path.join(lanesRoot, `issue-${lower(issue)}-checks-${runId}`);
}
