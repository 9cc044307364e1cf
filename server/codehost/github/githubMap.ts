// GitHub REST payloads → svc's code host shapes (shared/protocol/pr.ts).
import type {
  Check,
  Comment,
  CommitStatus,
  PullRequest,
  Review,
  ReviewStateName,
  StatusState,
} from '../../../shared/protocol/pr';

export interface GhPull {
  number: number;
  title: string;
  body?: string | null;
  state: string;
  draft?: boolean;
  /** Only `pulls.get` carries these two; `pulls.list` leaves them out. */
  mergeable?: boolean | null;
  mergeable_state?: string;
  merged_at?: string | null;
  merge_commit_sha?: string | null;
  html_url?: string;
  created_at: string;
  user?: { login: string } | null;
  head: { ref: string; sha: string; repo?: { full_name: string } | null };
  base: { ref: string };
}

export function toPr(project: string, p: GhPull): PullRequest {
  const merged = !!p.merged_at;
  return {
    project,
    number: p.number,
    title: p.title,
    body: p.body ?? '',
    branch: p.head.ref,
    base: p.base.ref,
    author: p.user?.login ?? 'ghost',
    state: merged ? 'merged' : p.state === 'open' ? 'open' : 'closed',
    draft: !!p.draft,
    mergeable: p.mergeable ?? null,
    mergeableState: p.mergeable_state ?? null,
    head: p.head.sha,
    url: p.html_url ?? null,
    createdAt: p.created_at,
    mergedAt: p.merged_at ?? null,
    mergeSha: merged ? (p.merge_commit_sha ?? null) : null,
  };
}

interface GhReview {
  id: number;
  user?: { login: string } | null;
  state: string;
  body?: string | null;
  commit_id?: string | null;
  submitted_at?: string | null;
  author_association?: string;
}

/** Associations that come with push access to the repository. */
export const WRITE_ASSOCIATIONS = new Set(['OWNER', 'MEMBER', 'COLLABORATOR']);

/** `writeAccess`: from the association, or else from the permission endpoint (the caller asks). */
export function toReview(r: GhReview, writeAccess = WRITE_ASSOCIATIONS.has(r.author_association ?? '')): Review {
  return {
    id: r.id,
    author: r.user?.login ?? 'ghost',
    state: r.state.toUpperCase() as ReviewStateName,
    body: r.body ?? '',
    commitId: r.commit_id ?? null,
    submittedAt: r.submitted_at ?? null,
    association: r.author_association ?? null,
    writeAccess,
  };
}

export function toComment(c: {
  id: number;
  user?: { login: string } | null;
  body?: string;
  created_at: string;
  updated_at: string;
}): Comment {
  return {
    id: c.id,
    author: c.user?.login ?? 'ghost',
    body: c.body ?? '',
    createdAt: c.created_at,
    updatedAt: c.updated_at,
  };
}

interface GhStatus {
  context: string;
  state: string;
  description?: string | null;
  target_url?: string | null;
  creator?: { login: string } | null;
  created_at: string;
}

export function toStatus(s: GhStatus): CommitStatus {
  return {
    context: s.context,
    state: s.state as StatusState,
    description: s.description ?? null,
    targetUrl: s.target_url ?? null,
    // The combined-status endpoint leaves `creator` out; a deleted account is null. Neither is a user called ghost.
    creator: s.creator?.login ?? null,
    createdAt: s.created_at,
  };
}

/** A check run: its conclusion once completed, else its status (queued, in_progress …). */
export function toCheck(r: { name: string; status: string; conclusion?: string | null }): Check {
  return {
    name: r.name,
    source: 'check_run',
    state: r.status === 'completed' ? (r.conclusion ?? 'neutral') : r.status,
  };
}
