// Runs one prompt turn of the script agent: each step in order, streaming what it does
// as ACP session updates. A cancel aborts the step in flight (a running command is
// terminated) and the turn ends `cancelled`.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AgentContext, StopReason } from '@agentclientprotocol/sdk';
import type { RunShow, Step } from './scriptSteps';

export interface TurnContext {
  client: AgentContext;
  sessionId: string;
  cwd: string;
  signal: AbortSignal;
  /** Added to run steps' environment: SCRIPT_MODEL and SCRIPT_EFFORT, what the agent was given. */
  env: Record<string, string>;
  /** The `_meta` of the client's capabilities: which terminal output key it declared. */
  clientMeta: Record<string, unknown>;
  /** Adds to the session's spend and reports its new total (a usage_update with a cost). */
  spend(usd: number): Promise<void>;
  /** Called before the process exits on an `exit` step (flush stdout). */
  exit(code: number): Promise<never>;
}

let toolSeq = 0;

/** Commands in flight, terminated when the agent shuts down. */
export const running = new Set<ChildProcess>();

export async function runSteps(steps: Step[], t: TurnContext): Promise<StopReason> {
  for (const step of steps) {
    if (t.signal.aborted) return 'cancelled';
    if ('say' in step) await say(t, step.say, step.newline !== false);
    else if ('run' in step) {
      const code = await run(t, step.run, step.show ?? 'content');
      if (t.signal.aborted) return 'cancelled';
      if (code !== 0 && step.check) {
        await say(t, `step failed: \`${step.run}\` exited ${code}`);
        return 'end_turn';
      }
    } else if ('ask' in step) {
      const outcome = await ask(t, step.ask);
      if (outcome === 'cancelled' || t.signal.aborted) return 'cancelled';
      if (outcome === 'deny') return 'end_turn';
    } else if ('sleep' in step) {
      // Show the wait in the transcript, as a real agent shows its thinking.
      await t.client.notify('session/update', {
        sessionId: t.sessionId,
        update: { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: `waiting ${step.sleep} ms\n` } },
      });
      await sleep(step.sleep, t.signal);
    } else if ('write' in step) await write(t, step.write.path, step.write.content);
    else if ('plan' in step) {
      const entries = step.plan.map((e) => ({ content: e.content, priority: 'medium', status: e.status }));
      await t.client.notify('session/update', { sessionId: t.sessionId, update: { sessionUpdate: 'plan', entries } });
    } else if ('cost' in step) await t.spend(step.cost);
    else if ('exit' in step) await t.exit(step.exit);
  }
  return t.signal.aborted ? 'cancelled' : 'end_turn';
}

let messageSeq = 0;

/** One agent message (its own message id); `newline: false` sends the text as is, as real agents do. */
export function say(t: TurnContext, text: string, newline = true): Promise<void> {
  const body = !newline || text.endsWith('\n') ? text : `${text}\n`;
  return t.client.notify('session/update', {
    sessionId: t.sessionId,
    update: {
      sessionUpdate: 'agent_message_chunk',
      messageId: `msg-${++messageSeq}`,
      content: { type: 'text', text: body },
    } as never,
  });
}

/** The `_meta` key codex-acp streams output under: the one the client declared, else the delta key. */
function outputKey(meta: Record<string, unknown>): string {
  if (meta.terminal_output_delta === true) return 'terminal_output_delta';
  if (meta.terminal_output === true) return 'terminal_output';
  return 'terminal_output_delta';
}

function notifyTool(t: TurnContext, update: Record<string, unknown>): Promise<void> {
  return t.client.notify('session/update', { sessionId: t.sessionId, update: update as never });
}

