// Renders transcript rows as terminal text: prompts, agent messages, tool calls with
// their output, asks and answers, lifecycle marks. Thoughts are left out (they are not
// output). Used by `svc conv log` and GET /api/agents/:name/output. A tool call is folded
// from its updates (shared/format/toolCalls.ts): its header names the command even when
// the agent sent it in a later update, and streamed terminal output is printed as it comes.
import { blockText, startToolCall, toolLabel, toolOutcome, updateToolCall } from '../../shared/format/toolCalls';
import type { Block, ToolCallView } from '../../shared/format/toolCalls';
import { QUIET_UPDATES } from '../../shared/format/quietUpdates';
import type { TranscriptRow } from './transcriptStore';
import { textOf } from '../../shared/format/text';

type Payload = Record<string, unknown>;

const isTool = (kind: string) => kind === 'tool_call' || kind === 'tool_call_update';
const toolId = (p: Payload, r: TranscriptRow) => (typeof p.toolCallId === 'string' ? p.toolCallId : `seq${r.seq}`);

/** Folds tool rows into views keyed by tool call id. */
function foldTools(rows: TranscriptRow[], into = new Map<string, ToolCallView>()): Map<string, ToolCallView> {
  for (const r of rows) {
    if (!isTool(r.kind)) continue;
    const p = (r.payload ?? {}) as Payload;
    const id = toolId(p, r);
    const v = into.get(id);
    if (v) updateToolCall(v, p);
    else into.set(id, startToolCall(p, id));
  }
  return into;
}

/**
 * Renders rows to text; `open` says whether the previous text ended mid-line. `context`:
 * earlier tool rows of calls that continue in `rows` (already printed by an earlier render).
 */
export function renderTranscript(
  rows: TranscriptRow[],
  open = false,
  context: TranscriptRow[] = [],
): { text: string; open: boolean } {
  let out = '';
  let mid = open;
  // Who wrote the unfinished line: text from someone else starts on a new line.
  // An open line is taken to be a message that the next chunk continues.
  let owner: string | null = open ? 'm0' : null;
  const line = (s: string) => {
    out += (mid ? '\n' : '') + s + '\n';
    mid = false;
    owner = null;
  };
  const stream = (who: string, s: string) => {
    if (!s) return;
    if (mid && owner !== who) out += '\n';
    out += s;
    mid = !s.endsWith('\n');
    owner = mid ? who : null;
  };

  const seen = foldTools(context);
  const printedLabel = new Map([...seen].map(([id, v]) => [id, toolLabel(v)]));
  // The final names of the calls, so a header printed now already shows a later title.
  const finalLabel = new Map([...foldTools([...context, ...rows])].map(([id, v]) => [id, toolLabel(v)]));
  const live = foldTools(context);
  const shown = new Map([...live].map(([id, v]) => [id, v.output]));

  let message = 0;
  let lastKind = open ? 'agent_message_chunk' : '';
  let lastMessageId: unknown;
  for (const r of rows) {
    const p = (r.payload ?? {}) as Payload;
    if (QUIET_UPDATES.has(r.kind)) continue;
    const prevKind = lastKind;
    lastKind = r.kind;
    switch (r.kind) {
      case 'prompt':
        line(
          textOf(p.text)
            .split('\n')
            .map((l) => `> ${l}`)
            .join('\n'),
        );
        break;
      case 'agent_message_chunk': {
        // A chunk after anything else (a thought, a tool call, usage) or with another
        // message id begins a new message: consecutive messages never run together.
        if (prevKind !== 'agent_message_chunk' || (p.messageId !== undefined && p.messageId !== lastMessageId))
          message++;
        lastMessageId = p.messageId;
        stream(`m${message}`, blockText(p.content as Block));
        break;
      }
      case 'tool_call':
      case 'tool_call_update': {
        const id = toolId(p, r);
        let v = live.get(id);
        const wasFailed = v ? toolOutcome(v) !== null : false;
        if (v) updateToolCall(v, p);
        else {
          live.set(id, (v = startToolCall(p, id)));
          // An update whose call began before these rows (a tail of the log): its output, no header.
          if (r.kind === 'tool_call_update') printedLabel.set(id, finalLabel.get(id) ?? toolLabel(v));
        }
        const label = finalLabel.get(id) ?? toolLabel(v);
        if (printedLabel.get(id) !== label) {
          line(`$ ${label}`);
          printedLabel.set(id, label);
        }
        const before = shown.get(id) ?? '';
        if (v.output !== before) {
          if (v.output.startsWith(before)) stream(`t${id}`, v.output.slice(before.length));
          else if (v.output) line(v.output.replace(/\n$/, ''));
          shown.set(id, v.output);
        }
        const outcome = toolOutcome(v);
        if (outcome && !wasFailed) line(`(failed: ${label}${outcome === 'failed' ? '' : `, ${outcome}`})`);
        break;
      }
      case 'plan': {
        const entries = (p.entries as { content?: string; status?: string }[] | undefined) ?? [];
        line(['plan:', ...entries.map((e) => `  [${e.status ?? ''}] ${e.content ?? ''}`)].join('\n'));
        break;
      }
      case 'permission':
      case 'elicitation':
        line(`? ${textOf(p.title)}`);
        break;
      case 'answer':
        line(`→ ${textOf(p.summary)}`);
        break;
      case 'withdrawn':
        line(`→ (withdrawn: ${textOf(p.why)})`);
        break;
      case 'turn_end':
        if (mid) {
          out += '\n';
          mid = false;
          owner = null;
        }
        if (p.error) line(`[turn failed: ${textOf(p.error)}]`);
        else if (p.stopReason && p.stopReason !== 'end_turn') line(`[turn ended: ${textOf(p.stopReason)}]`);
        break;
      case 'lifecycle':
        line(`[svc] ${textOf(p.text ?? p.event)}`);
        break;
      case 'notice':
        line(`[svc] ${textOf(p.text)}`);
        break;
      default:
        break;
    }
  }
  return { text: out, open: mid };
}

/** Tool call ids that `rows` update without starting (their start is in earlier rows). */
export function continuedToolCalls(rows: TranscriptRow[]): string[] {
  const started = new Set<string>();
  const ids = new Set<string>();
  for (const r of rows) {
    if (!isTool(r.kind)) continue;
    const id = toolId((r.payload ?? {}) as Payload, r);
    if (r.kind === 'tool_call') started.add(id);
    else if (!started.has(id)) ids.add(id);
  }
  return [...ids];
}

/** The last `n` lines of the rendered rows. */
export function lastLines(rows: TranscriptRow[], n: number): string[] {
  const { text } = renderTranscript(rows);
  const lines = text.replace(/\n$/, '').split('\n');
  if (lines.length === 1 && lines[0] === '') return [];
  return lines.slice(-n);
}
