// The Command Deck tree view: a thin wrapper that turns deckModel nodes into TreeItems.
// Fed by conversations/list + lanes/list, re-read on `svc/changed` (never polled).
import * as vscode from 'vscode';
import { conversationsList } from '../../shared/protocol/conversations';
import { lanesList } from '../../shared/protocol/lanes';
import type { LaneRecord } from '../../shared/protocol/lanes';
import type { DaemonConnection } from '../connection/daemonConnection';
import { DaemonRefusal } from '../connection/daemonErrors';
import { LiveQuery } from '../connection/liveQuery';
import type { QueryValue } from '../connection/liveQuery';
import { buildDeck } from './deckModel';
import type { DeckNode, DeckRow } from './deckModel';
import { deckRows } from './deckRows';

export const DECK_TOPICS = ['conversations', 'lanes', 'runs'] as const;

export class DeckProvider implements vscode.TreeDataProvider<DeckNode>, vscode.Disposable {
  private roots: DeckNode[] = [];
  private rows: DeckRow[] = [];
  private readonly parents = new Map<string, DeckNode | undefined>();
  /** Conversation nodes by conversation id (verdict links left out). */
  private readonly byConv = new Map<number, DeckNode>();
  private readonly emitter = new vscode.EventEmitter<DeckNode | undefined>();
  private readonly rowsEmitter = new vscode.EventEmitter<readonly DeckRow[] | undefined>();
  private readonly query: LiveQuery<DeckRow[]>;
  readonly onDidChangeTreeData = this.emitter.event;
  /** The rows behind the deck (undefined while the daemon is down): the status bar counts needs-you from them. */
  readonly onDidChangeRows = this.rowsEmitter.event;

  constructor(connection: DaemonConnection) {
    this.query = new LiveQuery(connection, 'the Command Deck', DECK_TOPICS, () => readRows(connection), (v) => this.accept(v));
  }

  /** The nodes of the current tree (for in-host tests and reveal). */
  get topLevel(): readonly DeckNode[] {
    return this.roots;
  }

  /** The rows behind the deck, archived ones left out (pickers offer these). */
  get currentRows(): readonly DeckRow[] {
    return this.rows;
  }

  row(convId: number): DeckRow | undefined {
    return this.byConv.get(convId)?.row;
  }

  node(convId: number): DeckNode | undefined {
    return this.byConv.get(convId);
  }

  setRows(rows: DeckRow[] | undefined): void {
    this.rows = rows ?? [];
    this.roots = buildDeck(this.rows);
    this.parents.clear();
    this.byConv.clear();
    const index = (nodes: DeckNode[], parent: DeckNode | undefined) => {
      for (const n of nodes) {
        this.parents.set(n.id, parent);
        if (n.kind === 'conv') this.byConv.set(n.convId, n);
        index(n.children, n);
      }
    };
    index(this.roots, undefined);
    this.emitter.fire(undefined);
    this.rowsEmitter.fire(rows);
  }

  getTreeItem(n: DeckNode): vscode.TreeItem {
    return toTreeItem(n);
  }

  getChildren(n?: DeckNode): DeckNode[] {
    return n ? n.children : this.roots;
  }

  getParent(n: DeckNode): DeckNode | undefined {
    return this.parents.get(n.id);
  }

  refresh(): void {
    this.query.refresh(0);
  }

  private accept(v: QueryValue<DeckRow[]>): void {
    this.setRows(v.kind === 'value' ? v.value : undefined);
  }

  dispose(): void {
    this.query.dispose();
    this.emitter.dispose();
    this.rowsEmitter.dispose();
  }
}

export function toTreeItem(n: DeckNode): vscode.TreeItem {
  const item = new vscode.TreeItem(n.label, n.children.length ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
  item.id = n.id;
  item.description = n.description;
  item.contextValue = n.contextValue;
  item.command = { command: 'svc.openConversation', title: n.kind === 'verdict' ? 'Open Critic' : 'Open Conversation', arguments: [n.convId] };
  item.iconPath = new vscode.ThemeIcon(n.icon.id, n.icon.color ? new vscode.ThemeColor(n.icon.color) : undefined);
  const tooltip = new vscode.MarkdownString(undefined, true);
  tooltip.appendText(n.tooltip);
  if (n.verdictLink) {
    tooltip.isTrusted = { enabledCommands: ['svc.openConversation'] };
    tooltip.appendMarkdown(`\n\nNewest critic verdict: [${escapeMd(n.verdictLink.text)}](command:svc.openConversation?${encodeURIComponent(JSON.stringify([n.verdictLink.convId]))})`);
  }
  item.tooltip = tooltip;
  return item;
}

function escapeMd(s: string): string {
  return s.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}

/** Conversations joined with lanes; a daemon without lanes yet gives plain conversations. */
async function readRows(connection: DaemonConnection): Promise<DeckRow[]> {
  const { conversations } = await connection.request(conversationsList, {});
  let lanes: LaneRecord[] = [];
  try {
    lanes = (await connection.request(lanesList, {})).lanes;
  } catch (e) {
    if (!DaemonRefusal.is(e, 'unknownMethod')) throw e;
  }
  return deckRows(conversations, lanes);
}
