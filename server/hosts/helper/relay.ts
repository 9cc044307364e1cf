// The relay: on the host, the process that holds an agent's stdio so the agent does not
// hang on the SSH channel (a lost connection is not a lost lane). `launch` starts
// it detached (its own session, outliving the channel) in the agent's run folder
// (~/.svc-host/agents/<daemon>/<conv>, 0700), and it starts the harness in a session of its
// own (the group the stop door signals). It listens on `sock` in that folder; the SSH
// channel runs `attach`, which only pipes bytes between the channel and the socket, and
// the daemon speaks frames.ts over it. While no one is attached the agent keeps running;
// its output is kept (outputLog.ts, bounded) and resent on the next attach, from what the
// daemon holds. The relay leaves when the daemon has the agent's exit, or after
// ORPHAN_MS with no one attached (a daemon that never came back), ending the agent first.
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import { groupMembers } from '../../util/processGroup';
import { F, frame, FrameDecoder, json } from './frames';
import type { RelayExit, RelayHello } from './frames';
import { OutputLog } from './outputLog';

/** Agent output kept for a daemon that is away (default 8 MiB; SVC_RELAY_BUFFER_BYTES). */
export const RELAY_BUFFER_BYTES = Number(process.env.SVC_RELAY_BUFFER_BYTES) || 8 * 1024 * 1024;
/** How long an agent runs with no daemon attached before the relay ends it (default 24 h; SVC_RELAY_ORPHAN_S). */
const ORPHAN_MS = (Number(process.env.SVC_RELAY_ORPHAN_S) || 24 * 3600) * 1000;
/** An attached daemon that acknowledges nothing this long while output waits is treated as gone. */
const ACK_TIMEOUT_MS = 90_000;
const STDERR_LOG_MAX = 4 * 1024 * 1024;

export const SOCKET = 'sock';
export const STATE = 'state.json';
export const EXIT = 'exit.json';

export interface RelayState {
  relayPid: number;
  agentPid: number;
  /** The agent's process group (its pid: it leads a session of its own). */
  pgid: number;
  startedAt: number;
}

