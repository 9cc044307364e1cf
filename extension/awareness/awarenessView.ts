// The Awareness rail (webview view): one card per gauntlet run from lanes/runs, re-read
// on `svc/changed` (never polled), and a line saying how the daemon connection is.
import * as vscode from 'vscode';
import { lanesList, lanesRuns } from '../../shared/protocol/lanes';
import type {
  AwarenessCard,
  AwarenessFromView,
  AwarenessToView,
  DaemonLine,
} from '../../shared/webview/awarenessMessages';
import type { ConnectionState, DaemonConnection } from '../connection/daemonConnection';
import { LiveQuery } from '../connection/liveQuery';
import { plural } from '../connection/statusText';
import { WebviewViewHost } from '../webviews/webviewHost';
import { landingQueueLines } from './landingQueue';
import { runLaneTree } from './runLanes';
import type { ChangeTopic } from '../../shared/protocol/daemon';

export const AWARENESS_TOPICS = ['lanes', 'runs', 'conversations'] as const satisfies readonly ChangeTopic[];

export class AwarenessView extends WebviewViewHost<AwarenessToView, AwarenessFromView> {
  private cards: AwarenessCard[] | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    extensionUri: vscode.Uri,
    private readonly connection: DaemonConnection,
  ) {
    super(extensionUri, { bundle: 'awarenessMain', title: 'Awareness' });
    this.subscriptions.push(
      connection.onDidChangeState(() => this.send()),
      new LiveQuery(
        connection,
        'the Awareness rail',
        AWARENESS_TOPICS,
        async () =>
          (await connection.request(lanesRuns, {})).cards.map((c) => ({
            ...c,
            queue: landingQueueLines(c.landings),
          })),
        (v) => {
          this.cards = v.kind === 'value' ? v.value : undefined;
          this.send();
        },
      ),
    );
  }

  protected onReady(): void {
    this.send();
  }

  protected async onMessage(msg: AwarenessFromView): Promise<void> {
    if (msg.type === 'openConversation')
      await vscode.commands.executeCommand(msg.keep ? 'svc.openConversation' : 'svc.previewConversation', msg.convId);
    else if (msg.type === 'expand') await this.expand(msg.project, msg.run);
  }

  /** Reads the run's lanes once for an expanded card (docs/spec.md: no polling). */
  private async expand(project: string, run: string): Promise<void> {
    try {
      const { lanes } = await this.connection.request(lanesList, { run });
      this.post({
        type: 'lanes',
        project,
        run,
        lanes: runLaneTree(lanes.filter((l) => l.project === project)),
        problem: null,
      });
    } catch (e) {
      this.post({ type: 'lanes', project, run, lanes: null, problem: e instanceof Error ? e.message : String(e) });
    }
  }

  private send(): void {
    this.post({ type: 'state', daemon: daemonLine(this.connection.state), cards: this.cards });
  }

  override dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    super.dispose();
  }
}

export function daemonLine(s: ConnectionState): DaemonLine {
  switch (s.kind) {
    case 'connected':
      // No pid: the status bar's tooltip and "Show Daemon Status" have it for whoever needs it.
      return {
        state: 'connected',
        text: `daemon ${s.info.version} · ${s.info.live} live of ${plural(s.info.conversations, 'conversation')}`,
      };
    case 'connecting':
      return { state: 'connecting', text: 'connecting to the daemon…' };
    case 'down':
      return { state: 'down', text: `daemon not connected: ${s.why}` };
    case 'noNode':
      return { state: 'noNode', text: `cannot start the daemon: ${s.problem}. Fix: ${s.fix}` };
  }
}
