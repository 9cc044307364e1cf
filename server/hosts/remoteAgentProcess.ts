// An agent on a host as the harness session sees it: stdin and stdout that outlive any one
// SSH connection. The agent runs under svc's relay there (helper/relay.ts); this end speaks
// helper/frames.ts with it through `ssh … svcHost.js launch|attach`. When the connection
// breaks, the lane shows it (hostLost), svc reconnects with backoff and attaches again; the
// relay resends the output this end does not hold and this end resends the input the agent
// did not get, so the same ACP connection goes on. Output the relay had to drop while no one
// was attached arrives as one LOST frame: requests still waiting for an answer are failed
// then, with a message saying what was lost (their answers may have been in it).
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Readable, Writable } from 'node:stream';
import type { ExitInfo } from '../util/processExit';
import { AcpLines } from './acpLines';
import { exitText, F, frame, FrameDecoder, json, lostText } from './helper/frames';
import type { LostSummary, RelayExit, RelayHello } from './helper/frames';

const STDERR_TAIL = 8 * 1024;
const ACK_EVERY_MS = 200;
const BACKOFF_MS = [1000, 2000, 4000, 8000, 15_000, 30_000];

export interface RemoteChannelPlan {
  host: string;
  /** A folder of this machine to start ssh in. */
  localCwd: string;
  logFile?: string;
  /** The ssh command that starts the agent under the relay (and attaches). */
  launch: { command: string; args: string[] };
  /** Reconnects to the host (a new shared connection, the daemon's socket forwarded again) and gives the ssh command that attaches. */
  attach(): Promise<{ command: string; args: string[] }>;
  now(): number;
  /** The connection was lost, came back, or a reconnect attempt failed. */
  onLink(event: 'lost' | 'back' | 'retry'): void;
  /** The relay dropped output while no one was attached: what, in words. */
  onLost(text: string): void;
}

type Link = 'starting' | 'attached' | 'lost' | 'ended';

export class RemoteAgentProcess {
  readonly stdin: Writable;
  readonly stdout: Readable;
  readonly closed: Promise<ExitInfo>;
  exit?: ExitInfo;
  spawnFailure?: NodeJS.ErrnoException;
  /** The agent's process group on the host (the relay's HELLO). */
  remotePgid?: number;
  link: Link = 'starting';
  lostSince?: number;
  attempt = 0;
  /** Why the connection is down (ssh's words), or why the last reconnect failed. */
  lastError = '';
  /** The relay's account of the agent's end. */
  relayExit?: RelayExit;
  /** No relay was found on reattach and none left an exit: the agent is gone without a word. */
  vanished = false;
  private child?: ChildProcessWithoutNullStreams;
  private firstPid?: number;
  private stderrTail = '';
  private log?: number;
  private decoder = new FrameDecoder();
  /** Agent output held here (the relay's offsets: OUT bytes, LOST and EXIT count 1). */
  private outOffset = 0;
  private ackTimer?: NodeJS.Timeout;
  /** Agent input not yet confirmed by the relay, from offset inBase. */
  private inFrames: { offset: number; size: number; frame: Buffer }[] = [];
  private inEnd = 0;
  private readonly lines = new AcpLines();
  private retryTimer?: NodeJS.Timeout;
  private connecting = false;
  private wasAttached = false;
  private done!: (e: ExitInfo) => void;

  constructor(private readonly plan: RemoteChannelPlan) {
    if (plan.logFile) {
      try {
        fs.mkdirSync(path.dirname(plan.logFile), { recursive: true, mode: 0o700 });
        this.log = fs.openSync(plan.logFile, 'a', 0o600);
      } catch {
        // the log is a convenience
      }
    }
    this.closed = new Promise((resolve) => (this.done = resolve));
    this.stdout = new Readable({ read: () => undefined });
    this.stdin = new Writable({
      write: (chunk: Buffer, _enc, cb) => {
        this.lines.noteInput(chunk);
        this.send(F.IN, chunk, chunk.length);
        cb();
      },
    });
    this.spawnSsh(plan.launch);
  }

  /** The local ssh client of the first connection (undefined: ssh could not be started). */
  get pid(): number | undefined {
    return this.firstPid;
  }

  get exited(): boolean {
    return this.exit !== undefined;
  }

  get attached(): boolean {
    return this.link === 'attached';
  }

  stderr(): string {
    return this.stderrTail.trim();
  }

  /** Closes the agent's stdin on the host (now, or as soon as svc is attached again). */
  closeStdin(): void {
    if (this.link !== 'ended') this.send(F.EOF, Buffer.alloc(0), 1);
  }

