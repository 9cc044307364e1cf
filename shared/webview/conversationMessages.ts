// Messages of the Conversation panel (one webview panel per conversation). Host:
// extension/conversations/conversationPanel.ts (items folded by transcriptItems.ts); page:
// webview/conversationMain.ts. Who must stay in sync: those files.
import type { ReadyMessage } from './viewMessages';

/** One entry of the transcript as the page shows it; `id` is stable across updates. */
export type TranscriptItem =
  | { id: string; kind: 'prompt'; at: number; text: string }
  /** Agent-written Markdown: rendered with markdown-it (html off), then sanitized. */
  | { id: string; kind: 'message'; at: number; text: string }
  | { id: string; kind: 'thought'; at: number; text: string }
  /** `title`: the command or the agent's newest name for the call; `outcome`: `exit <n>` or `failed` when it failed. */
  | {
      id: string;
      kind: 'tool';
      at: number;
      title: string;
      toolKind: string | null;
      status: string | null;
      output: string;
      outcome: string | null;
    }
  | { id: string; kind: 'plan'; at: number; entries: { content: string; status: string; priority: string | null }[] }
  | { id: string; kind: 'ask'; at: number; askKind: string; title: string; outcome: string | null }
  | { id: string; kind: 'note'; at: number; text: string; tone: 'info' | 'error' };

export interface AskView {
  kind: 'permission' | 'question' | 'plan';
  title: string;
  options: { id: string; name: string; kind: string }[];
  fields: string[];
}

export interface ConversationHeader {
  id: number;
  name: string;
  title: string;
  kind: string;
  activity: string;
  alive: boolean;
  harness: string;
  model: string;
  cost: string | null;
  /** `builder i2 · run r1 · key k`, for lanes. */
  lane: string | null;
  parentId: number | null;
  issueId: string | null;
  archived: boolean;
  /** A lane whose folder was reaped: it cannot be resumed. */
  reaped: boolean;
  /** Stopped, failed to start or archived, and not reaped: the composer offers Resume instead of Send. */
  resumable: boolean;
  /** A file the agent's report lives in (a reviewer's report, a critic's verdict file): "Open report". */
  reportFile: string | null;
}

/** A lane's newest report (the body is agent-written Markdown). */
export interface ReportView {
  seq: number;
  status: string;
  verdict: string | null;
  at: number;
  body: string;
}

export interface ConversationState {
  type: 'state';
  /** The conversation shown (a preview panel shows another one after the next row click). */
  convId: number;
  /** A preview panel: the next conversation opened from a row replaces it ("Keep Open" keeps it). */
  preview: boolean;
  /** Null while the conversation cannot be read (daemon down: see `problem`). */
  conv: ConversationHeader | null;
  ask: AskView | null;
  report: ReportView | null;
  items: TranscriptItem[];
  /** Older transcript rows were left out. */
  earlier: boolean;
  /** Why the panel is stale or empty, in words (daemon down, conversation gone). */
  problem: string | null;
  /** The daemon is not connected (down or reconnecting): nothing can be sent, the facts shown may be old. */
  daemonDown: boolean;
}

/** The outcome of a composer send or an answer, so the page can clear or keep its input. */
export interface ActionResult {
  type: 'result';
  action: 'tell' | 'answer' | 'resume';
  ok: boolean;
  /** Plain language: refusals come without the CLI's hint (the remedy is `offer`). */
  message: string;
  /** A refusal's remedy as a button: send the same text anyway (a judge that reported), or resume the agent. */
  offer?: 'sendAnyway' | 'resume';
}

export type ConversationToView = ConversationState | ActionResult;

export type ConversationFromView =
  | ReadyMessage
  /** `force`: "Send anyway" to a critic or verifier that already filed its done report. */
  | { type: 'tell'; text: string; force?: boolean }
  | { type: 'answer'; option?: string; allow?: boolean; deny?: boolean; text?: string }
  | { type: 'stop' }
  | { type: 'resume' }
  /** Keep a preview panel open (the next row click opens another tab). */
  | { type: 'pin' }
  | { type: 'openReport' }
  | { type: 'openConversation'; convId: number }
  | { type: 'openLink'; href: string };

/** What the page keeps across a window reload (setState): the panel's serializer reopens `convId`. */
export interface ConversationPageState {
  convId: number;
  /** The composer's unsent text. */
  draft: string;
  /** A preview (not kept yet): it comes back as a preview after a window reload. */
  preview?: boolean;
}
