// The Conversation panel: one webview panel per conversation, showing its transcript
// (messages, tool calls with their output, plans), a lane's newest report, the open
// needs-you request with its options as buttons, and a composer that sends like
// `svc tell`. Reads conversations/show, lanes/get and transcript/read, re-read on
// `svc/changed` for this conversation (transcript rows incrementally, by seq).
//
// Like the Explorer's editors, a conversation opened from a row is a preview: the next
// row click shows its conversation in the same tab, until the person keeps it (a
// double-click, an explicit Open, Keep Open, or acting in it). A refusal the person can
// remedy comes back as a button (Send anyway, Resume), not as a command to type.
// Panels come back after a window reload (ConversationPanels.restore, from the page's state).
import * as vscode from 'vscode';
import {
  conversationsAnswer,
  conversationsResume,
  conversationsShow,
  conversationsStop,
  conversationsTell,
} from '../../shared/protocol/conversations';
import type { ConversationInfo } from '../../shared/protocol/conversations';
import { lanesGet } from '../../shared/protocol/lanes';
import type { LaneRecord } from '../../shared/protocol/lanes';
import { reviewShow } from '../../shared/protocol/review';
import { transcriptRead } from '../../shared/protocol/transcript';
import type { TranscriptRowInfo } from '../../shared/protocol/transcript';
import type {
  ConversationFromView,
  ConversationHeader,
  ConversationToView,
} from '../../shared/webview/conversationMessages';
import type { DaemonConnection } from '../connection/daemonConnection';
import { DaemonRefusal } from '../../shared/client/daemonRefusal';
import { DaemonDown } from '../connection/daemonErrors';
import { withoutCliHint } from '../errors/cliHints';
import { CoalescedRun } from '../connection/coalescedRun';
import { logger } from '../log';
import { WebviewHost } from '../webviews/webviewHost';
import { foldTranscript } from './transcriptItems';
import { formatCost } from '../../shared/format/money';
import { isLive } from '../../shared/activity';

const log = logger('conversation');
export const CONVERSATION_VIEW_TYPE = 'svc.conversation';
/** Rows kept per panel; older ones are dropped and the page says so. */
const MAX_ROWS = 10_000;

/** What the next read brings up to date; `reset` reads the transcript from its start. */
interface Wanted {
  info: boolean;
  transcript: boolean;
  reset: boolean;
}
const NOTHING: Wanted = { info: false, transcript: false, reset: false };

export class ConversationPanel extends WebviewHost<ConversationToView, ConversationFromView> {
  readonly panel: vscode.WebviewPanel;
  private info: ConversationInfo | null = null;
  private lane: LaneRecord | null = null;
  private reportFile: string | null = null;
  private rows: TranscriptRowInfo[] = [];
  private lastSeq = 0;
  private earlier = false;
  private problem: string | null = null;
  private readonly subscriptions: vscode.Disposable[] = [];
  /** Bursts of changes make one read, never two at once; `want` gathers what they asked for. */
  private readonly reads = new CoalescedRun(() => this.read(), 30);
  private want: Wanted = NOTHING;
  private disposed = false;

  constructor(
    extensionUri: vscode.Uri,
    private readonly connection: DaemonConnection,
    private id: number,
    private readonly onClosed: (p: ConversationPanel) => void,
    private previewing: boolean,
    /** A panel VS Code restored after a window reload (the serializer's), else a new one. */
    restored?: vscode.WebviewPanel,
  ) {
    super(extensionUri, { bundle: 'conversationMain', title: `Conversation #${id}` });
    this.panel =
      restored ??
      vscode.window.createWebviewPanel(CONVERSATION_VIEW_TYPE, `#${id}`, vscode.ViewColumn.Active, PANEL_OPTIONS);
    this.attach(this.panel.webview);
    this.subscriptions.push(
      this.panel.onDidDispose(() => this.dispose()),
      connection.onDidChange((c) => {
        const mine = c.id === undefined || Number(c.id) === this.id;
        if (c.topic === 'transcript' && mine) this.schedule({ transcript: true });
        else if ((c.topic === 'conversations' || c.topic === 'lanes') && mine) this.schedule({ info: true });
      }),
      connection.onDidChangeState((s) => {
        if (s.kind === 'connected') this.schedule({ info: true, transcript: true, reset: true });
        else {
          // Reconnecting counts too: a panel that still offers Send while nothing can arrive lies.
          this.problem = `The svc daemon is not connected: ${connection.whyDown()}. What is shown may be out of date, and nothing can be sent until it is back.`;
          this.send();
        }
      }),
    );
    this.schedule({ info: true, transcript: true });
  }

  /** The conversation shown (a preview panel changes it). */
  get convId(): number {
    return this.id;
  }

  /** A preview: the next conversation opened from a row replaces it. */
  get preview(): boolean {
    return this.previewing;
  }

