// Messages of the Conversation panel (one webview panel per conversation). Host:
// extension/conversations/conversationPanel.ts (items folded by transcriptItems.ts); page:
// webview/conversationMain.ts. Who must stay in sync: those files.
import type { ReadyMessage } from './common/messages';

/** One entry of the transcript as the page shows it; `id` is stable across updates. */
export type TranscriptItem =
  | { id: string; kind: 'prompt'; at: number; text: string }
  /** Agent-written Markdown: rendered with markdown-it (html off), then sanitized. */
  | { id: string; kind: 'message'; at: number; text: string }
  | { id: string; kind: 'thought'; at: number; text: string }
  /** `title`: the command or the agent's newest name for the call; `outcome`: `exit <n>` or `failed` when it failed. */
  | { id: string; kind: 'tool'; at: number; title: string; toolKind: string | null; status: string | null; output: string; outcome: string | null }
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
  /** Null while the conversation cannot be read (daemon down: see `problem`). */
  conv: ConversationHeader | null;
  ask: AskView | null;
  report: ReportView | null;
  items: TranscriptItem[];
  /** Older transcript rows were left out. */
  earlier: boolean;
  /** Why the panel is stale or empty, in words (daemon down, conversation gone). */
  problem: string | null;
}

/** The outcome of a composer send or an answer, so the page can clear or keep its input. */
export interface ActionResult {
  type: 'result';
  action: 'tell' | 'answer';
  ok: boolean;
  message: string;
}

export type ConversationToView = ConversationState | ActionResult;

export type ConversationFromView =
  | ReadyMessage
  | { type: 'tell'; text: string }
  | { type: 'answer'; option?: string; allow?: boolean; deny?: boolean; text?: string }
  | { type: 'stop' }
  | { type: 'openConversation'; convId: number }
  | { type: 'openLink'; href: string };
