// What every part of the review pipeline works with: the daemon, conversations, code
// hosts and issues. Built once by registerReview.
import type { App } from '../app';
import type { CodeHosts } from '../codehost/codeHosts';
import type { ConversationService } from '../conversations/conversationService';
import type { IssueStore } from '../issues/issueStore';

export interface ReviewCtx {
  app: App;
  conv: ConversationService;
  hosts: CodeHosts;
  issues: IssueStore;
}

export const iso = (ms: number): string => new Date(ms).toISOString();
