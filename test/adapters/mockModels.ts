// A small mock of the three providers' streaming APIs, for the real-adapter tier: the real
// claude-agent-acp, codex-acp and gemini CLI talk to it instead of the internet.
//   Anthropic Messages      POST /v1/messages (SSE), /v1/messages/count_tokens
//   OpenAI Responses        POST /v1/responses (SSE)
//   Gemini                  POST /v1beta/models/<m>:streamGenerateContent?alt=sse, :generateContent, :countTokens
// The prompt drives it. In the newest user message that holds them, lines
//   mock: run <shell command>
//   mock: run! <shell command>   (the same, asking to run outside the sandbox: codex escalates)
//   mock: say <text>
// make the model call the harness's shell tool once per `run` line, in order (one per
// model turn, each after the previous tool result came back), then answer with the `say`
// lines as its final text. A request without a shell tool (titles, summaries, checks the
// agents make on the side) or without mock lines gets a short plain answer.
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Step {
  kind: 'run' | 'run!' | 'say';
  text: string;
}

/** What a conversation so far asks of the model next: a command to run, or the final text. */
export function nextMove(
  entries: { kind: 'user' | 'result'; text: string }[],
): { run?: string; escalate?: boolean; say: string } | undefined {
  let at = -1;
  for (let i = entries.length - 1; i >= 0; i--) {
    if (entries[i].kind === 'user' && parseSteps(entries[i].text).length) {
      at = i;
      break;
    }
  }
  if (at < 0) return undefined;
  const steps = parseSteps(entries[at].text);
  const done = entries.slice(at + 1).filter((e) => e.kind === 'result').length;
  const runs = steps.filter((s) => s.kind !== 'say');
  const say =
    steps
      .filter((s) => s.kind === 'say')
      .map((s) => s.text)
      .join('\n') || 'done';
  return done < runs.length ? { run: runs[done].text, escalate: runs[done].kind === 'run!', say } : { say };
}

export function parseSteps(text: string): Step[] {
  const out: Step[] = [];
  for (const m of text.matchAll(/^[ \t]*mock: (run!|run|say) (.+)$/gm))
    out.push({ kind: m[1] as Step['kind'], text: m[2].trim() });
  return out;
}

// ---- Anthropic Messages ----------------------------------------------------------------

type AnyJson = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((b: AnyJson) => (typeof b === 'string' ? b : b.type === 'text' ? b.text : '')).join('\n');
}

function anthropicEntries(body: AnyJson): { kind: 'user' | 'result'; text: string }[] {
  const out: { kind: 'user' | 'result'; text: string }[] = [];
  for (const m of body.messages ?? []) {
    if (m.role !== 'user') continue;
    const blocks = Array.isArray(m.content) ? m.content : [{ type: 'text', text: m.content }];
    for (const b of blocks) {
      if (b.type === 'tool_result') out.push({ kind: 'result', text: textOf(b.content) });
      else if (b.type === 'text') out.push({ kind: 'user', text: b.text });
    }
  }
  return out;
}

let seq = 0;
const id = (p: string) => `${p}_${Date.now().toString(36)}${(seq++).toString(36)}`;

function sse(res: http.ServerResponse, events: { event?: string; data: unknown }[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  for (const e of events) res.write(`${e.event ? `event: ${e.event}\n` : ''}data: ${JSON.stringify(e.data)}\n\n`);
  res.end();
}

function anthropic(body: AnyJson, res: http.ServerResponse): void {
  const hasBash = (body.tools ?? []).some((t: AnyJson) => t.name === 'Bash');
  const move = hasBash ? nextMove(anthropicEntries(body)) : undefined;
  const model = body.model ?? 'mock';
  const usage = { input_tokens: 12, output_tokens: 7, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const content: AnyJson[] = move?.run
    ? [
        {
          type: 'tool_use',
          id: id('toolu'),
          name: 'Bash',
          input: { command: move.run, description: 'Run the command' },
        },
      ]
    : [{ type: 'text', text: move?.say ?? 'mock reply' }];
  const stop = move?.run ? 'tool_use' : 'end_turn';
  const message = {
    id: id('msg'),
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: stop,
    stop_sequence: null,
    usage,
  };
  if (!body.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(message));
    return;
  }
  const ev: { event: string; data: unknown }[] = [
    {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } },
      },
    },
  ];
  content.forEach((b, index) => {
    if (b.type === 'text') {
      ev.push({
        event: 'content_block_start',
        data: { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
      });
      ev.push({
        event: 'content_block_delta',
        data: { type: 'content_block_delta', index, delta: { type: 'text_delta', text: b.text } },
      });
    } else {
      ev.push({
        event: 'content_block_start',
        data: {
          type: 'content_block_start',
          index,
          content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} },
        },
      });
      ev.push({
        event: 'content_block_delta',
        data: {
          type: 'content_block_delta',
          index,
          delta: { type: 'input_json_delta', partial_json: JSON.stringify(b.input) },
        },
      });
    }
    ev.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  });
  ev.push({
    event: 'message_delta',
    data: { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 7 } },
  });
  ev.push({ event: 'message_stop', data: { type: 'message_stop' } });
  sse(res, ev);
}

