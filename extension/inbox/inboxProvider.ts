// The Inbox tree view: every item waiting on the person (inbox/list, what `svc inbox`
// prints), as inboxModel.ts makes its rows. Read on connect and on `svc/changed` of the
// topics its items come from, and kept waiting on the daemon with the list's cursor (the
// way `svc inbox --wait` does) for what no change announces: a stall falls due by time
// alone. While a stall is shown, an agent's output re-reads it too (at most once a
// second), since output is what clears a stall. Never polled.
import * as vscode from 'vscode';
import { inboxList } from '../../shared/protocol/inbox';
import type { InboxItem, InboxListResult } from '../../shared/protocol/inbox';
import type { ChangeTopic } from '../../shared/protocol/daemon';
import type { DaemonConnection } from '../connection/daemonConnection';
import { LiveQuery } from '../connection/liveQuery';
import { MergedTreeProvider } from '../trees/mergedTreeProvider';
import { previewCommand } from '../commandDeck/rowCommands';
import { logger } from '../log';
import { inboxNodes } from './inboxModel';
import type { InboxNode } from './inboxModel';

const log = logger('views');
const TOPICS = ['conversations', 'lanes', 'runs', 'reviews'] as const satisfies readonly ChangeTopic[];
/** How long one wait on the daemon lasts before it is asked again (its own default). */
const WAIT_S = 300;
/** Output while a stall is shown re-reads the inbox at most this often. */
const OUTPUT_REREAD_MS = 1000;

export class InboxProvider extends MergedTreeProvider<InboxNode> {
  private current: InboxItem[] | undefined;
  private cursor: string | undefined;
  /** Bumped on every (re)connect and at dispose: a wait of an older generation stops. */
  private waitGeneration = 0;
  private readonly itemsEmitter = new vscode.EventEmitter<readonly InboxItem[] | undefined>();
  protected readonly query: LiveQuery<InboxListResult>;
  /** The items after each read (undefined while the daemon is down): badge, status bar, notifications, deck stalls. */
  readonly onDidChangeItems = this.itemsEmitter.event;

  constructor(private readonly connection: DaemonConnection) {
    super();
    this.query = new LiveQuery(
      connection,
      'the Inbox',
      TOPICS,
      () => connection.request(inboxList, {}),
      (v) => this.accept(v.kind === 'value' ? v.value : undefined),
      250,
    );
    let was = connection.state.kind;
    this.disposables.push(
      this.itemsEmitter,
      connection.onDidChange(
        (c) =>
          c.topic === 'transcript' &&
          this.topLevel.some((n) => n.kind === 'stalled') &&
          this.query.refresh(OUTPUT_REREAD_MS),
      ),
      connection.onDidChangeState((s) => {
        // A fresher daemon/status is also `connected`: only a new connection starts a wait.
        if (s.kind === 'connected' && was !== 'connected') void this.waitForNew(++this.waitGeneration);
        else if (s.kind !== 'connected') this.waitGeneration++;
        was = s.kind;
      }),
    );
    if (connection.state.kind === 'connected') void this.waitForNew(++this.waitGeneration);
  }

  /** Every item waiting now (undefined while the daemon is down). */
  get items(): readonly InboxItem[] | undefined {
    return this.current;
  }

  /** Waits on the daemon for an item newer than the last read, shows what it answers, and waits again. */
  private async waitForNew(generation: number): Promise<void> {
    while (generation === this.waitGeneration) {
      try {
        const after = this.cursor ?? (await this.connection.request(inboxList, {})).cursor;
        const r = await this.connection.request(inboxList, { after, timeoutS: WAIT_S });
        if (generation !== this.waitGeneration) return;
        this.accept(r);
      } catch (e) {
        // Down: the next connect starts another wait.
        if (generation === this.waitGeneration) log.warn(`waiting for new inbox items stopped: ${String(e)}`);
        return;
      }
    }
  }

  private accept(r: InboxListResult | undefined): void {
    this.current = r?.items;
    if (r) this.cursor = r.cursor;
    this.show(r ? inboxNodes(r.items, r.now) : []);
    this.itemsEmitter.fire(this.current);
  }

  protected commandOf(n: InboxNode): vscode.Command | undefined {
    return n.convId !== undefined ? previewCommand(n.convId) : undefined;
  }

  override dispose(): void {
    this.waitGeneration++;
    super.dispose();
  }
}
