// Renders transcript rows as terminal text: prompts, agent messages, tool calls with
// their output, asks and answers, lifecycle marks. Thoughts are left out (they are not
// output). Used by `svc conv log` and GET /api/agents/:name/output.
import type { TranscriptRow } from './transcriptStore';

interface Block {
  type?: string;
  text?: string;
  content?: Block;
}

function blockText(b: Block | undefined): string {
  if (!b) return '';
  if (b.type === 'text' && typeof b.text === 'string') return b.text;
  if (b.type === 'content') return blockText(b.content);
  if (b.type === 'diff') return '(diff)';
  return '';
}

function toolContent(u: { content?: Block[] | null }): string {
  return (u.content ?? []).map(blockText).filter(Boolean).join('\n');
}

/** Renders rows to text; `open` says whether the previous text ended mid-line. */
export function renderTranscript(rows: TranscriptRow[], open = false): { text: string; open: boolean } {
  let out = '';
  let mid = open;
  const line = (s: string) => {
    out += (mid ? '\n' : '') + s + '\n';
    mid = false;
  };
  const stream = (s: string) => {
    if (!s) return;
    out += s;
    mid = !s.endsWith('\n');
  };
  for (const r of rows) {
    const p = r.payload as Record<string, unknown>;
    switch (r.kind) {
      case 'prompt':
        line(String(p.text ?? '').split('\n').map((l) => `> ${l}`).join('\n'));
        break;
      case 'agent_message_chunk':
        stream(blockText(p.content as Block));
        break;
      case 'tool_call': {
        line(`$ ${String(p.title ?? p.toolCallId ?? 'tool')}`);
        const c = toolContent(p as { content?: Block[] });
        if (c) line(c.replace(/\n$/, ''));
        break;
      }
      case 'tool_call_update': {
        const c = toolContent(p as { content?: Block[] });
        if (c) line(c.replace(/\n$/, ''));
        if (p.status === 'failed') line(`(failed: ${String(p.title ?? p.toolCallId)})`);
        break;
      }
      case 'plan': {
        const entries = (p.entries as { content?: string; status?: string }[] | undefined) ?? [];
        line(['plan:', ...entries.map((e) => `  [${e.status ?? ''}] ${e.content ?? ''}`)].join('\n'));
        break;
      }
      case 'permission':
      case 'elicitation':
        line(`? ${String(p.title ?? '')}`);
        break;
      case 'answer':
        line(`→ ${String(p.summary ?? '')}`);
        break;
      case 'withdrawn':
        line(`→ (withdrawn: ${String(p.why ?? '')})`);
        break;
      case 'turn_end':
        if (mid) line('');
        if (p.error) line(`[turn failed: ${String(p.error)}]`);
        else if (p.stopReason && p.stopReason !== 'end_turn') line(`[turn ended: ${String(p.stopReason)}]`);
        break;
      case 'lifecycle':
        line(`[svc] ${String(p.text ?? p.event ?? '')}`);
        break;
      case 'notice':
        line(`[svc] ${String(p.text ?? '')}`);
        break;
      default:
        break;
    }
  }
  return { text: out, open: mid };
}

/** The last `n` lines of the rendered rows. */
export function lastLines(rows: TranscriptRow[], n: number): string[] {
  const { text } = renderTranscript(rows);
  const lines = text.replace(/\n$/, '').split('\n');
  if (lines.length === 1 && lines[0] === '') return [];
  return lines.slice(-n);
}