// ---- OpenAI Responses --------------------------------------------------------------------

const SHELL_TOOLS = ['shell_command', 'exec_command', 'shell'];

function responsesEntries(body: AnyJson): { kind: 'user' | 'result'; text: string }[] {
  const out: { kind: 'user' | 'result'; text: string }[] = [];
  const input = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : (body.input ?? []);
  for (const item of input) {
    if (
      item.type === 'function_call_output' ||
      item.type === 'custom_tool_call_output' ||
      item.type === 'local_shell_call_output'
    )
      out.push({ kind: 'result', text: String(item.output ?? '') });
    else if ((item.type === 'message' || item.type === undefined) && item.role === 'user') {
      const text =
        typeof item.content === 'string'
          ? item.content
          : (item.content ?? []).map((c: AnyJson) => c.text ?? '').join('\n');
      out.push({ kind: 'user', text });
    }
  }
  return out;
}

function shellArguments(tool: AnyJson, command: string, escalate: boolean): string {
  const props = tool.parameters?.properties ?? {};
  const extra: AnyJson = {};
  if (escalate) {
    if (props.sandbox_permissions) extra.sandbox_permissions = 'require_escalated';
    else if (props.with_escalated_permissions) extra.with_escalated_permissions = true;
    if (props.justification) extra.justification = 'The test asks for approval here.';
  }
  if (props.cmd) return JSON.stringify({ cmd: command, ...extra });
  if (props.command?.type === 'array') return JSON.stringify({ command: ['bash', '-lc', command], ...extra });
  return JSON.stringify({ command, ...extra });
}

/** Codex's code mode offers one `exec` tool (JavaScript calling `tools.exec_command`) instead of a shell tool. */
function codeModeTool(tools: AnyJson[]): AnyJson | undefined {
  for (const t of tools) {
    if (t.type === 'custom' && t.name === 'exec') return t;
    if (t.type === 'namespace') {
      const inner = codeModeTool(t.tools ?? []);
      if (inner) return { ...inner, namespace: t.name };
    }
  }
  return undefined;
}

function codeModeInput(command: string, escalate: boolean): string {
  const args: AnyJson = { cmd: command };
  if (escalate)
    Object.assign(args, {
      sandbox_permissions: 'require_escalated',
      justification: 'The test asks for approval here.',
    });
  return `const r = await tools.exec_command(${JSON.stringify(args)});\ntext(typeof r === 'string' ? r : (r.output ?? JSON.stringify(r)));`;
}

function responses(body: AnyJson, res: http.ServerResponse): void {
  const tool = (body.tools ?? []).find((t: AnyJson) => SHELL_TOOLS.includes(t.name));
  const code = tool ? undefined : codeModeTool(body.tools ?? []);
  const move = tool || code ? nextMove(responsesEntries(body)) : undefined;
  const respId = id('resp');
  const item: AnyJson = move?.run
    ? code
      ? {
          type: 'custom_tool_call',
          id: id('ctc'),
          call_id: id('call'),
          name: code.name,
          ...(code.namespace ? { namespace: code.namespace } : {}),
          input: codeModeInput(move.run, move.escalate === true),
          status: 'completed',
        }
      : {
          type: 'function_call',
          id: id('fc'),
          call_id: id('call'),
          name: tool.name,
          arguments: shellArguments(tool, move.run, move.escalate === true),
          status: 'completed',
        }
    : {
        type: 'message',
        id: id('msg'),
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: move?.say ?? 'mock reply', annotations: [] }],
      };
  const usage = {
    input_tokens: 12,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 7,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 19,
  };
  const base = {
    id: respId,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    model: body.model ?? 'mock',
  };
  const ev: { event: string; data: AnyJson }[] = [
    {
      event: 'response.created',
      data: { type: 'response.created', response: { ...base, status: 'in_progress', output: [] } },
    },
    {
      event: 'response.output_item.added',
      data: {
        type: 'response.output_item.added',
        output_index: 0,
        item: { ...item, status: 'in_progress', ...(item.type === 'message' ? { content: [] } : {}) },
      },
    },
  ];
  if (item.type === 'message') {
    ev.push({
      event: 'response.output_text.delta',
      data: {
        type: 'response.output_text.delta',
        item_id: item.id,
        output_index: 0,
        content_index: 0,
        delta: item.content[0].text,
      },
    });
  }
  ev.push({ event: 'response.output_item.done', data: { type: 'response.output_item.done', output_index: 0, item } });
  ev.push({
    event: 'response.completed',
    data: { type: 'response.completed', response: { ...base, status: 'completed', output: [item], usage } },
  });
  sse(res, ev);
}

