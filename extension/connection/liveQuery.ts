// Keeps one daemon read fresh for a view: reads on connect and on every `svc/changed`
// of its topics (never by polling), coalescing bursts and running one read at a time.
// Background reads never pop up messages; failures go to the log.
import type * as vscode from 'vscode';
import type { ChangeTopic } from '../../shared/protocol/daemon';
import { logger } from '../log';
import { CoalescedRun } from './coalescedRun';
import type { DaemonConnection } from './daemonConnection';
import { DaemonDown } from './daemonErrors';

const log = logger('views');

export type QueryValue<T> = { kind: 'value'; value: T } | { kind: 'down' };

export class LiveQuery<T> implements vscode.Disposable {
  private readonly reads: CoalescedRun;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    connection: DaemonConnection,
    private readonly name: string,
    topics: readonly ChangeTopic[],
    private readonly read: () => Promise<T>,
    private readonly onValue: (v: QueryValue<T>) => void,
    debounceMs = 100,
  ) {
    this.reads = new CoalescedRun(() => this.run(), debounceMs);
    let was = connection.state.kind;
    this.subscriptions = [
      connection.onDidChangeState((s) => {
        // Re-read on (re)connecting only; a fresher daemon/status is not a reason to.
        if (s.kind === 'connected' && was !== 'connected') this.refresh(0);
        else if (s.kind === 'down' || s.kind === 'noNode') this.onValue({ kind: 'down' });
        was = s.kind;
      }),
      connection.onDidChange((c) => topics.includes(c.topic) && this.refresh()),
    ];
    if (connection.state.kind === 'connected') this.refresh(0);
  }

  refresh(delay?: number): void {
    this.reads.request(delay);
  }

  /** Reads now and resolves when that read is done (a write that wants its result shown with the new value). */
  now(): Promise<void> {
    return this.reads.now();
  }

  private async run(): Promise<void> {
    try {
      this.onValue({ kind: 'value', value: await this.read() });
    } catch (e) {
      if (DaemonDown.is(e)) this.onValue({ kind: 'down' });
      else log.error(`reading ${this.name} failed`, e);
    }
  }

  dispose(): void {
    this.reads.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}
