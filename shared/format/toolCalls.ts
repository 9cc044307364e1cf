// One tool call folded from its ACP `tool_call` and `tool_call_update` payloads, as both
// `svc conv log` (server/conversations/transcriptText.ts) and the Conversation panel
// (extension/conversations/transcriptItems.ts) show it. Agents spread a call over many
// updates: Claude's first title is a placeholder ("Terminal") and the command arrives in a
// later update; codex sends its output as `terminal` content plus `_meta` output deltas
// (`terminal_output_delta`, or `terminal_output` for clients that declare it) and its
// exit code in `_meta.terminal_exit`. Pure, so the webview host and the daemon share it.

export interface ToolCallView {
  toolCallId: string;
  /** The newest title the agent gave. */
  title: string | null;
  /** The title changed after the first payload (the agent named the call later). */
  retitled: boolean;
  /** The command from `rawInput.command`, when the call runs one. */
  command: string | null;
  /** The command arrived after the first payload (the agent said what it runs later). */
  commandLater: boolean;
  kind: string | null;
  status: string | null;
  /** Text content, diffs named, and terminal output appended from the `_meta` deltas. */
  output: string;
  exitCode: number | null;
}

/** An ACP content block as the transcript stores it (a message chunk's, a tool call's). */
export interface Block {
  type?: string;
  text?: string;
  path?: string;
  content?: Block;
}

type Payload = Record<string, unknown>;

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** A block's text: text as is, a wrapped block's text, a diff named by its file. */
export function blockText(b: Block | undefined): string {
  if (!b || typeof b !== 'object') return '';
  if (b.type === 'text' && typeof b.text === 'string') return b.text;
  if (b.type === 'content') return blockText(b.content);
  if (b.type === 'diff') return `(diff of ${typeof b.path === 'string' ? b.path : 'a file'})`;
  // A terminal's output comes in the `_meta` deltas, not in the block itself.
  return '';
}

function contentText(content: unknown): string {
  if (!Array.isArray(content)) return '';
  return (content as Block[]).map(blockText).filter(Boolean).join('\n');
}

function commandOf(rawInput: unknown): string | null {
  if (typeof rawInput !== 'object' || rawInput === null) return null;
  const c = (rawInput as Payload).command;
  if (Array.isArray(c) && c.every((x) => typeof x === 'string')) return c.length ? c.join(' ') : null;
  return str(c);
}

/** The output carried in `_meta` (codex: `terminal_output_delta` / `terminal_output`, each a chunk to append). */
function metaOutput(meta: unknown): string {
  if (typeof meta !== 'object' || meta === null) return '';
  const m = meta as Payload;
  let out = '';
  for (const key of ['terminal_output_delta', 'terminal_output']) {
    const d = m[key] as Payload | undefined;
    if (d && typeof d.data === 'string') out += d.data;
  }
  return out;
}

function metaExit(meta: unknown): number | null {
  const e =
    typeof meta === 'object' && meta !== null ? ((meta as Payload).terminal_exit as Payload | undefined) : undefined;
  return e && typeof e.exit_code === 'number' ? e.exit_code : null;
}

function rawExit(rawOutput: unknown): number | null {
  if (typeof rawOutput !== 'object' || rawOutput === null) return null;
  const r = rawOutput as Payload;
  for (const k of ['exit_code', 'exitCode']) if (typeof r[k] === 'number') return r[k];
  return null;
}

function rawFormattedOutput(rawOutput: unknown): string {
  if (typeof rawOutput !== 'object' || rawOutput === null) return '';
  const f = (rawOutput as Payload).formatted_output;
  return typeof f === 'string' ? f : '';
}

export function startToolCall(p: Payload, fallbackId: string): ToolCallView {
  const v: ToolCallView = {
    toolCallId: str(p.toolCallId) ?? fallbackId,
    title: null,
    retitled: false,
    command: null,
    commandLater: false,
    kind: null,
    status: null,
    output: '',
    exitCode: null,
  };
  applyToolPayload(v, p, true);
  return v;
}

/** Merges a `tool_call_update` (or a repeated `tool_call`) into the view. */
export function updateToolCall(v: ToolCallView, p: Payload): void {
  applyToolPayload(v, p, false);
}

function applyToolPayload(v: ToolCallView, p: Payload, first: boolean): void {
  const title = str(p.title);
  if (title && title !== v.title) {
    if (!first && v.title !== null) v.retitled = true;
    v.title = title;
  }
  const command = commandOf(p.rawInput);
  if (command && command !== v.command) {
    if (!first) v.commandLater = true;
    v.command = command;
  }
  v.kind = str(p.kind) ?? v.kind;
  v.status = str(p.status) ?? v.status;
  // ACP: content in an update replaces the call's content; a terminal block keeps the
  // output streamed so far (it only names the terminal the deltas write to).
  if (Array.isArray(p.content)) {
    const text = contentText(p.content);
    const terminal = (p.content as Block[]).some((b) => b && b.type === 'terminal');
    if (text || !terminal) v.output = text;
  }
  const delta = metaOutput(p._meta);
  if (delta) v.output += delta;
  else if (!v.output) v.output = rawFormattedOutput(p.rawOutput);
  v.exitCode = metaExit(p._meta) ?? rawExit(p.rawOutput) ?? v.exitCode;
}

/**
 * What names the call: a title the agent gave after its first one (Claude: "Terminal",
 * then the command), else a command it sent later, else its first title (codex's is the
 * command without the `bash -lc` wrapper its rawInput keeps), else the command, else the id.
 */
export function toolLabel(v: ToolCallView): string {
  const raw =
    (v.retitled ? v.title : null) ?? (v.commandLater ? v.command : null) ?? v.title ?? v.command ?? v.toolCallId;
  // Claude puts a command in backticks in its titles.
  const m = /^`([^`]+)`$/.exec(raw.trim());
  return m ? m[1] : raw;
}

/** `failed`, with the exit code when one is known. */
export function toolOutcome(v: ToolCallView): string | null {
  if (v.status !== 'failed' && !(v.exitCode !== null && v.exitCode !== 0)) return null;
  return v.exitCode !== null ? `exit ${v.exitCode}` : 'failed';
}