// ---- Gemini --------------------------------------------------------------------------------

function geminiEntries(body: AnyJson): { kind: 'user' | 'result'; text: string }[] {
  const out: { kind: 'user' | 'result'; text: string }[] = [];
  for (const c of body.contents ?? []) {
    if (c.role !== 'user') continue;
    for (const p of c.parts ?? []) {
      if (p.functionResponse) out.push({ kind: 'result', text: JSON.stringify(p.functionResponse.response ?? {}) });
      else if (typeof p.text === 'string') out.push({ kind: 'user', text: p.text });
    }
  }
  return out;
}

function gemini(body: AnyJson, stream: boolean, res: http.ServerResponse): void {
  const decls = (body.tools ?? []).flatMap((t: AnyJson) => t.functionDeclarations ?? []);
  const hasShell = decls.some((d: AnyJson) => d.name === 'run_shell_command');
  const move = hasShell ? nextMove(geminiEntries(body)) : undefined;
  const wantsJson =
    body.generationConfig?.responseMimeType === 'application/json' ||
    body.generationConfig?.responseJsonSchema ||
    body.generationConfig?.responseSchema;
  const text =
    move?.say ??
    (wantsJson
      ? JSON.stringify({ reasoning: 'The model answered; the user speaks next.', next_speaker: 'user' })
      : 'mock reply');
  const parts = move?.run
    ? [{ functionCall: { name: 'run_shell_command', args: { command: move.run, description: 'Run the command' } } }]
    : [{ text }];
  const chunk = {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 7, totalTokenCount: 19 },
    modelVersion: 'mock',
  };
  if (!stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(chunk));
    return;
  }
  sse(res, [{ data: chunk }]);
}

// ---- the server ----------------------------------------------------------------------------

export interface MockModels {
  url: string;
  port: number;
  /** Every request seen: method, path and parsed body, for assertions and debugging. */
  requests: { path: string; body: AnyJson }[];
  close(): Promise<void>;
}

export async function startMockModels(opts: { logFile?: string } = {}): Promise<MockModels> {
  const requests: { path: string; body: AnyJson }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://mock');
      let body: AnyJson = {};
      try {
        body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
      } catch {
        body = {};
      }
      requests.push({ path: url.pathname, body });
      if (opts.logFile)
        fs.appendFileSync(opts.logFile, `${req.method} ${req.url}\n${JSON.stringify(body).slice(0, 200000)}\n\n`);
      const p = url.pathname;
      if (p.endsWith('/messages/count_tokens')) return json(res, { input_tokens: 12 });
      if (p.endsWith('/messages')) return anthropic(body, res);
      if (p.endsWith('/responses')) return responses(body, res);
      if (p.endsWith(':streamGenerateContent')) return gemini(body, true, res);
      if (p.endsWith(':generateContent')) return gemini(body, false, res);
      if (p.endsWith(':countTokens')) return json(res, { totalTokens: 12 });
      if (p.endsWith('/models')) return json(res, { data: [], models: [], object: 'list' });
      if (p === '/api/hello') return json(res, {}); // claude's reachability probe
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `mock models: no route ${req.method} ${p}` } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

function json(res: http.ServerResponse, body: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

// `tsx test/adapters/mockModels.ts [logFile]`: run it by hand, printing its URL.
if (require.main === module) {
  void startMockModels({ logFile: process.argv[2] }).then((m) => process.stdout.write(`${m.url}\n`));
}
