// The Conversation panel: one webview panel per conversation, showing its transcript
// (messages, tool calls with their output, plans), a lane's newest report, the open
// needs-you request with its options as buttons, and a composer that sends like
// `svc tell`. Reads conversations/show, lanes/get and transcript/read, re-read on
// `svc/changed` for this conversation (transcript rows incrementally, by seq).
import * as vscode from 'vscode';
import { conversationsAnswer, conversationsShow, conversationsStop, conversationsTell } from '../../shared/protocol/conversations';
import type { ConversationInfo } from '../../shared/protocol/conversations';
import { lanesGet } from '../../shared/protocol/lanes';
import type { LaneRecord } from '../../shared/protocol/lanes';
import { transcriptRead } from '../../shared/protocol/transcript';
import type { TranscriptRowInfo } from '../../shared/protocol/transcript';
import type { ConversationFromView, ConversationHeader, ConversationToView } from '../../webview/conversationMessages';
import type { DaemonConnection } from '../connection/daemonConnection';
import { DaemonRefusal } from '../../shared/client/daemonRefusal';
import { DaemonDown } from '../connection/daemonErrors';
import { logger } from '../log';
import { WebviewHost } from '../webviews/webviewHost';
import { foldTranscript } from './transcriptItems';
import { formatCost } from '../../shared/format/money';

const log = logger('conversation');
export const CONVERSATION_VIEW_TYPE = 'svc.conversation';
/** Rows kept per panel; older ones are dropped and the page says so. */
const MAX_ROWS = 10_000;

export class ConversationPanel extends WebviewHost<ConversationToView, ConversationFromView> {
  readonly panel: vscode.WebviewPanel;
  private info: ConversationInfo | null = null;
  private lane: LaneRecord | null = null;
  private rows: TranscriptRowInfo[] = [];
  private lastSeq = 0;
  private earlier = false;
  private problem: string | null = null;
  private readonly subscriptions: vscode.Disposable[] = [];
  private timer?: NodeJS.Timeout;
  private running = false;
  private want = { info: false, transcript: false, reset: false };
  private disposed = false;

  constructor(
    extensionUri: vscode.Uri,
    private readonly connection: DaemonConnection,
    readonly convId: number,
    private readonly onClosed: (p: ConversationPanel) => void,
  ) {
    super(extensionUri, { bundle: 'conversationMain', title: `Conversation #${convId}` });
    this.panel = vscode.window.createWebviewPanel(CONVERSATION_VIEW_TYPE, `#${convId}`, vscode.ViewColumn.Active, { retainContextWhenHidden: true, enableFindWidget: true });
    this.attach(this.panel.webview);
    this.subscriptions.push(
      this.panel.onDidDispose(() => this.dispose()),
      connection.onDidChange((c) => {
        const mine = c.id === undefined || Number(c.id) === convId;
        if (c.topic === 'transcript' && mine) this.schedule({ transcript: true });
        else if ((c.topic === 'conversations' || c.topic === 'lanes') && mine) this.schedule({ info: true });
      }),
      connection.onDidChangeState((s) => {
        if (s.kind === 'connected') this.schedule({ info: true, transcript: true, reset: true });
        else if (s.kind !== 'connecting') {
          this.problem = `The svc daemon is not connected: ${connection.whyDown()}. What is shown may be out of date.`;
          this.send();
        }
      }),
    );
    this.schedule({ info: true, transcript: true });
  }

  reveal(): void {
    this.panel.reveal(undefined, false);
  }

  /** For in-host tests: the items the page was last sent. */
  get itemCount(): number {
    return foldTranscript(this.rows).length;
  }

  protected onReady(): void {
    this.send();
  }

  protected async onMessage(msg: ConversationFromView): Promise<void> {
    const conv = String(this.convId);
    switch (msg.type) {
      case 'tell':
        await this.act('tell', async () => {
          const r = await this.connection.request(conversationsTell, { conv, text: msg.text });
          return r.delivered === 'now' ? 'Sent.' : `Queued: delivered when the current turn ends (${r.ahead} ahead).`;
        });
        break;
      case 'answer': {
        const { type: _t, ...answer } = msg;
        await this.act('answer', async () => {
          const r = await this.connection.request(conversationsAnswer, { conv, ...answer });
          return `Answered: ${r.answered.title}`;
        });
        break;
      }
      case 'stop':
        await this.connection.request(conversationsStop, { conv });
        break;
      case 'openConversation':
        await vscode.commands.executeCommand('svc.openConversation', msg.convId);
        break;
      case 'openLink':
        // Agent-written links open outside the editor, and only web and mail links do.
        if (/^(https?|mailto):/i.test(msg.href)) await vscode.env.openExternal(vscode.Uri.parse(msg.href, true));
        break;
    }
  }

  /** Runs a tell or answer: the page hears the outcome; a refusal also goes through the funnel. */
  private async act(action: 'tell' | 'answer', fn: () => Promise<string>): Promise<void> {
    try {
      this.post({ type: 'result', action, ok: true, message: await fn() });
    } catch (e) {
      this.post({ type: 'result', action, ok: false, message: e instanceof Error ? e.message : String(e) });
      throw e;
    }
  }

