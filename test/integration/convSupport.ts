// Shared fixtures of the conversation integration tests: a scratch home with one
// project, script prompts, typed reads through the real shim, and a raw RPC client for
// bursts (one connection keeps request order).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { createMessageConnection, SocketMessageReader, SocketMessageWriter } from 'vscode-jsonrpc/node';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import type { Activity } from '../../shared/activity';
import type { AgentStatus, ConversationInfo } from '../../shared/protocol/conversations';
import { eventually, git, makeScratch, REPO } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';

export const SCRIPT_AGENT = path.join(REPO, 'dist', 'scriptAgent.js');

export interface ConvScratch extends Scratch {
  proj: string;
  /** Runs `svc` and asserts exit 0; returns stdout. */
  ok(args: string[], opts?: { env?: NodeJS.ProcessEnv; cwd?: string }): Promise<string>;
  show(ref: string | number): Promise<ConversationInfo>;
  status(): Promise<AgentStatus[]>;
  activity(ref: string | number): Promise<Activity>;
  waitActivity(ref: string | number, want: Activity, timeoutMs?: number): Promise<ConversationInfo>;
  log(ref: string | number, lines?: number): Promise<string>;
  /** Starts a script conversation without waiting; returns its id. */
  start(prompt: string, extra?: string[]): Promise<number>;
}

export async function convScratch(
  name: string,
  opts: { config?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<ConvScratch> {
  const s = makeScratch(name);
  Object.assign(s.env, opts.env ?? {});
  fs.mkdirSync(s.svcHome, { recursive: true, mode: 0o700 });
  if (opts.config) fs.writeFileSync(path.join(s.svcHome, 'config.yaml'), opts.config);
  const proj = path.join(s.home, 'proj');
  fs.mkdirSync(proj);
  git(proj, s.env, 'init', '--quiet', '--initial-branch=main');
  const c = s as ConvScratch;
  c.proj = proj;
  c.ok = async (args, o = {}) => {
    const r = await s.svc(args, o);
    assert.equal(r.code, 0, `svc ${args.join(' ')} exited ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
    return r.stdout;
  };
  c.show = async (ref) => JSON.parse(await c.ok(['conv', 'show', String(ref), '--json'])) as ConversationInfo;
  c.status = async () => JSON.parse(await c.ok(['status', '--json'])) as AgentStatus[];
  c.activity = async (ref) => (await c.show(ref)).activity;
  c.waitActivity = async (ref, want, timeoutMs = 20_000) => {
    let last: ConversationInfo | undefined;
    try {
      return await eventually(
        async () => {
          last = await c.show(ref);
          return last.activity === want ? last : undefined;
        },
        timeoutMs,
        `#${ref} to be ${want}`,
      );
    } catch (e) {
      throw new Error(
        `${(e as Error).message}; last seen: ${JSON.stringify(last)}\nlog:\n${await c.log(ref).catch(() => '')}`,
      );
    }
  };
  c.log = (ref, lines = 1000) => c.ok(['conv', 'log', String(ref), '--lines', String(lines)]);
  c.start = async (prompt, extra = []) => {
    const out = await c.ok([
      'conv',
      'new',
      '--project',
      'p1',
      '--harness',
      'script',
      '--model',
      'm1',
      '--prompt',
      prompt,
      '--no-wait',
      '--json',
      ...extra,
    ]);
    return (JSON.parse(out) as { conversation: ConversationInfo }).conversation.id;
  };
  await c.ok(['project', 'add', 'p1', proj]);
  return c;
}

/** A prompt holding one svc-script block. */
export function script(...steps: string[]): string {
  return ['```svc-script', ...steps, '```'].join('\n');
}

/** A raw JSON-RPC connection to the scratch daemon (already running). */
export async function rpc(s: Scratch): Promise<MessageConnection & { end(): void }> {
  const d = JSON.parse(fs.readFileSync(path.join(s.svcHome, 'server.json'), 'utf8')) as { socketPath: string };
  const socket = net.connect(d.socketPath);
  await new Promise<void>((res, rej) => socket.once('connect', () => res()).once('error', rej));
  const c = createMessageConnection(new SocketMessageReader(socket), new SocketMessageWriter(socket));
  c.listen();
  return Object.assign(c, {
    end() {
      c.dispose();
      socket.destroy();
    },
  });
}

export function discovery(s: Scratch): { pid: number; httpPort: number; token: string } {
  return JSON.parse(fs.readFileSync(path.join(s.svcHome, 'server.json'), 'utf8'));
}
