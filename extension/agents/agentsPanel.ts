// The Agents page (a webview panel, one per window): every agent with alive, activity,
// model, harness, cost and issue, nested like the Command Deck; the page filters and
// sorts. Read from conversations/list {all} and lanes/list, re-read on `svc/changed`
// (never polled); a click opens the conversation. The page comes back after a window
// reload (AgentsPanel.restore, VS Code's serializer).
import * as vscode from 'vscode';
import { conversationsList } from '../../shared/protocol/conversations';
import { lanesList } from '../../shared/protocol/lanes';
import type { AgentRowView, AgentsFromView, AgentsToView } from '../../shared/webview/agentsMessages';
import type { DaemonConnection } from '../connection/daemonConnection';
import { LiveQuery } from '../connection/liveQuery';
import { OnePerWindow } from '../webviews/onePerWindow';
import { WebviewHost } from '../webviews/webviewHost';
import { agentRows } from './agentsModel';
import type { ChangeTopic } from '../../shared/protocol/daemon';

export const AGENTS_VIEW_TYPE = 'svc.agents';
const TOPICS = ['conversations', 'lanes'] as const satisfies readonly ChangeTopic[];

export class AgentsPanel extends WebviewHost<AgentsToView, AgentsFromView> {
  private static readonly one = new OnePerWindow<AgentsPanel>();
  private readonly panel: vscode.WebviewPanel;
  private agents: AgentRowView[] | undefined;
  private problem: string | null = null;
  private readonly subscriptions: vscode.Disposable[] = [];

  static show(extensionUri: vscode.Uri, connection: DaemonConnection): AgentsPanel {
    return AgentsPanel.one.show(() => new AgentsPanel(extensionUri, connection));
  }

  /** The page VS Code kept across a window reload (its serializer). */
  static restore(extensionUri: vscode.Uri, connection: DaemonConnection, panel: vscode.WebviewPanel): AgentsPanel {
    return AgentsPanel.one.restore(panel, (p) => new AgentsPanel(extensionUri, connection, p));
  }

  static get open(): AgentsPanel | undefined {
    return AgentsPanel.one.open;
  }

  private constructor(
    extensionUri: vscode.Uri,
    private readonly connection: DaemonConnection,
    restored?: vscode.WebviewPanel,
  ) {
    super(extensionUri, { bundle: 'agentsMain', title: 'svc Agents' });
    this.panel =
      restored ??
      vscode.window.createWebviewPanel(AGENTS_VIEW_TYPE, 'svc Agents', vscode.ViewColumn.Active, {
        retainContextWhenHidden: true,
        enableFindWidget: true,
      });
    this.attach(this.panel.webview);
    this.subscriptions.push(
      this.panel.onDidDispose(() => this.dispose()),
      new LiveQuery(
        connection,
        'the Agents page',
        TOPICS,
        () => this.read(),
        (v) => {
          if (v.kind === 'value') {
            this.agents = v.value;
            this.problem = null;
          } else {
            this.agents = undefined;
            this.problem = `The svc daemon is not connected: ${connection.whyDown()}.`;
          }
          this.send();
        },
      ),
    );
  }

  reveal(): void {
    this.panel.reveal(undefined, false);
  }

  /** For in-host tests: the rows last read. */
  get rows(): readonly AgentRowView[] | undefined {
    return this.agents;
  }

  private async read(): Promise<AgentRowView[]> {
    const [{ conversations }, { lanes }] = await Promise.all([
      this.connection.request(conversationsList, { all: true }),
      this.connection.request(lanesList, {}),
    ]);
    return agentRows(conversations, lanes);
  }

  protected onReady(): void {
    this.send();
  }

  protected async onMessage(msg: AgentsFromView): Promise<void> {
    if (msg.type === 'openConversation')
      await vscode.commands.executeCommand(msg.keep ? 'svc.openConversation' : 'svc.previewConversation', msg.convId);
    else if (msg.type === 'newConversation') await vscode.commands.executeCommand('svc.newConversation');
  }

  private send(): void {
    this.post({ type: 'state', agents: this.agents, problem: this.problem });
  }

  override dispose(): void {
    AgentsPanel.one.closed(this);
    for (const s of this.subscriptions) s.dispose();
    this.subscriptions.length = 0;
    super.dispose();
    this.panel.dispose();
  }
}