  reveal(): void {
    this.panel.reveal(undefined, false);
  }

  /** Keeps the panel: later row clicks open their own tabs. */
  pin(): void {
    if (!this.previewing) return;
    this.previewing = false;
    this.send();
  }

  /** A preview panel shows another conversation, in the same tab. */
  retarget(convId: number): void {
    this.id = convId;
    this.info = null;
    this.lane = null;
    this.reportFile = null;
    this.problem = null;
    this.rows = [];
    this.lastSeq = 0;
    this.earlier = false;
    this.panel.title = `#${convId}`;
    this.schedule({ info: true, transcript: true, reset: true });
    this.send();
  }

  /** For in-host tests: the items the page was last sent. */
  get itemCount(): number {
    return foldTranscript(this.rows).length;
  }

  protected onReady(): void {
    this.send();
  }

  protected async onMessage(msg: ConversationFromView): Promise<void> {
    const conv = String(this.id);
    // Acting in a preview keeps it, as typing in a preview editor does.
    if (
      msg.type === 'tell' ||
      msg.type === 'answer' ||
      msg.type === 'stop' ||
      msg.type === 'resume' ||
      msg.type === 'pin'
    )
      this.pin();
    switch (msg.type) {
      case 'tell':
        await this.act('tell', async () => {
          const r = await this.connection.request(conversationsTell, {
            conv,
            text: msg.text,
            ...(msg.force ? { force: true } : {}),
          });
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
      case 'resume':
        await this.act('resume', async () => {
          await this.connection.request(conversationsResume, { conv, noWait: true });
          // The header says what it is doing now; an activity here would be stale on its next change.
          return 'Resumed.';
        });
        break;
      case 'pin':
        break;
      case 'openReport':
        if (this.reportFile) await vscode.commands.executeCommand('svc.openReport', { reportFile: this.reportFile });
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

  /**
   * Runs a tell, answer or resume: the page hears the outcome. A refusal the page offers a
   * button for (a judge that reported: Send anyway; a stopped agent: Resume) stays in the
   * page; any other failure also goes through the funnel.
   */
  private async act(action: 'tell' | 'answer' | 'resume', fn: () => Promise<string>): Promise<void> {
    try {
      this.post({ type: 'result', action, ok: true, message: await fn() });
      this.schedule({ info: true });
    } catch (e) {
      const offer = DaemonRefusal.is(e, 'judgeReported')
        ? 'sendAnyway'
        : DaemonRefusal.is(e, 'notRunning')
          ? 'resume'
          : undefined;
      const message = e instanceof Error ? e.message : String(e);
      if (offer) {
        this.post({ type: 'result', action, ok: false, message: `${withoutCliHint(message)}.`, offer });
        this.schedule({ info: true });
        return;
      }
      this.post({
        type: 'result',
        action,
        ok: false,
        message: DaemonRefusal.is(e) ? withoutCliHint(message) : message,
      });
      throw e;
    }
  }

  private schedule(w: Partial<Wanted>): void {
    this.want = {
      info: this.want.info || !!w.info,
      transcript: this.want.transcript || !!w.transcript,
      reset: this.want.reset || !!w.reset,
    };
    this.reads.request();
  }

  private async read(): Promise<void> {
    const id = this.id;
    const w = this.want;
    this.want = NOTHING;
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
      if (DaemonDown.is(e))
        this.problem = `The svc daemon is not connected: ${e.why}. What is shown may be out of date.`;
      else if (DaemonRefusal.is(e)) this.problem = e.message;
      else {
        log.error(`reading conversation #${this.id} failed`, e);
        this.problem = `Reading the conversation failed: ${e instanceof Error ? e.message : String(e)}`;
      }
    }
    // A panel retargeted meanwhile shows nothing of the old conversation: the next read resets.
    if (!this.disposed && id === this.id) this.send();
  }

  private async readInfo(): Promise<void> {
    const id = this.id;
    const info = await this.connection.request(conversationsShow, { conv: String(id) });
    const lane = info.kind === 'lane' ? await this.connection.request(lanesGet, { lane: String(id) }) : null;
    const reportFile = lane ? (lane.report?.verdictFile ?? null) : await this.reviewerReport(info);
    if (id !== this.id) return; // retargeted meanwhile: the next read is the new conversation's
    this.info = info;
    this.lane = lane;
    this.reportFile = reportFile;
    this.panel.title = `#${info.id} ${info.title || info.name}`;
  }

  /** A reviewer's report file, once written (review/show lists the issue's reviewers with theirs); the daemon says who is a reviewer. */
  private async reviewerReport(info: ConversationInfo): Promise<string | null> {
    if (!info.review || !info.issueId) return null;
    try {
      const s = await this.connection.request(reviewShow, { issue: info.issueId, lines: 1 });
      const r = s.reviewers.find((x) => x.id === info.id);
      return r?.report.exists ? r.report.path : null;
    } catch (e) {
      if (DaemonRefusal.is(e)) return null; // the issue is gone: no report to open
      throw e;
    }
  }

  private async readTranscript(): Promise<void> {
    const conv = String(this.id);
    if (this.rows.length === 0 && this.lastSeq === 0) {
      const r = await this.connection.request(transcriptRead, { conv });
      this.rows = r.rows;
      this.earlier = r.truncated;
      this.lastSeq = r.rows.length ? r.rows[r.rows.length - 1].seq : 0;
      return;
    }
    for (let more = true; more;) {
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
      convId: this.id,
      preview: this.previewing,
      conv: i ? header(i, this.lane, this.reportFile) : null,
      ask:
        i?.ask && i.activity === 'needs-you'
          ? { kind: i.ask.kind, title: i.ask.title, options: i.ask.options, fields: i.ask.fields }
          : null,
      report: this.lane?.report
        ? {
            seq: this.lane.report.seq,
            status: this.lane.report.status,
            verdict: this.lane.report.verdict,
            at: this.lane.report.at,
            body: this.lane.report.body,
          }
        : null,
      items: foldTranscript(this.rows),
      earlier: this.earlier,
      problem: this.problem,
      daemonDown: this.connection.state.kind !== 'connected',
    });
  }

  override dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.reads.dispose();
    for (const s of this.subscriptions) s.dispose();
    super.dispose();
    this.panel.dispose();
    this.onClosed(this);
  }
}

const PANEL_OPTIONS: vscode.WebviewPanelOptions & vscode.WebviewOptions = {
  retainContextWhenHidden: true,
  enableFindWidget: true,
};

function header(i: ConversationInfo, lane: LaneRecord | null, reportFile: string | null): ConversationHeader {
  const reaped = lane?.reaped ?? false;
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
    lane: lane
      ? `${lane.role} i${lane.iteration} · run ${lane.run} · key ${lane.key}${lane.verdict ? ` · verdict ${lane.verdict.verdict}` : ''}`
      : null,
    parentId: i.parentId,
    issueId: i.issueId,
    archived: i.archived,
    reaped,
    resumable: !reaped && !i.alive && !isLive(i.activity),
    reportFile,
  };
}

