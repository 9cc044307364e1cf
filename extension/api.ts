// What activate() returns: a small read-only surface for the in-host tests (test/e2e/inHost),
// so they can check the views' models without scraping the DOM. Not a public API.
import type { AgentRowView } from '../shared/webview/agentsMessages';
import type { VerdictBadge } from './commandDeck/deckIcons';
import type { DeckNode } from './commandDeck/deckModel';
import type { ConnectionState } from './connection/daemonConnection';
import type { InboxNode } from './inbox/inboxModel';
import type { ReviewNode } from './reviews/reviewsModel';

export interface SvcTestApi {
  connectionState(): ConnectionState;
  deckTopLevel(): readonly DeckNode[];
  reviewsTopLevel(): readonly ReviewNode[];
  /** The Inbox's count badge on the activity bar (every item waiting on the person), if shown. */
  inboxViewBadge(): { value: number; tooltip: string } | undefined;
  inboxTopLevel(): readonly InboxNode[];
  /** The verdict badge decorating a tree node (by node id), if any. */
  deckBadge(nodeId: string): VerdictBadge | undefined;
  reviewsBadge(nodeId: string): VerdictBadge | undefined;
  /** Conversation ids with an open Conversation panel. */
  openPanels(): number[];
  /** Each open Conversation panel: its conversation and whether it is the preview. */
  panelStates(): { convId: number; preview: boolean }[];
  /** The Agents page's rows (undefined while it is closed or unread). */
  agentRows(): readonly AgentRowView[] | undefined;
  /** Resolves once the connection leaves `connecting` (or after timeoutMs). */
  whenSettled(timeoutMs: number): Promise<ConnectionState>;
}
