// What every command body is handed: the window's connection, views and panels. Apart from
// commands.ts (which imports every body) so the bodies never import the file that imports them.
import type * as vscode from 'vscode';
import type { DeckNode } from '../commandDeck/deckModel';
import type { DeckProvider } from '../commandDeck/deckProvider';
import type { Drafts } from '../compose/drafts';
import type { DaemonConnection } from '../connection/daemonConnection';
import type { ConversationPanels } from '../conversations/conversationPanel';
import type { InboxProvider } from '../inbox/inboxProvider';
import type { ReviewsProvider } from '../reviews/reviewsProvider';

export interface CommandDeps {
  extensionUri: vscode.Uri;
  connection: DaemonConnection;
  deck: DeckProvider;
  deckView: vscode.TreeView<DeckNode>;
  reviews: ReviewsProvider;
  inbox: InboxProvider;
  panels: ConversationPanels;
  /** Briefs and issue descriptions being written in editors. */
  drafts: Drafts;
}
