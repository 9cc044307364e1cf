// The floor every agent start is measured against: the script agent driven directly over
// ACP (spawn, initialize, session/new, one prompt) with no daemon in between. Shared by the
// benches that time a start (conversations, launch, reviewConvoy).
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { REPO } from '../test/helpers/scratch';

export const SCRIPT_AGENT = path.join(REPO, 'dist', 'scriptAgent.js');

export const ms = () => Number(process.hrtime.bigint()) / 1e6;

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/**
 * Milliseconds from spawning the script agent in `cwd` until `until`: `prompt` is the first
 * prompt sent (what the daemon calls alive), `started` the first answer to it (what the
 * daemon calls a confirmed start), `idle` its end (the turn done). The agent is ended
 * before the promise resolves.
 */
export async function directAcp(
  cwd: string,
  until: 'prompt' | 'started' | 'idle' = 'idle',
  prompt = 'hi',
): Promise<number> {
  const r = await directAcpAt(cwd, until, prompt);
  return r.reached - r.spawned;
}

/**
 * directAcp, saying when (on the `ms()` clock) the agent was spawned and when `until` was
 * reached: agents started together end at the last one's `reached`, not when the last
 * one's process has exited (its teardown is no part of a start).
 */
export function directAcpAt(
  cwd: string,
  until: 'prompt' | 'started' | 'idle' = 'idle',
  prompt = 'hi',
): Promise<{ spawned: number; reached: number }> {
  const t0 = ms();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SCRIPT_AGENT], { cwd, stdio: ['pipe', 'pipe', 'inherit'] });
    child.stdin.on('error', () => undefined); // a prompt still in the pipe when `prompt` ends the agent
    let buf = '';
    let t: number | undefined;
    const send = (id: number, method: string, params: unknown) =>
      child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    const finish = () => {
      if (t !== undefined) return;
      t = ms() - t0;
      if (until === 'prompt') child.kill(); // its answer is no part of the floor
      child.stdin.end();
      child.on('close', () => resolve({ spawned: t0, reached: t0 + t! }));
    };
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const msg = JSON.parse(buf.slice(0, nl)) as { id?: number; method?: string; result?: { sessionId?: string } };
        buf = buf.slice(nl + 1);
        if (msg.id === 1) send(2, 'session/new', { cwd, mcpServers: [] });
        else if (msg.id === 2) {
          send(3, 'session/prompt', { sessionId: msg.result!.sessionId, prompt: [{ type: 'text', text: prompt }] });
          if (until === 'prompt') finish();
        } else if (msg.id === 3 || (until === 'started' && msg.method === 'session/update')) finish();
      }
    });
    child.on('error', reject);
    send(1, 'initialize', { protocolVersion: 1, clientCapabilities: {} });
  });
}
