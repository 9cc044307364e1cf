// Which review a conversation sits in, read from its row: the review dispatcher starts each
// reviewer with SVC_REVIEW_RUN and SVC_REVIEW_LANE in its environment (server/review/
// dispatch.ts) and the row keeps that environment. The one reader of those two keys, so
// the review pipeline (server/review/reviewers.ts) and every client (ConversationInfo's
// `review`) recognise a reviewer the same way, never by its name or title.
import { ReviewerRole } from '../../shared/protocol/review';
import type { ReviewSeat } from '../../shared/protocol/conversations';
import type { ConversationRow } from './conversationStore';

export function reviewSeatOf(row: Pick<ConversationRow, 'issueId' | 'extraEnv'>): ReviewSeat | null {
  const runId = row.extraEnv?.SVC_REVIEW_RUN;
  const role = ReviewerRole.safeParse(row.extraEnv?.SVC_REVIEW_LANE);
  return row.issueId && runId && role.success ? { runId, role: role.data } : null;
}