async function run(t: TurnContext, command: string, show: RunShow): Promise<number> {
  const toolCallId = `run-${++toolSeq}`;
  if (show === 'late-title') {
    await notifyTool(t, {
      sessionUpdate: 'tool_call',
      toolCallId,
      title: 'Terminal',
      kind: 'execute',
      status: 'pending',
      rawInput: {},
    });
    await notifyTool(t, {
      sessionUpdate: 'tool_call_update',
      toolCallId,
      title: `\`${command}\``,
      status: 'in_progress',
      rawInput: { command },
    });
  } else if (show === 'terminal') {
    await notifyTool(t, {
      sessionUpdate: 'tool_call',
      toolCallId,
      title: command,
      kind: 'execute',
      status: 'in_progress',
      rawInput: { command, cwd: t.cwd },
      content: [{ type: 'terminal', terminalId: toolCallId }],
      _meta: { terminal_info: { cwd: t.cwd, terminal_id: toolCallId } },
    });
  } else
    await notifyTool(t, {
      sessionUpdate: 'tool_call',
      toolCallId,
      title: command,
      kind: 'execute',
      status: 'in_progress',
      rawInput: { command },
    });
  // Terminal output streams as it comes, in order.
  let sent = Promise.resolve();
  const key = outputKey(t.clientMeta);
  const onData =
    show === 'terminal'
      ? (data: string) => {
          sent = sent.then(() =>
            notifyTool(t, {
              sessionUpdate: 'tool_call_update',
              toolCallId,
              _meta: { [key]: { data, terminal_id: toolCallId } },
            }),
          );
        }
      : undefined;
  const { code, output } = await spawnCommand(t, command, onData);
  await sent;
  const status = code === 0 ? 'completed' : 'failed';
  if (show === 'terminal') {
    await notifyTool(t, {
      sessionUpdate: 'tool_call_update',
      toolCallId,
      status,
      rawOutput: { formatted_output: output, exit_code: code },
      _meta: { terminal_exit: { exit_code: code, signal: null, terminal_id: toolCallId } },
    });
  } else {
    await notifyTool(t, {
      sessionUpdate: 'tool_call_update',
      toolCallId,
      status,
      content: output ? [{ type: 'content', content: { type: 'text', text: output } }] : [],
      rawOutput: { exitCode: code },
    });
  }
  return code;
}

function spawnCommand(
  t: TurnContext,
  command: string,
  onData?: (data: string) => void,
): Promise<{ code: number; output: string }> {
  return new Promise<{ code: number; output: string }>((resolve) => {
    const child = spawn('sh', ['-c', command], {
      cwd: t.cwd,
      env: { ...process.env, ...t.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.add(child);
    let output = '';
    const take = (d: Buffer) => {
      const text = d.toString('utf8');
      output += text;
      onData?.(text);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    const onAbort = () => child.kill('SIGTERM');
    t.signal.addEventListener('abort', onAbort, { once: true });
    child.on('error', (e) => {
      t.signal.removeEventListener('abort', onAbort);
      resolve({ code: 127, output: `${output}${e.message}\n` });
    });
    const finish = (c: number | null, sig: NodeJS.Signals | null) => {
      t.signal.removeEventListener('abort', onAbort);
      running.delete(child);
      resolve({ code: c ?? (sig ? 128 : 1), output });
    };
    // A grandchild (`sh -c 'sleep 9; …'`) can hold the pipes after the shell is gone:
    // settle on exit after a short grace instead of waiting for the pipes to close.
    child.on('exit', (c, sig) => setTimeout(() => finish(c, sig), 200).unref());
    child.on('close', finish);
  });
}

async function ask(t: TurnContext, question: string): Promise<'allow' | 'deny' | 'cancelled'> {
  const toolCallId = `ask-${++toolSeq}`;
  const res = await t.client.request('session/request_permission', {
    sessionId: t.sessionId,
    toolCall: { toolCallId, title: question, kind: 'other', status: 'pending' },
    options: [
      { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
      { optionId: 'deny', name: 'Deny', kind: 'reject_once' },
    ],
  });
  if (res.outcome.outcome === 'cancelled') return 'cancelled';
  return res.outcome.optionId === 'allow' ? 'allow' : 'deny';
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

async function write(t: TurnContext, file: string, content: string): Promise<void> {
  const abs = path.resolve(t.cwd, file);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, content);
  await t.client.notify('session/update', {
    sessionId: t.sessionId,
    update: {
      sessionUpdate: 'tool_call',
      toolCallId: `write-${++toolSeq}`,
      title: `write ${file}`,
      kind: 'edit',
      status: 'completed',
      locations: [{ path: abs }],
    },
  });
}