  private schedule(w: Partial<typeof this.want>): void {
    this.want = { info: this.want.info || !!w.info, transcript: this.want.transcript || !!w.transcript, reset: this.want.reset || !!w.reset };
    if (this.timer || this.disposed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.read();
    }, 30);
  }

  private async read(): Promise<void> {
    if (this.running) return; // the running read re-checks `want` when it ends
    this.running = true;
    const w = this.want;
    this.want = { info: false, transcript: false, reset: false };
    try {
      if (w.reset) {
        this.rows = [];
        this.lastSeq = 0;
        this.earlier = false;
      }
      if (w.info) await this.readInfo();
      if (w.transcript) await this.readTranscript();
      this.problem = null;
    } catch (e) {
      if (DaemonDown.is(e)) this.problem = `The svc daemon is not connected: ${e.why}. What is shown may be out of date.`;
      else if (DaemonRefusal.is(e)) this.problem = e.message;
      else {
        log.error(`reading conversation #${this.convId} failed`, e);
        this.problem = `Reading the conversation failed: ${e instanceof Error ? e.message : String(e)}`;
      }
    } finally {
      this.running = false;
    }
    if (!this.disposed) this.send();
    if (this.want.info || this.want.transcript) this.schedule({});
  }

  private async readInfo(): Promise<void> {
    this.info = await this.connection.request(conversationsShow, { conv: String(this.convId) });
    this.lane = this.info.kind === 'lane' ? await this.connection.request(lanesGet, { lane: String(this.convId) }) : null;
    this.panel.title = `#${this.info.id} ${this.info.title || this.info.name}`;
  }

  private async readTranscript(): Promise<void> {
    const conv = String(this.convId);
    if (this.rows.length === 0 && this.lastSeq === 0) {
      const r = await this.connection.request(transcriptRead, { conv });
      this.rows = r.rows;
      this.earlier = r.truncated;
      this.lastSeq = r.rows.length ? r.rows[r.rows.length - 1].seq : 0;
      return;
    }
    for (let more = true; more; ) {
      const r = await this.connection.request(transcriptRead, { conv, afterSeq: this.lastSeq });
      if (r.rows.length) {
        this.rows.push(...r.rows);
        this.lastSeq = r.rows[r.rows.length - 1].seq;
      }
      more = r.truncated && r.rows.length > 0;
    }
    if (this.rows.length > MAX_ROWS) {
      this.rows = this.rows.slice(-MAX_ROWS);
      this.earlier = true;
    }
  }

  private send(): void {
    const i = this.info;
    this.post({
      type: 'state',
      conv: i ? header(i, this.lane) : null,
      ask: i?.ask && i.activity === 'needs-you' ? { kind: i.ask.kind, title: i.ask.title, options: i.ask.options, fields: i.ask.fields } : null,
      report: this.lane?.report ? { seq: this.lane.report.seq, status: this.lane.report.status, verdict: this.lane.report.verdict, at: this.lane.report.at, body: this.lane.report.body } : null,
      items: foldTranscript(this.rows),
      earlier: this.earlier,
      problem: this.problem,
    });
  }

  override dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    for (const s of this.subscriptions) s.dispose();
    super.dispose();
    this.panel.dispose();
    this.onClosed(this);
  }
}

function header(i: ConversationInfo, lane: LaneRecord | null): ConversationHeader {
  return {
    id: i.id,
    name: i.name,
    title: i.title,
    kind: i.kind,
    activity: i.activity,
    alive: i.alive,
    harness: i.harness,
    model: i.model,
    cost: i.cost ? formatCost(i.cost.amount, i.cost.currency) : null,
    lane: lane ? `${lane.role} i${lane.iteration} · run ${lane.run} · key ${lane.key}${lane.verdict ? ` · verdict ${lane.verdict.verdict}` : ''}` : null,
    parentId: i.parentId,
    issueId: i.issueId,
    archived: i.archived,
  };
}

/** One panel per conversation: opening it again reveals the one already open. */
export class ConversationPanels implements vscode.Disposable {
  private readonly open = new Map<number, ConversationPanel>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly connection: DaemonConnection,
  ) {}

  show(convId: number): ConversationPanel {
    const existing = this.open.get(convId);
    if (existing) {
      existing.reveal();
      return existing;
    }
    const p = new ConversationPanel(this.extensionUri, this.connection, convId, (closed) => {
      if (this.open.get(convId) === closed) this.open.delete(convId);
    });
    this.open.set(convId, p);
    return p;
  }

  get(convId: number): ConversationPanel | undefined {
    return this.open.get(convId);
  }

  get openIds(): number[] {
    return [...this.open.keys()];
  }

  dispose(): void {
    for (const p of [...this.open.values()]) p.dispose();
    this.open.clear();
  }
}