  /** Tries to reconnect now instead of at the next backoff step (the stop door wants the exit). */
  reconnectNow(): void {
    if (this.link !== 'lost' || this.connecting) return;
    clearTimeout(this.retryTimer);
    void this.reconnect();
  }

  /** Gives up on the agent (stopped over another connection, the exit could not be fetched). */
  abandon(exit: ExitInfo, relayExit?: RelayExit): void {
    if (this.link === 'ended') return;
    if (relayExit) this.relayExit = relayExit;
    this.finish(exit);
    if (this.child && this.child.exitCode === null && this.child.pid !== undefined) {
      try {
        process.kill(-this.child.pid, 'SIGTERM');
      } catch {
        // gone
      }
    }
  }

  /** While the connection is down: since when and what svc is doing about it. */
  hostLost(): { since: number; text: string } | null {
    if (this.link !== 'lost' || this.lostSince === undefined) return null;
    const why = this.lastError ? ` (${this.lastError})` : '';
    return {
      since: this.lostSince,
      text: `connection to host ${this.plan.host} lost${why}; the agent keeps running there and svc is reconnecting (attempt ${this.attempt + 1})`,
    };
  }

  /** The relay answered at least once (the agent was started there). */
  get everAttached(): boolean {
    return this.wasAttached;
  }

  /** How the agent ended, in words; null while it runs. */
  endText(): string | null {
    if (!this.exit) return null;
    if (this.vanished)
      return `the agent on host ${this.plan.host} is gone: svc's relay there is not running and left no exit status (was the host restarted?)`;
    const r = this.relayExit;
    const how = r
      ? exitText(r)
      : `${this.exit.signal ? `signal ${this.exit.signal}` : `exit ${this.exit.code ?? '?'}`}`;
    return r?.detached ? `the agent on host ${this.plan.host} ended while the connection was lost (${how})` : how;
  }

  // ---- the connection ----------------------------------------------------------------------

