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
import { TreeBadges } from '../commandDeck/badges';
import { previewCommand, reportCommand } from '../commandDeck/rowCommands';
import { convoyFacts } from '../commandDeck/convoys';
import type { ConvoyFacts } from '../commandDeck/convoys';
import { MergedTreeProvider, treeItemOf } from '../trees/mergedTreeProvider';
import { reviewNodes } from './reviewsModel';
import type { ReviewNode } from './reviewsModel';
import type { ChangeTopic } from '../../shared/protocol/daemon';

const TOPICS = ['reviews', 'conversations'] as const satisfies readonly ChangeTopic[];
export const REVIEWS_SCHEME = 'svc-reviews';
/** Journal lines read per issue: enough for every earlier run's verdict. */
const JOURNAL_LINES = 500;

export class ReviewsProvider extends MergedTreeProvider<ReviewNode> {
  private states: IssueState[] = [];
  protected readonly query: LiveQuery<IssueState[]>;
  declare readonly badges: TreeBadges;
  private readonly factsEmitter = new vscode.EventEmitter<readonly ConvoyFacts[]>();
  /** Run verdicts and reports per issue, after each read (the Command Deck's convoy rows use them). */
  readonly onDidChangeFacts = this.factsEmitter.event;

  constructor(private readonly connection: DaemonConnection) {
    super(new TreeBadges(REVIEWS_SCHEME));
    this.disposables.push(this.factsEmitter);
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

  private async read(): Promise<IssueState[]> {
    const { issues } = await this.connection.request(issuesList, {});
    return Promise.all(issues.map((i) => this.connection.request(reviewShow, { issue: i.id, lines: JOURNAL_LINES })));
  }

  private set(states: IssueState[]): void {
    this.states = states;
    this.show(reviewNodes(states));
    this.factsEmitter.fire(convoyFacts(states));
  }

  protected commandOf(n: ReviewNode): vscode.Command | undefined {
    return reviewCommand(n);
  }
}

/** A row's click: a reviewer's report when it has one, else its conversation's preview. */
function reviewCommand(n: ReviewNode): vscode.Command | undefined {
  if (n.reportFile) return reportCommand(n.reportFile);
  return n.convId !== undefined ? previewCommand(n.convId) : undefined;
}

export const reviewTreeItem = (n: ReviewNode): vscode.TreeItem => treeItemOf(n, REVIEWS_SCHEME, reviewCommand(n));
