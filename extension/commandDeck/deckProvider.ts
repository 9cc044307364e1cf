// The Command Deck tree view: deckModel's nodes shown by the trees' base (mergedTreeProvider.ts).
// Fed by conversations/list + lanes/list, re-read on `svc/changed` (never polled).
import * as vscode from 'vscode';
import { conversationsList } from '../../shared/protocol/conversations';
import { lanesList } from '../../shared/protocol/lanes';
import { lanesLandings } from '../../shared/protocol/land';
import type { DaemonConnection } from '../connection/daemonConnection';
import { LiveQuery } from '../connection/liveQuery';
import type { ConvoyFacts } from './convoys';
import { TreeBadges } from './badges';
import { buildDeck } from './deckModel';
import type { DeckNode, DeckOptions, DeckRow } from './deckModel';
import { deckRows } from './deckRows';
import { previewCommand, reportCommand } from './rowCommands';
import { MergedTreeProvider, treeItemOf } from '../trees/mergedTreeProvider';
import type { ChangeTopic } from '../../shared/protocol/daemon';

export const DECK_TOPICS = ['conversations', 'lanes', 'runs'] as const satisfies readonly ChangeTopic[];

export class DeckProvider extends MergedTreeProvider<DeckNode> {
  private rows: DeckRow[] = [];
  /** Conversation nodes by conversation id (verdict links left out). */
  private readonly byConv = new Map<number, DeckNode>();
  private readonly rowsEmitter = new vscode.EventEmitter<readonly DeckRow[] | undefined>();
  protected readonly query: LiveQuery<DeckRow[]>;
  /** Verdict badges of the current nodes, by their resource URI (the decoration provider reads them). */
  declare readonly badges: TreeBadges;
  /** The rows behind the deck (undefined while the daemon is down): the status bar counts needs-you from them. */
  readonly onDidChangeRows = this.rowsEmitter.event;

  constructor(connection: DaemonConnection) {
    super(new TreeBadges(DECK_SCHEME));
    this.disposables.push(this.rowsEmitter);
    this.query = new LiveQuery(
      connection,
      'the Command Deck',
      DECK_TOPICS,
      () => readRows(connection),
      (v) => this.setRows(v.kind === 'value' ? v.value : undefined),
    );
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
    this.show(buildDeck(withStalls(this.rows, this.stalls), { ...this.filter, convoys: true, reviews: this.reviews }));
  }

  protected override beforeIndex(): void {
    this.byConv.clear();
  }

  protected override indexed(n: DeckNode): void {
    if (n.kind === 'conv' && n.row?.id === n.convId) this.byConv.set(n.convId, n);
  }

  protected commandOf(n: DeckNode): vscode.Command | undefined {
    return deckCommand(n);
  }
}

/** A row's click: its report when it has one, else its conversation's preview. */
function deckCommand(n: DeckNode): vscode.Command | undefined {
  if (n.kind === 'history') return undefined;
  return n.reportFile ? reportCommand(n.reportFile) : previewCommand(n.convId);
}

function withStalls(rows: DeckRow[], stalls: ReadonlyMap<number, string>): DeckRow[] {
  if (!stalls.size) return rows;
  return rows.map((r) => (stalls.has(r.id) ? { ...r, stalled: stalls.get(r.id) } : r));
}

/** The scheme of the deck's resource URIs: a node's verdict badge is a FileDecoration of its URI. */
export const DECK_SCHEME = 'svc-deck';

export const toTreeItem = (n: DeckNode): vscode.TreeItem => treeItemOf(n, DECK_SCHEME, deckCommand(n));

/** Conversations (archived ones too: "Show Archived" lists them) joined with lanes. */
async function readRows(connection: DaemonConnection): Promise<DeckRow[]> {
  const { conversations } = await connection.request(conversationsList, { all: true });
  const { lanes } = await connection.request(lanesList, {});
  const { landings } = await connection.request(lanesLandings, {});
  return deckRows(conversations, lanes, landings);
}