  private spawnSsh(cmd: { command: string; args: string[] }): void {
    this.decoder = new FrameDecoder();
    const child = spawn(cmd.command, cmd.args, {
      cwd: this.plan.localCwd,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child = child;
    this.firstPid ??= child.pid;
    child.stdin.on('error', () => undefined);
    child.stdout.on('data', (d: Buffer) => {
      if (this.child !== child) return;
      for (const f of this.decoder.push(d)) this.onFrame(f.type, f.body);
    });
    child.stderr.on('data', (d: Buffer) => this.noteStderr(d));
    child.on('error', (e: NodeJS.ErrnoException) => {
      if (child.pid === undefined && this.firstPid === undefined) {
        this.spawnFailure ??= e;
        this.finish({ code: null, signal: null });
      }
    });
    child.on('close', (code, signal) => this.onClose(child, code, signal));
    child.stdin.write(frame(F.HELLO, { out: this.outOffset }));
  }

  private onClose(child: ChildProcessWithoutNullStreams, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.child !== child) return;
    this.child = undefined;
    this.connecting = false;
    if (this.link === 'ended') return;
    if (this.relayExit) return this.finish(this.exit ?? { code: this.relayExit.code, signal: null });
    if (this.link === 'starting' && this.lostSince === undefined) {
      // Never attached: the launch itself failed (no relay, no directory, ssh refused); the session reports it.
      return this.finish({ code, signal });
    }
    const said = this.stderrTail
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('Warning: Permanently added'))
      .slice(-2)
      .join(' / ');
    this.lastError =
      said ||
      (code === 255
        ? 'the SSH connection closed'
        : `ssh ended with ${signal ? `signal ${signal}` : `exit ${code ?? '?'}`}`);
    if (this.link === 'attached') {
      this.link = 'lost';
      this.lostSince = this.plan.now();
      this.attempt = 0;
      this.plan.onLink('lost');
    } else {
      this.link = 'lost';
      this.plan.onLink('retry');
    }
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    const delay = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => void this.reconnect(), delay);
  }

  private async reconnect(): Promise<void> {
    if (this.link !== 'lost' || this.connecting) return;
    this.connecting = true;
    this.attempt++;
    let cmd: { command: string; args: string[] };
    try {
      cmd = await this.plan.attach();
    } catch (e) {
      this.connecting = false;
      if (this.link !== 'lost') return;
      this.lastError = (e as Error).message;
      this.plan.onLink('retry');
      return this.scheduleRetry();
    }
    if (this.link !== 'lost') {
      this.connecting = false;
      return;
    }
    this.spawnSsh(cmd);
  }

  // ---- frames ------------------------------------------------------------------------------

  private onFrame(type: number, body: Buffer): void {
    switch (type) {
      case F.HELLO:
        return this.onHello(json<RelayHello>({ type, body }));
      case F.OUT:
        this.outOffset += body.length;
        this.deliver(body);
        return this.ackSoon();
      case F.ERR:
        return this.noteStderr(body);
      case F.LOST:
        this.outOffset += 1;
        this.onGap(json<LostSummary>({ type, body }));
        return this.ackSoon();
      case F.EXIT: {
        this.outOffset += 1;
        const e = json<RelayExit>({ type, body });
        this.relayExit = e;
        this.exit = { code: e.code, signal: (e.signal as NodeJS.Signals | null) ?? null };
        this.ackNow();
        return;
      }
      case F.ACK: {
        const confirmed = json<{ in?: number }>({ type, body }).in;
        if (confirmed !== undefined) this.inFrames = this.inFrames.filter((f) => f.offset + f.size > confirmed);
        return;
      }
    }
  }

  private onHello(h: RelayHello): void {
    if (h.gone) {
      this.connecting = false;
      if (h.exit) {
        this.relayExit = { ...h.exit, detached: h.exit.detached ?? this.lostSince !== undefined };
        this.finish({ code: h.exit.code, signal: (h.exit.signal as NodeJS.Signals | null) ?? null });
      } else {
        this.vanished = true;
        this.finish({ code: null, signal: null });
      }
      return;
    }
    this.connecting = false;
    this.remotePgid = h.pgid;
    if (h.out !== undefined && h.out !== this.outOffset) {
      // The relay could not resend from what this end holds (it should not happen: it keeps all unacknowledged output).
      this.onGap(
        { bytes: 0, lines: 0, kinds: {}, from: this.plan.now(), to: this.plan.now(), bound: 0 },
        `the relay on host ${this.plan.host} could not resend its output from offset ${this.outOffset} (it resent from ${h.out})`,
      );
      this.outOffset = h.out;
    }
    // Resend the input the relay did not get, in order.
    const got = h.in ?? 0;
    this.inFrames = this.inFrames.filter((f) => f.offset + f.size > got);
    for (const f of this.inFrames) this.child?.stdin.write(f.frame);
    const wasLost = this.lostSince !== undefined;
    this.link = 'attached';
    this.wasAttached = true;
    this.attempt = 0;
    if (wasLost) {
      this.plan.onLink('back');
      this.lostSince = undefined;
      this.lastError = '';
    }
  }

  private send(type: number, body: Buffer, size: number): void {
    const f = frame(type, body);
    this.inFrames.push({ offset: this.inEnd, size, frame: f });
    this.inEnd += size;
    if (this.link === 'attached') this.child?.stdin.write(f);
  }

  private ackSoon(): void {
    this.ackTimer ??= setTimeout(() => this.ackNow(), ACK_EVERY_MS);
  }

  private ackNow(): void {
    clearTimeout(this.ackTimer);
    this.ackTimer = undefined;
    if (this.link === 'attached' || this.link === 'starting')
      this.child?.stdin.write(frame(F.ACK, { out: this.outOffset }));
  }

  // ---- the ACP lines -----------------------------------------------------------------------

  private deliver(body: Buffer): void {
    const whole = this.lines.wholeLines(body);
    if (whole) this.stdout.push(whole);
  }

  /** Output was lost: drop the half line, fail what waited for an answer that may have been in it. */
  private onGap(l: LostSummary, said?: string): void {
    const gap = this.lines.gap(
      (cut) =>
        said ??
        `svc's relay on host ${this.plan.host} kept at most ${l.bound} bytes of the agent's output while the connection was lost; ${lostText({ ...l, bytes: l.bytes + cut })} were lost ${clock(l.from) === clock(l.to) ? `at ${clock(l.from)}` : `between ${clock(l.from)} and ${clock(l.to)}`}`,
    );
    for (const answer of gap.answers) this.stdout.push(answer);
    this.plan.onLost(gap.said);
  }

  private noteStderr(d: Buffer): void {
    this.stderrTail = (this.stderrTail + d.toString('utf8')).slice(-STDERR_TAIL);
    if (this.log !== undefined) fs.writeSync(this.log, d);
  }

  private finish(exit: ExitInfo): void {
    if (this.link === 'ended') return;
    this.link = 'ended';
    this.exit ??= exit;
    clearTimeout(this.retryTimer);
    clearTimeout(this.ackTimer);
    this.lines.clear();
    this.stdout.push(null);
    if (this.log !== undefined) {
      try {
        fs.closeSync(this.log);
      } catch {
        // closed
      }
      this.log = undefined;
    }
    this.done(this.exit);
  }
}

const clock = (ms: number) => new Date(ms).toISOString().slice(11, 19) + ' UTC';
