// What issues need of the review pipeline (server/review). Review builds on issues (ids,
// workspaces, the store); this narrow interface keeps issues from importing review back,
// and shows the seam (as lanes/conversationsPort.ts does for lanes). ReviewPipeline
// implements it; daemon/features.ts hands it over.
import type { RequestResult } from '../../shared/protocol/review';
import type { ConversationRow } from '../conversations/conversationStore';
import type { IssueRow } from './issueStore';

export interface ReviewPort {
  /** Refuses when a review could not start (a reviewer with no model or harness), before `svc done` pushes anything. */
  preflight(issue: IssueRow): void;
  /** The pipeline's single entry point: a review of the issue's PR at its head (`dedupe`: not again for a head already requested). */
  request(ref: string, o: { source: 'done'; by?: string; dedupe: boolean }): Promise<RequestResult>;
  /** Whether the conversation is one of the pipeline's reviewers (they never finish an issue). */
  isReviewer(row: ConversationRow): boolean;
}