/**
 * One panel per conversation: opening it again reveals the one already open. At most one
 * panel is a preview (opened from a row, not kept yet): the next row click shows its
 * conversation there, as the Explorer reuses its preview tab. With the setting
 * workbench.editor.enablePreview off, every panel is kept.
 */
export class ConversationPanels implements vscode.Disposable {
  private readonly open = new Map<number, ConversationPanel>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly connection: DaemonConnection,
  ) {}

  show(convId: number, opts: { preview?: boolean } = {}): ConversationPanel {
    const preview =
      !!opts.preview && vscode.workspace.getConfiguration('workbench.editor').get<boolean>('enablePreview', true);
    const existing = this.open.get(convId);
    if (existing) {
      if (!preview) existing.pin();
      existing.reveal();
      return existing;
    }
    const reuse = preview ? [...this.open.values()].find((p) => p.preview) : undefined;
    if (reuse) {
      this.open.delete(reuse.convId);
      reuse.retarget(convId);
      this.open.set(convId, reuse);
      reuse.reveal();
      return reuse;
    }
    return this.add(convId, preview);
  }

  /**
   * A panel VS Code kept across a window reload (the serializer's), a preview again if it was
   * one (its page kept that), so the next row click still replaces it. Only one preview: a
   * second restored as one is kept instead.
   */
  restore(panel: vscode.WebviewPanel, convId: number, preview = false): ConversationPanel {
    const existing = this.open.get(convId);
    if (existing) {
      // Already opened since (a command ran first): one panel per conversation.
      panel.dispose();
      return existing;
    }
    const previewAllowed =
      preview && vscode.workspace.getConfiguration('workbench.editor').get<boolean>('enablePreview', true);
    return this.add(convId, previewAllowed && ![...this.open.values()].some((p) => p.preview), panel);
  }

  private add(convId: number, preview: boolean, restored?: vscode.WebviewPanel): ConversationPanel {
    const p = new ConversationPanel(
      this.extensionUri,
      this.connection,
      convId,
      (closed) => {
        if (this.open.get(closed.convId) === closed) this.open.delete(closed.convId);
      },
      preview,
      restored,
    );
    this.open.set(convId, p);
    return p;
  }

  get(convId: number): ConversationPanel | undefined {
    return this.open.get(convId);
  }

  get openIds(): number[] {
    return [...this.open.keys()];
  }

  get states(): { convId: number; preview: boolean }[] {
    return [...this.open.values()].map((p) => ({ convId: p.convId, preview: p.preview }));
  }

  dispose(): void {
    for (const p of [...this.open.values()]) p.dispose();
    this.open.clear();
  }
}
