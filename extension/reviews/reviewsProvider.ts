// The Reviews tree view: issues with PR number, review state, merge readiness and the
// convoy's reviewers (reviewsModel.ts), read with issues/list + review/show and re-read on
// `svc/changed` of topics reviews and conversations (never polled). Request, abort and
// restart act on an issue row (commands/reviewCommands.ts).
import * as vscode from 'vscode';
import { issuesList } from '../../shared/protocol/issues';
import { reviewShow } from '../../shared/protocol/review';
import type { IssueState } from '../../shared/protocol/review';
import type { DaemonConnection } from '../connection/daemonConnection';
import { LiveQuery } from '../connection/liveQuery';
import { badgeUri, TreeBadges } from '../commandDeck/badges';
import { previewCommand, reportCommand } from '../commandDeck/rowCommands';
import { convoyFacts } from '../commandDeck/convoys';
import { mergeTree } from '../commandDeck/treeMerge';
import type { ConvoyFacts } from '../commandDeck/convoys';
import { reviewNodes } from './reviewsModel';
import type { ReviewNode } from './reviewsModel';
import type { ChangeTopic } from '../../shared/protocol/daemon';

const TOPICS = ['reviews', 'conversations'] as const satisfies readonly ChangeTopic[];
export const REVIEWS_SCHEME = 'svc-reviews';
/** Journal lines read per issue: enough for every earlier run's verdict. */
const JOURNAL_LINES = 500;

export class ReviewsProvider implements vscode.TreeDataProvider<ReviewNode>, vscode.Disposable {
  private roots: ReviewNode[] = [];
  private states: IssueState[] = [];
  private readonly parents = new Map<string, ReviewNode | undefined>();
  private readonly emitter = new vscode.EventEmitter<ReviewNode | ReviewNode[] | undefined>();
  private readonly query: LiveQuery<IssueState[]>;
  readonly onDidChangeTreeData = this.emitter.event;
  readonly badges = new TreeBadges(REVIEWS_SCHEME);
  private readonly factsEmitter = new vscode.EventEmitter<readonly ConvoyFacts[]>();
  /** Run verdicts and reports per issue, after each read (the Command Deck's convoy rows use them). */
  readonly onDidChangeFacts = this.factsEmitter.event;

  constructor(private readonly connection: DaemonConnection) {
    this.query = new LiveQuery(
      connection,
      'the Reviews view',
      TOPICS,
      () => this.read(),
      (v) => this.set(v.kind === 'value' ? v.value : []),
      250,
    );
  }

  /** For commands (pick an issue) and in-host tests. */
  get issues(): readonly IssueState[] {
    return this.states;
  }

  get topLevel(): readonly ReviewNode[] {
    return this.roots;
  }

  private async read(): Promise<IssueState[]> {
    const { issues } = await this.connection.request(issuesList, {});
    return Promise.all(issues.map((i) => this.connection.request(reviewShow, { issue: i.id, lines: JOURNAL_LINES })));
  }

  private set(states: IssueState[]): void {
    this.states = states;
    const merged = mergeTree(this.roots, reviewNodes(states));
    this.roots = merged.roots;
    this.parents.clear();
    const index = (nodes: ReviewNode[], parent: ReviewNode | undefined) => {
      for (const n of nodes) {
        this.parents.set(n.id, parent);
        index(n.children, n);
      }
    };
    index(this.roots, undefined);
    this.badges.set(this.roots);
    this.factsEmitter.fire(convoyFacts(states));
    // As the Command Deck: an unchanged tree is not re-rendered (a refresh under the pointer
    // can swallow a click), a changed one refreshes only the rows that changed (treeMerge.ts),
    // and keeps what the person expanded by the stable ids.
    if (merged.refresh === 'all') this.emitter.fire(undefined);
    else if (merged.refresh.length) this.emitter.fire(merged.refresh);
  }

  refresh(): void {
    this.query.refresh(0);
  }

  getTreeItem(n: ReviewNode): vscode.TreeItem {
    return reviewTreeItem(n);
  }

  getChildren(n?: ReviewNode): ReviewNode[] {
    return n ? n.children : this.roots;
  }

  getParent(n: ReviewNode): ReviewNode | undefined {
    return this.parents.get(n.id);
  }

  dispose(): void {
    this.query.dispose();
    this.emitter.dispose();
    this.factsEmitter.dispose();
    this.badges.dispose();
  }
}

export function reviewTreeItem(n: ReviewNode): vscode.TreeItem {
  const state = !n.children.length
    ? vscode.TreeItemCollapsibleState.None
    : n.collapsed
      ? vscode.TreeItemCollapsibleState.Collapsed
      : vscode.TreeItemCollapsibleState.Expanded;
  const item = new vscode.TreeItem(n.label, state);
  item.id = n.id;
  item.description = n.description;
  item.tooltip = new vscode.MarkdownString(n.tooltip, true);
  item.contextValue = n.contextValue;
  item.iconPath = new vscode.ThemeIcon(n.icon.id, n.icon.color ? new vscode.ThemeColor(n.icon.color) : undefined);
  // The URI carries the verdict badge (badges.ts); it names no file.
  item.resourceUri = badgeUri(REVIEWS_SCHEME, n.id);
  if (n.reportFile) item.command = reportCommand(n.reportFile);
  else if (n.convId !== undefined) item.command = previewCommand(n.convId);
  return item;
}