export function relayMain(runDir: string, cwd: string, argv: string[]): void {
  process.chdir(runDir);
  const log = new OutputLog(RELAY_BUFFER_BYTES);
  const startedAt = Date.now();
  let client: net.Socket | null = null;
  let detachedAt = Date.now();
  let lastAckAt = Date.now();
  let inOffset = 0;
  let exit: RelayExit | null = null;
  let paused = false;
  let stderrBytes = 0;
  let stopWhy: string | undefined;
  /** A control connection asked for the stop (a new launch waits for this relay to go). */
  let stopAsked = false;
  const stderrLog = fs.openSync('stderr.log', 'a', 0o600);

  let agent: ChildProcessWithoutNullStreams;
  try {
    agent = spawn(argv[0], argv.slice(1), { cwd, env: process.env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
  } catch (e) {
    return void ended({
      code: 127,
      signal: null,
      at: Date.now(),
      why: `could not start ${argv[0]}: ${(e as Error).message}`,
    });
  }
  agent.stdin.on('error', () => undefined);
  agent.on('error', (e: NodeJS.ErrnoException) => {
    if (agent.pid !== undefined) return;
    const why =
      e.code === 'ENOENT'
        ? `${argv[0]} is not on the login PATH of this host`
        : `${argv[0]} could not be started (${e.code ?? e.message})`;
    toErr(Buffer.from(`svc: ${why}\n`));
    ended({ code: 127, signal: null, at: Date.now(), why });
  });
  if (agent.pid !== undefined) {
    const state: RelayState = { relayPid: process.pid, agentPid: agent.pid, pgid: agent.pid, startedAt };
    fs.writeFileSync(STATE, JSON.stringify(state), { mode: 0o600 });
  }
  agent.stdout.on('data', (d: Buffer) => {
    log.append(d, client === null, Date.now());
    flush();
  });
  agent.stderr.on('data', toErr);
  agent.on('close', (code, signal) => ended({ code, signal, at: Date.now() }));

  function toErr(d: Buffer): void {
    if (stderrBytes < STDERR_LOG_MAX) {
      fs.writeSync(stderrLog, d);
      stderrBytes += d.length;
    }
    client?.write(frame(F.ERR, d));
  }

  function ended(e: RelayExit): void {
    if (exit) return;
    const why = e.why ?? stopWhy;
    exit = { ...e, ...(why ? { why } : {}), ...(client === null ? { detached: true } : {}) };
    fs.writeFileSync(EXIT, JSON.stringify(exit), { mode: 0o600 });
    log.end(exit);
    flush();
    if (stopAsked) leave(false);
  }

  /** Sends what is unsent; holds the agent's output back while the attached daemon lags. */
  function flush(): void {
    if (client) for (const f of log.takeUnsent()) client.write(f);
    const over = client !== null && log.bytes > log.bound;
    if (over && !paused) agent?.stdout.pause();
    if (!over && paused) agent?.stdout.resume();
    paused = over;
  }

  function stopAgent(why: string): void {
    if (exit || agent.pid === undefined) return;
    agent.stdin.end();
    setTimeout(() => {
      if (exit) return;
      try {
        process.kill(-agent.pid!, 'SIGTERM');
      } catch {
        // already gone
      }
    }, 5000).unref();
    stopWhy = why;
  }

  const server = net.createServer((sock) => {
    const decoder = new FrameDecoder();
    let role: 'client' | 'control' | null = null;
    sock.on('error', () => undefined);
    sock.on('data', (d: Buffer) => {
      for (const f of decoder.push(d)) {
        if (role === null && f.type === F.STOP) {
          role = 'control';
          stopAsked = true;
          stopAgent(json<{ why: string }>(f).why);
          sock.end(frame(F.ACK, {}));
          if (exit) leave(false);
          return;
        }
        if (role === null && f.type === F.HELLO) {
          role = 'client';
          if (client) client.destroy();
          client = sock;
          lastAckAt = Date.now();
          const { out } = json<{ out: number }>(f);
          const resend = log.resendFrom(out);
          const hello: RelayHello = {
            pid: agent.pid,
            pgid: agent.pid,
            in: inOffset,
            out: resend ? out : log.acked,
            startedAt,
          };
          sock.write(frame(F.HELLO, hello));
          for (const r of resend ?? log.resendFrom(log.acked) ?? []) sock.write(r);
          flush();
          continue;
        }
        if (role !== 'client' || client !== sock) return;
        if (f.type === F.IN) {
          if (!agent.stdin.writableEnded) agent.stdin.write(f.body);
          inOffset += f.body.length;
          sock.write(frame(F.ACK, { in: inOffset }));
        } else if (f.type === F.EOF) {
          agent.stdin.end();
          inOffset += 1;
          sock.write(frame(F.ACK, { in: inOffset }));
        } else if (f.type === F.ACK) {
          lastAckAt = Date.now();
          log.ack(json<{ out: number }>(f).out);
          flush();
          if (log.exitAcked) leave();
        }
      }
    });
    sock.on('close', () => {
      if (client !== sock) return;
      client = null;
      detachedAt = Date.now();
    });
  });
  server.listen(SOCKET);

  const tick = setInterval(() => {
    const now = Date.now();
    if (client && log.sentEnd > log.acked && now - lastAckAt > ACK_TIMEOUT_MS) client.destroy();
    if (client || now - detachedAt < ORPHAN_MS) return;
    if (!exit) stopAgent(`ended by svc's relay: no daemon attached for ${Math.round(ORPHAN_MS / 3600_000)} h`);
    else leave(false);
  }, 15_000);

  /**
   * `clean`: the daemon has everything, so the run folder goes — once no process of the
   * agent's group outlives it (until then its state file stays, so the stop door and reap
   * still find them); else the exit file stays for a later attach.
   */
  function leave(clean = true): void {
    clearInterval(tick);
    server.close();
    client?.destroy(); // the channel ends, so the daemon's side does too
    fs.rmSync(SOCKET, { force: true });
    if (!clean) process.exit(0);
    for (const f of fs.readdirSync('.')) if (f !== STATE) fs.rmSync(f, { recursive: true, force: true });
    const gone = () => agent?.pid === undefined || groupMembers(agent.pid).length === 0;
    const done = () => {
      fs.rmSync(runDir, { recursive: true, force: true });
      process.exit(0);
    };
    if (gone()) return done();
    setInterval(() => gone() && done(), 1000);
  }
}
