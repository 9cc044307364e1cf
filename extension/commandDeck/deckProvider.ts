// The Command Deck tree view: a thin wrapper that turns deckModel nodes into TreeItems.
// Fed by conversations/list + lanes/list, re-read on `svc/changed` (never polled).
import * as vscode from 'vscode';
import { conversationsList } from '../../shared/protocol/conversations';
import { lanesList } from '../../shared/protocol/lanes';
import type { DaemonConnection } from '../connection/daemonConnection';
import { LiveQuery } from '../connection/liveQuery';
import type { QueryValue } from '../connection/liveQuery';
import type { ConvoyFacts } from './convoys';
import { badgeUri, TreeBadges } from './badges';
import { buildDeck } from './deckModel';
import type { DeckNode, DeckOptions, DeckRow } from './deckModel';
import { deckRows } from './deckRows';
import { previewCommand, reportCommand } from './rowCommands';
import { mergeTree } from './treeMerge';
import type { ChangeTopic } from '../../shared/protocol/daemon';

export const DECK_TOPICS = ['conversations', 'lanes', 'runs'] as const satisfies readonly ChangeTopic[];

export class DeckProvider implements vscode.TreeDataProvider<DeckNode>, vscode.Disposable {
  private roots: DeckNode[] = [];
  private rows: DeckRow[] = [];
  private readonly parents = new Map<string, DeckNode | undefined>();
  /** Conversation nodes by conversation id (verdict links left out). */
  private readonly byConv = new Map<number, DeckNode>();
  private readonly emitter = new vscode.EventEmitter<DeckNode | DeckNode[] | undefined>();
  private readonly rowsEmitter = new vscode.EventEmitter<readonly DeckRow[] | undefined>();
  private readonly query: LiveQuery<DeckRow[]>;
  readonly onDidChangeTreeData = this.emitter.event;
  /** The rows behind the deck (undefined while the daemon is down): the status bar counts needs-you from them. */
  readonly onDidChangeRows = this.rowsEmitter.event;

  constructor(connection: DaemonConnection) {
    this.query = new LiveQuery(
      connection,
      'the Command Deck',
      DECK_TOPICS,
      () => readRows(connection),
      (v) => this.accept(v),
    );
  }

  /** The nodes of the current tree (for in-host tests and reveal). */
  get topLevel(): readonly DeckNode[] {
    return this.roots;
  }

  /** The rows behind the deck, archived ones left out (pickers offer these). */
  get currentRows(): readonly DeckRow[] {
    return this.rows.filter((r) => !r.archived);
  }

  /** Every row the daemon listed, archived ones included (Unarchive offers these). */
  get allRows(): readonly DeckRow[] {
    return this.rows;
  }

  row(convId: number): DeckRow | undefined {
    return this.byConv.get(convId)?.row ?? this.rows.find((r) => r.id === convId);
  }

  node(convId: number): DeckNode | undefined {
    return this.byConv.get(convId);
  }

  private filter: Pick<DeckOptions, 'keepArchived' | 'liveOnly'> = {};
  private reviews: readonly ConvoyFacts[] = [];
  /** Verdict badges of the current nodes, by their resource URI (the decoration provider reads them). */
  readonly badges = new TreeBadges(DECK_SCHEME);

  /** The title bar's toggles: archived rows shown, live rows only. */
  get options(): Readonly<Pick<DeckOptions, 'keepArchived' | 'liveOnly'>> {
    return this.filter;
  }

  setOptions(o: Pick<DeckOptions, 'keepArchived' | 'liveOnly'>): void {
    this.filter = { ...this.filter, ...o };
    this.rebuild();
  }

  /** Review verdicts and reports (from the Reviews view's reads), for the convoy rows. */
  setReviews(reviews: readonly ConvoyFacts[]): void {
    // The Reviews view re-reads on every conversation change; rebuild only when the facts differ.
    const key = JSON.stringify(reviews);
    if (key === this.reviewsKey) return;
    this.reviewsKey = key;
    this.reviews = reviews;
    this.rebuild();
  }

  private reviewsKey = '[]';
  private stalls: ReadonlyMap<number, string> = new Map();

  /** Stalled lanes (the Inbox's stalled items: lane id → what the stall says), marked on their rows. */
  setStalls(stalls: ReadonlyMap<number, string>): void {
    const key = (m: ReadonlyMap<number, string>) => JSON.stringify([...m]);
    if (key(stalls) === key(this.stalls)) return;
    this.stalls = stalls;
    this.rebuild();
  }

  setRows(rows: DeckRow[] | undefined): void {
    this.rows = rows ?? [];
    this.rebuild();
    this.rowsEmitter.fire(rows);
  }

  private rebuild(): void {
    // The nodes that kept their place keep their objects, so a refresh names only what changed
    // (treeMerge.ts: a whole-tree refresh drops the rows' handles a context menu resolves).
    const merged = mergeTree(
      this.roots,
      buildDeck(withStalls(this.rows, this.stalls), { ...this.filter, convoys: true, reviews: this.reviews }),
    );
    this.roots = merged.roots;
    this.parents.clear();
    this.byConv.clear();
    const index = (nodes: DeckNode[], parent: DeckNode | undefined) => {
      for (const n of nodes) {
        this.parents.set(n.id, parent);
        if (n.kind === 'conv' && n.row?.id === n.convId) this.byConv.set(n.convId, n);
        index(n.children, n);
      }
    };
    index(this.roots, undefined);
    this.badges.set(this.roots);
    // An unchanged tree is not re-rendered: a refresh under the pointer can swallow a click.
    if (merged.refresh === 'all') this.emitter.fire(undefined);
    else if (merged.refresh.length) this.emitter.fire(merged.refresh);
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
    this.badges.dispose();
  }
}

function withStalls(rows: DeckRow[], stalls: ReadonlyMap<number, string>): DeckRow[] {
  if (!stalls.size) return rows;
  return rows.map((r) => (stalls.has(r.id) ? { ...r, stalled: stalls.get(r.id) } : r));
}

/** The scheme of the deck's resource URIs: a node's verdict badge is a FileDecoration of its URI. */
export const DECK_SCHEME = 'svc-deck';

export function toTreeItem(n: DeckNode): vscode.TreeItem {
  const state = !n.children.length
    ? vscode.TreeItemCollapsibleState.None
    : n.collapsed
      ? vscode.TreeItemCollapsibleState.Collapsed
      : vscode.TreeItemCollapsibleState.Expanded;
  const item = new vscode.TreeItem(n.label, state);
  item.id = n.id;
  item.description = n.description;
  item.contextValue = n.contextValue;
  // The URI carries the verdict badge (badges.ts); it names no file, the label stays ours.
  item.resourceUri = badgeUri(DECK_SCHEME, n.id);
  if (n.kind !== 'history') item.command = n.reportFile ? reportCommand(n.reportFile) : previewCommand(n.convId);
  item.iconPath = new vscode.ThemeIcon(n.icon.id, n.icon.color ? new vscode.ThemeColor(n.icon.color) : undefined);
  item.tooltip = new vscode.MarkdownString(n.tooltip, true);
  if (n.ariaLabel) item.accessibilityInformation = { label: n.ariaLabel };
  return item;
}

/** Conversations (archived ones too: "Show Archived" lists them) joined with lanes. */
async function readRows(connection: DaemonConnection): Promise<DeckRow[]> {
  const { conversations } = await connection.request(conversationsList, { all: true });
  const { lanes } = await connection.request(lanesList, {});
  return deckRows(conversations, lanes);
}
