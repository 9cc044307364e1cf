// Folds stored transcript rows (transcript/read) into what the Conversation panel shows:
// streamed message chunks joined into one message, a tool call merged with its updates
// (status, title, output), the newest plan of a turn, asks with how they were answered,
// and lifecycle notes. Pure (no vscode) so unit tests and the bench run it in Node.
import type { TranscriptRowInfo } from '../../shared/protocol/transcript';
import type { TranscriptItem } from '../../shared/webview/conversationMessages';
import { blockText, startToolCall, toolLabel, toolOutcome, updateToolCall } from '../../shared/format/toolCalls';
import type { Block, ToolCallView } from '../../shared/format/toolCalls';
import { QUIET_UPDATES } from '../../shared/format/quietUpdates';
import { withoutCliHint } from '../errors/cliHints';
import { textOf } from '../../shared/format/text';

type Payload = Record<string, unknown>;

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

export function foldTranscript(rows: readonly TranscriptRowInfo[]): TranscriptItem[] {
  const items: TranscriptItem[] = [];
  const tools = new Map<string, { view: ToolCallView; item: Extract<TranscriptItem, { kind: 'tool' }> }>();
  const show = (t: { view: ToolCallView; item: Extract<TranscriptItem, { kind: 'tool' }> }) => {
    t.item.title = toolLabel(t.view);
    t.item.toolKind = t.view.kind;
    t.item.status = t.view.status;
    t.item.output = t.view.output;
    t.item.outcome = toolOutcome(t.view);
  };
  const asks = new Map<string, Extract<TranscriptItem, { kind: 'ask' }>>();
  type StreamItem = Extract<TranscriptItem, { kind: 'message' | 'thought' | 'prompt' }>;
  let stream: StreamItem | undefined;
  let plan: Extract<TranscriptItem, { kind: 'plan' }> | undefined;

  let streamMessageId: unknown;
  // Chunks join into one item until another row comes between or the message id changes,
  // so consecutive messages stay separate items.
  const chunk = (kind: 'message' | 'thought' | 'prompt', r: TranscriptRowInfo, text: string, messageId: unknown) => {
    if (stream && stream.kind === kind && (messageId === undefined || messageId === streamMessageId)) {
      stream.text += text;
      return;
    }
    streamMessageId = messageId;
    const item: StreamItem = { id: `${kind[0]}${r.seq}`, kind, at: r.at, text };
    stream = item;
    items.push(item);
  };

  for (const r of rows) {
    const p = (typeof r.payload === 'object' && r.payload !== null ? r.payload : {}) as Payload;
    if (QUIET_UPDATES.has(r.kind)) continue;
    if (r.kind !== 'agent_message_chunk' && r.kind !== 'agent_thought_chunk' && r.kind !== 'user_message_chunk')
      stream = undefined;
    switch (r.kind) {
      case 'prompt':
        items.push({ id: `u${r.seq}`, kind: 'prompt', at: r.at, text: textOf(p.text) });
        plan = undefined;
        break;
      case 'user_message_chunk':
        chunk('prompt', r, blockText(p.content as Block), p.messageId);
        break;
      case 'agent_message_chunk':
        chunk('message', r, blockText(p.content as Block), p.messageId);
        break;
      case 'agent_thought_chunk':
        chunk('thought', r, blockText(p.content as Block), p.messageId);
        break;
      case 'tool_call': {
        const id = str(p.toolCallId) ?? `seq${r.seq}`;
        const known = tools.get(id);
        if (known) {
          // A repeated tool_call (some agents send one per phase) updates the same call.
          updateToolCall(known.view, p);
          show(known);
          break;
        }
        const t = {
          view: startToolCall(p, id),
          item: {
            id: `t${r.seq}`,
            kind: 'tool',
            at: r.at,
            title: '',
            toolKind: null,
            status: null,
            output: '',
            outcome: null,
          } as Extract<TranscriptItem, { kind: 'tool' }>,
        };
        show(t);
        tools.set(id, t);
        items.push(t.item);
        break;
      }
      case 'tool_call_update': {
        const t = tools.get(str(p.toolCallId) ?? '');
        if (!t) break;
        updateToolCall(t.view, p);
        show(t);
        break;
      }
      case 'plan': {
        const entries = (Array.isArray(p.entries) ? (p.entries as Payload[]) : []).map((e) => ({
          content: textOf(e.content),
          status: textOf(e.status, 'pending'),
          priority: str(e.priority),
        }));
        if (plan) plan.entries = entries;
        else {
          plan = { id: `p${r.seq}`, kind: 'plan', at: r.at, entries };
          items.push(plan);
        }
        break;
      }
      case 'permission':
      case 'elicitation': {
        const item: Extract<TranscriptItem, { kind: 'ask' }> = {
          id: `a${r.seq}`,
          kind: 'ask',
          at: r.at,
          askKind: str(p.kind) ?? r.kind,
          title: textOf(p.title),
          outcome: null,
        };
        asks.set(textOf(p.id ?? r.seq), item);
        items.push(item);
        break;
      }
      case 'answer': {
        const item = asks.get(textOf(p.id));
        if (item) item.outcome = `answered: ${textOf(p.summary, 'answered')}`;
        break;
      }
      case 'withdrawn': {
        for (const a of asks.values()) if (a.outcome === null) a.outcome = `withdrawn: ${textOf(p.why)}`;
        break;
      }
      case 'turn_end':
        plan = undefined;
        if (p.error)
          items.push({
            id: `n${r.seq}`,
            kind: 'note',
            at: r.at,
            text: `turn failed: ${textOf(p.error)}`,
            tone: 'error',
          });
        else if (p.stopReason && p.stopReason !== 'end_turn')
          items.push({
            id: `n${r.seq}`,
            kind: 'note',
            at: r.at,
            text: `turn ended: ${textOf(p.stopReason)}`,
            tone: 'info',
          });
        break;
      case 'lifecycle':
      case 'notice': {
        const event = str(p.event);
        // The daemon's notes name the command that helps ("svc conv resume continues it"); the panel offers it as a button.
        items.push({
          id: `n${r.seq}`,
          kind: 'note',
          at: r.at,
          text: withoutCliHint(textOf(p.text ?? event)),
          tone: event === 'spawnError' ? 'error' : 'info',
        });
        break;
      }
      default:
        break;
    }
  }
  return items;
}
