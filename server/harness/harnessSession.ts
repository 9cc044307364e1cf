// One live ACP conversation: the agent process, the SDK client connection, and the live
// facts (alive, working, needs-you, queued prompts) built from a tap on the decoded
// stream in wire order (docs/acp.md rule 1). The startup sequence turns every failure into a
// spawn error; the stop door is `stop()` (docs/architecture.md §6).
import * as fs from 'node:fs';
import { Readable, Writable } from 'node:stream';
import { client, ndJsonStream, RequestError } from '@agentclientprotocol/sdk';
import type { AnyMessage, ClientConnection, Stream } from '@agentclientprotocol/sdk';
import { askNotReadyError } from './harnessRefusals';
import { logger } from '../util/log';
import { AgentProcess, findCommand } from './agentProcess';
import { describeExit } from '../util/processExit';
import { groupMembers } from '../util/processGroup';
import { askFromRequest, cancelledResponse, responseFor } from './asks';
import type { Answer, Ask, AskResponse } from './asks';
import { applyModelAndEffort } from './modelConfig';
import { openSession, setPermissionMode } from './openSession';
import type { OpenSessionIo } from './openSession';
import type { PermissionPolicy, Profile } from './profiles';
import * as errs from './spawnErrors';
import { SpawnError } from './spawnErrors';
import { tapStream } from './wireTap';
import type { RemoteRun } from '../hosts/remoteAgent';
import { RemoteAgentProcess } from '../hosts/remoteAgentProcess';
import { stopOnHost } from '../hosts/remoteStop';
import { SSH_FAILED } from '../hosts/sshTransport';
import type { Direction } from './wireTap';

const log = logger('harness');

// gemini answers initialize only after ~20 s on a busy two-core machine (it relaunches its
// own node); a non-ACP command is still caught, just later.
export const INITIALIZE_TIMEOUT_MS = 90_000;
export const SESSION_TIMEOUT_MS = 120_000;

export interface SessionEvents {
  transcript(kind: string, payload: unknown): void;
  alive(sessionId: string): void;
  spawnError(message: string): void;
  /** The agent is gone after having been alive (or was stopped while starting). */
  ended(exitStatus: string): void;
  /** working, needs-you, queue or idle changed. */
  state(): void;
  turnEnded(stopReason: string | undefined, error: string | undefined): void;
  usage(u: { used?: number; size?: number; cost?: { amount: number; currency: string } | null }): void;
  /** Whether the next queued message may start a turn now (false: it stays queued until kick()). */
  mayPrompt?(): boolean;
}

export interface SessionPlan {
  profile: Profile;
  cwd: string;
  /** The agent's environment and the folders outside cwd it must be able to write (git metadata, svc's socket, for sandboxed agents), once known. */
  prepared: Promise<{ env: NodeJS.ProcessEnv; writableDirs: string[]; sandbox?: SandboxWrap }>;
  model: string;
  effort: string | null;
  logFile?: string;
  configFileShown: string;
  clientVersion: string;
  /** The first message (a new conversation) — absent on resume by load/resume. */
  firstPrompt?: string;
  /** Whose approvals: `ask` sends them to svc (a person's conversation), `auto` lets the agent act (a lane). */
  permissions: PermissionPolicy;
  /** Resume: reattach to `sessionId` if the agent offers it, else a fresh session told `continuation`. */
  resume?: { sessionId: string | null; continuation: string };
  /** The agent runs on a host over SSH (server/hosts/remoteAgent.ts); absent: on this machine. */
  remote?: RemoteRun;
}

/** Puts the agent's command inside the lane's sandbox, or says why the sandbox cannot start here. */
export type SandboxWrap = (command: string, args: string[]) => Promise<{ ok: true; command: string; args: string[] } | { ok: false; reason: string; fix: string }>;

type Phase = 'starting' | 'alive' | 'dead';

/** Updates that belong to a prompt turn (session-level ones like available_commands_update do not). */
const TURN_UPDATES = new Set(['agent_message_chunk', 'agent_thought_chunk', 'tool_call', 'tool_call_update', 'plan', 'usage_update', 'user_message_chunk']);
type JsonRpcId = string | number | null;

export class HarnessSession {
  phase: Phase = 'starting';
  /** A session/prompt is in flight (seen on the wire). */
  working = false;
  idleSince?: number;
  lastTurnEndedAt?: number;
  sessionId?: string;
  /**
   * The start is confirmed: the session is open and the first prompt got past the
   * agent's auth gate (Claude answers `-32000` only there), or there is no first prompt.
   */
  confirmed = false;
  readonly asks = new Map<string, Ask>();
  private readonly queue: string[] = [];
  private proc?: AgentProcess | RemoteAgentProcess;
  private conn?: ClientConnection;
  private promptId?: string;
  private firstPromptId?: string;
  private replaying = false;
  /** The next prompt sent is the conversation's first (auth errors on it are spawn errors). */
  private nextPromptIsFirst = false;
  private stopping = false;
  private failed = false;
  /** The last stop could not ask the agent's host (unreachable): why. */
  stopUnreachable?: string;
  /** Waits of the stop door, woken at once when the turn ends or the process exits (else they poll). */
  private readonly wakers = new Set<() => void>();

  constructor(
    private readonly plan: SessionPlan,
    private readonly events: SessionEvents,
    private readonly now: () => number,
  ) {}

  get alive(): boolean {
    return this.phase === 'alive';
  }

  /** Live processes left in the agent's process group (the agent itself included while it runs); an agent on a host: remoteProcesses. */
  groupPids(): number[] {
    const pid = this.proc instanceof AgentProcess ? this.proc.pid : undefined;
    return pid === undefined ? [] : groupMembers(pid);
  }

  /** An agent on a host whose connection is down: since when, and what svc does about it. */
  hostLost(): { since: number; text: string } | null {
    return this.phase !== 'dead' && this.proc instanceof RemoteAgentProcess ? this.proc.hostLost() : null;
  }

  get needsYou(): boolean {
    return this.asks.size > 0;
  }

  get queued(): number {
    return this.queue.length;
  }

  openAsk(): Ask | undefined {
    return this.asks.values().next().value;
  }

  // ---- startup ---------------------------------------------------------------------

  /** Runs the startup sequence; never throws (failures become the spawn error). */
  async run(): Promise<void> {
    try {
      await this.startup();
    } catch (e) {
      if (e instanceof SpawnError) this.fail(e.message);
      else {
        log.error('startup failed', e);
        this.fail(`harness '${this.plan.profile.name}': ${(e as Error)?.message ?? String(e)}`);
      }
    }
  }

  private async startup(): Promise<void> {
    const { profile, cwd, configFileShown: cfg, remote } = this.plan;
    const { env, writableDirs, sandbox } = await this.plan.prepared;
    let proc: AgentProcess | RemoteAgentProcess;
    if (remote) {
      // On a host: the directory and the harness are checked there, by the shell and the relay that start it.
      if (this.stopping) return this.die('stopped before it started');
      try {
        proc = await remote.start(profile, {
          logFile: this.plan.logFile,
          now: this.now,
          onLink: (e) => this.onLink(e),
          onLost: (text) => this.onOutputLost(text),
        });
      } catch (e) {
        throw new SpawnError(`host ${remote.host}: ${(e as Error).message}`);
      }
      this.proc = proc;
      // Stopped while it was being started there: end it there too.
      if (this.stopping) return void this.stop({ timeoutMs: 10_000 });
    } else {
      if (!isDir(cwd)) throw errs.missingCwd(profile, cwd);
      const command = findCommand(profile.command, env.PATH, cwd);
      if (!command) throw errs.commandNotFound(profile, cfg);
      let spawned = { command, args: profile.args };
      if (sandbox) {
        const wrapped = await sandbox(command, profile.args);
        if (!wrapped.ok) throw errs.sandboxUnavailable(profile, wrapped.reason, wrapped.fix);
        spawned = wrapped;
      }
      if (this.stopping) return this.die('stopped before it started');
      proc = new AgentProcess(spawned.command, spawned.args, { cwd, env, logFile: this.plan.logFile });
      this.proc = proc;
    }
    void proc.closed.then((exit) => this.gone(this.describe(exit)));
    if (proc instanceof AgentProcess) proc.child.once('exit', () => this.wake());
    if (proc.pid === undefined) {
      await proc.closed;
      const code = proc.spawnFailure?.code ?? 'unknown';
      throw code === 'ENOENT' ? errs.commandNotFound(profile, cfg) : errs.notExecutable(profile, cfg, code);
    }

    const raw = ndJsonStream(Writable.toWeb(proc.stdin) as WritableStream<Uint8Array>, Readable.toWeb(proc.stdout) as unknown as ReadableStream<Uint8Array>);
    const stream: Stream = tapStream(raw, (dir, msg) => {
      try {
        this.onWire(dir, msg);
      } catch (e) {
        log.error('tap failed', e);
      }
    });
    const app = client({ name: 'svc' })
      .onRequest('session/request_permission', (ctx) => this.askHandler(ctx.requestId, ctx.signal) as Promise<never>)
      .onRequest('elicitation/create', (ctx) => this.askHandler(ctx.requestId, ctx.signal) as Promise<never>)
      .onNotification('session/update', () => undefined)
      .onNotification('elicitation/complete', () => undefined);
    const conn = app.connect(stream);
    this.conn = conn;
    void conn.closed.then(() => this.gone(proc.exit ? this.describe(proc.exit) : 'connection closed'));

    const init = await this.step('initialize', INITIALIZE_TIMEOUT_MS, () =>
      conn.agent.request('initialize', {
        protocolVersion: 1,
        // `_meta.terminal_output_delta`: codex-acp streams command output as `_meta` chunks
        // to append (its `terminal` content block only names the stream); svc renders them.
        // No `terminal`/`fs`: agents run commands in their own shell, svc serves no terminal/*.
        clientCapabilities: { elicitation: { form: {} }, _meta: { terminal_output_delta: true } },
        clientInfo: { name: 'svc', version: this.plan.clientVersion },
      }),
    );
    const methods = (init.authMethods ?? []).map((m) => m.id);
    if (profile.authMethod && methods.includes(profile.authMethod)) {
      await this.step(`authenticate (${profile.authMethod})`, SESSION_TIMEOUT_MS, () => conn.agent.request('authenticate', { methodId: profile.authMethod! }));
    }

    // Sandboxed agents (codex) may write only their workspace: name the other places a lane
    // writes (ACP `additionalDirectories`), where the agent supports them.
    const caps = init.agentCapabilities as { sessionCapabilities?: { additionalDirectories?: unknown } } | undefined;
    const extraDirs = caps?.sessionCapabilities?.additionalDirectories && writableDirs.length ? { additionalDirectories: writableDirs } : {};
    const resume = this.plan.resume;
    const io: OpenSessionIo = {
      conn,
      capabilities: init.agentCapabilities,
      cwd,
      extraDirs,
      resume,
      preferFresh: profile.preferFreshSession === true,
      step: (name, send) => this.step(name, SESSION_TIMEOUT_MS, send),
      transcript: (kind, payload) => this.events.transcript(kind, payload),
      replaying: (on) => (this.replaying = on),
      agentExited: () => this.proc?.exited === true,
    };
    const opened = await openSession(io);
    const { sessionId, options, modes } = opened;
    this.sessionId = sessionId;
    const firstPrompt = opened.fresh && resume ? resume.continuation : this.plan.firstPrompt;
    const { notices } = await this.step('model and effort', SESSION_TIMEOUT_MS, () =>
      applyModelAndEffort(conn.agent, sessionId, options, profile, this.plan.model, this.plan.effort),
    );
    for (const text of notices) this.events.transcript('notice', { text });
    await setPermissionMode(io, sessionId, modes, profile.modes[this.plan.permissions], profile.name);
    if (this.stopping || this.phase === 'dead') return;

    this.phase = 'alive';
    this.idleSince = this.now();
    if (firstPrompt !== undefined) this.queue.unshift(firstPrompt);
    this.nextPromptIsFirst = firstPrompt !== undefined && !resume;
    if (!this.nextPromptIsFirst) this.confirmed = true;
    // Send before announcing, so no reader sees an idle moment before the first turn.
    this.drain();
    this.events.alive(sessionId);
  }

  /** Awaits one startup request, turning death, timeouts and errors into spawn errors. */
  private async step<T>(name: string, timeoutMs: number, send: () => Promise<T>): Promise<T> {
    const { profile, configFileShown: cfg } = this.plan;
    const proc = this.proc!;
    let timer: NodeJS.Timeout | undefined;
    const died = Symbol('died');
    const timedOut = Symbol('timeout');
    try {
      const r = await Promise.race([
        send(),
        proc.closed.then(() => died),
        this.conn!.closed.then(() => died),
        new Promise<symbol>((res) => (timer = setTimeout(() => res(timedOut), timeoutMs))),
      ]);
      if (r === died) throw await this.earlyExit(name);
      if (r === timedOut) throw errs.noAnswer(profile, name, Math.round(timeoutMs / 1000));
      return r as T;
    } catch (e) {
      if (e instanceof SpawnError) throw e;
      if (proc.exited || this.conn!.signal.aborted) throw await this.earlyExit(name);
      if (e instanceof RequestError) throw errs.stepFailed(profile, cfg, name, e.message, e.code);
      throw e;
    } finally {
      clearTimeout(timer);
    }
  }

  private async earlyExit(step: string): Promise<SpawnError> {
    const proc = this.proc!;
    // The connection closes ~2 ms before `exit`; wait briefly for the exit code and stderr.
    await Promise.race([proc.closed, new Promise((r) => setTimeout(r, 1000))]);
    if (this.stopping) return new SpawnError('');
    const remote = this.plan.remote;
    if (remote && proc instanceof RemoteAgentProcess && !proc.everAttached && proc.exit?.code === SSH_FAILED) return new SpawnError(`${step}: ${remote.lost(proc.stderr())}`);
    if (remote && proc instanceof RemoteAgentProcess && proc.vanished) return new SpawnError(`${step}: ${proc.endText()}`);
    if (remote && proc instanceof RemoteAgentProcess && !proc.everAttached && [96, 97, 98].includes(proc.exit?.code ?? 0)) {
      return new SpawnError(
        `host ${remote.host}: ${
          proc
            .stderr()
            .split('\n')
            .filter((l) => l.startsWith('svc:'))
            .join(' ') || `the agent could not start (exit ${proc.exit!.code})`
        }`,
      );
    }
    return errs.exitedEarly(this.plan.profile, this.plan.configFileShown, step, proc.exit ? describeExit(proc.exit) : 'connection closed', proc.stderr());
  }

  private fail(message: string): void {
    if (this.stopping && !this.failed) {
      // Stopped on purpose while starting: an end, not a failure.
      return this.die('stopped before it started');
    }
    if (this.failed) return;
    this.failed = true;
    this.events.spawnError(message);
    this.die(undefined);
    void this.stop({ timeoutMs: 10_000 });
  }

  // ---- the wire ----------------------------------------------------------------------

  private onWire(dir: Direction, msg: AnyMessage): void {
    const m = msg as { id?: JsonRpcId; method?: string; params?: Record<string, unknown>; result?: unknown; error?: { code: number; message: string } };
    const hasId = m.id !== undefined && m.id !== null;
    const key = hasId ? JSON.stringify(m.id) : '';
    if (dir === 'out') {
      if (m.method === 'session/prompt' && hasId) {
        this.promptId = key;
        if (this.nextPromptIsFirst) {
          this.firstPromptId = key;
          this.nextPromptIsFirst = false;
        }
        this.working = true;
        this.idleSince = undefined;
        const prompt = (m.params?.prompt ?? []) as { type: string; text?: string }[];
        this.events.transcript('prompt', { text: prompt.map((b) => b.text ?? '').join('') });
        this.events.state();
      } else if (!m.method && hasId && this.asks.has(key)) {
        const ask = this.asks.get(key)!;
        this.asks.delete(key);
        this.events.transcript('answer', { id: m.id, summary: ask.summary ?? 'answered', result: m.result ?? null });
        this.becameIdleMaybe();
        this.events.state();
      } else if (m.method === 'session/cancel') {
        this.events.transcript('lifecycle', { event: 'cancel', text: 'turn cancelled' });
      }
      return;
    }
    if (!this.confirmed && this.phase === 'alive' && this.firstPromptId !== undefined && this.answersFirstTurn(m, key)) {
      this.confirmed = true;
      this.events.state();
    }
    if (m.method && hasId) {
      const ask = askFromRequest(key, m.method, m.params ?? {}, this.now());
      if (ask) {
        this.asks.set(key, ask);
        this.idleSince = undefined;
        this.events.transcript(m.method === 'elicitation/create' ? 'elicitation' : 'permission', { id: m.id, title: ask.info.title, kind: ask.info.kind, params: m.params });
        this.events.state();
      }
    } else if (m.method === 'session/update') {
      const update = (m.params?.update ?? {}) as { sessionUpdate?: string; used?: number; size?: number; cost?: { amount: number; currency: string } | null };
      if (update.sessionUpdate === 'usage_update') this.events.usage(update);
      if (!this.replaying && update.sessionUpdate) this.events.transcript(update.sessionUpdate, update);
    } else if (m.method === '$/cancel_request') {
      const id = (m.params as { requestId?: JsonRpcId } | undefined)?.requestId;
      if (id !== undefined) this.withdraw(JSON.stringify(id), 'the agent withdrew it');
    } else if (!m.method && hasId && key === this.promptId) {
      this.turnEnd(m.result as { stopReason?: string } | undefined, m.error);
    }
  }

  /** Evidence that the first prompt got past the agent's auth gate: turn output, an ask, or its answer (not -32000). */
  private answersFirstTurn(m: { method?: string; params?: Record<string, unknown>; error?: { code: number } }, key: string): boolean {
    if (!m.method) return key === this.firstPromptId && m.error?.code !== -32000;
    if (m.method === 'session/request_permission' || m.method === 'elicitation/create') return true;
    const kind = (m.params?.update as { sessionUpdate?: string } | undefined)?.sessionUpdate;
    return m.method === 'session/update' && TURN_UPDATES.has(kind ?? '');
  }

  private turnEnd(result: { stopReason?: string } | undefined, error: { code: number; message: string } | undefined): void {
    const wasFirst = this.firstPromptId === this.promptId;
    this.promptId = undefined;
    this.working = false;
    this.wake();
    this.lastTurnEndedAt = this.now();
    for (const k of [...this.asks.keys()]) this.withdraw(k, 'the turn ended');
    this.events.transcript('turn_end', error ? { error: error.message, code: error.code } : { stopReason: result?.stopReason ?? null });
    if (wasFirst && error?.code === -32000) {
      this.fail(errs.authRequired(this.plan.profile, this.plan.configFileShown, error.message).message);
      return;
    }
    this.becameIdleMaybe();
    this.events.turnEnded(result?.stopReason, error?.message);
    this.events.state();
    this.drain();
  }

  private becameIdleMaybe(): void {
    if (this.phase === 'alive' && !this.working && this.asks.size === 0 && this.idleSince === undefined) this.idleSince = this.now();
  }

  private askHandler(requestId: JsonRpcId, signal: AbortSignal): Promise<AskResponse> {
    const ask = this.asks.get(JSON.stringify(requestId));
    if (!ask) return Promise.resolve({ outcome: { outcome: 'cancelled' } });
    return new Promise((resolve) => {
      ask.settle = resolve;
      signal.addEventListener('abort', () => this.withdraw(ask.key, 'the agent withdrew it'), { once: true });
    });
  }

  private withdraw(key: string, why: string): void {
    const ask = this.asks.get(key);
    if (!ask) return;
    this.asks.delete(key);
    this.events.transcript('withdrawn', { why });
    ask.settle?.(cancelledResponse(ask));
    this.becameIdleMaybe();
    this.events.state();
  }

  // ---- prompts, answers --------------------------------------------------------------

  /** Queues `text`; it is sent at once when the agent is idle. Returns how many are ahead of it. */
  tell(text: string): { delivered: 'now' | 'queued'; ahead: number } {
    const firstPending = this.phase === 'starting' && this.plan.firstPrompt !== undefined ? 1 : 0;
    const ahead = this.queue.length + (this.working ? 1 : 0) + firstPending;
    this.queue.push(text);
    this.drain();
    this.events.state();
    return ahead === 0 && this.phase === 'alive' ? { delivered: 'now', ahead: 0 } : { delivered: 'queued', ahead };
  }

  private drain(): void {
    if (this.phase !== 'alive' || this.working || this.stopping || this.queue.length === 0) return;
    if (this.events.mayPrompt && !this.events.mayPrompt()) return;
    const text = this.queue.shift()!;
    const conn = this.conn!;
    // Mark working now so a tell arriving before the tap sees the request queues behind it.
    this.working = true;
    this.idleSince = undefined;
    conn.agent.request('session/prompt', { sessionId: this.sessionId!, prompt: [{ type: 'text', text }] }).catch((e) => {
      if (!(e instanceof RequestError)) log.warn(`prompt failed: ${(e as Error).message}`);
    });
  }

  /** Delivers a queued message held back by mayPrompt, once it allows turns again. */
  kick(): void {
    this.drain();
  }

  /** Cancels the turn in progress (session/cancel; open asks are answered cancelled), leaving the agent running. */
  cancelTurn(): boolean {
    if (!this.working || !this.sessionId || !this.conn || this.conn.signal.aborted) return false;
    this.conn.agent.notify('session/cancel', { sessionId: this.sessionId }).catch(() => undefined);
    for (const k of [...this.asks.keys()]) this.withdraw(k, 'the turn was cancelled');
    return true;
  }

  /** Answers the open ask; undefined when there is none (the caller refuses, naming the conversation). */
  answer(a: Answer): Ask | undefined {
    const ask = this.openAsk();
    if (!ask) return undefined;
    const { response, summary } = responseFor(ask, a);
    if (!ask.settle) throw askNotReadyError();
    ask.summary = summary;
    ask.settle(response);
    return ask;
  }

  // ---- stop door and death -----------------------------------------------------------

  /**
   * The stop door: cancel the turn → answer open asks cancelled → close stdin → wait →
   * SIGTERM the process group. SIGKILL only when `kill` (a person escalating).
   */
  async stop(opts: { timeoutMs?: number; kill?: boolean } = {}): Promise<boolean> {
    const timeoutMs = opts.timeoutMs ?? 10_000;
    const deadline = Date.now() + timeoutMs;
    const proc = this.proc;
    if (!this.stopping) {
      this.stopping = true;
      this.queue.length = 0;
      if (this.working && this.sessionId && this.conn && !this.conn.signal.aborted) this.conn.agent.notify('session/cancel', { sessionId: this.sessionId }).catch(() => undefined);
      for (const k of [...this.asks.keys()]) this.withdraw(k, 'the conversation was stopped');
      // Not spawned yet (still reading its git facts, or it failed): nothing to stop.
      if (this.phase === 'starting' && !proc) this.die('stopped before it started');
    }
    if (!proc || proc.pid === undefined) return true;
    // Give a cancelled turn a moment to answer, then EOF: ACP agents exit on stdin EOF.
    await this.waitFor(() => !this.working || proc.exited, Math.min(1000, timeoutMs / 4));
    proc.closeStdin();
    if (proc instanceof RemoteAgentProcess) return this.stopRemote(proc, deadline, opts.kill === true);
    await this.waitFor(() => proc.exited, Math.min(2000, Math.max(0, deadline - Date.now())));
    // A group left with zombies only takes the signal as a no-op: asking kill(-pgid, 0) spares
    // a read of every process before the wait below does one.
    if (!proc.exited || proc.groupExists()) {
      proc.signalGroup('SIGTERM');
      await this.waitFor(() => proc.exited && !proc.groupAlive(), Math.max(0, deadline - Date.now()));
    }
    if ((!proc.exited || proc.groupAlive()) && opts.kill) {
      proc.signalGroup('SIGKILL');
      await this.waitFor(() => proc.exited && !proc.groupAlive(), 5000);
    }
    // The session ends on the pipes' close, just after `exit`: whoever stopped it reads it ended (`--replace`).
    if (proc.exited) await this.waitFor(() => this.phase === 'dead', 2000).then(() => this.gone(this.describe(proc.exit!)));
    return proc.exited && !proc.groupAlive();
  }

  /** The rest of the stop door for an agent on a host (hosts/remoteStop.ts). */
  private async stopRemote(proc: RemoteAgentProcess, deadline: number, kill: boolean): Promise<boolean> {
    const r = await stopOnHost(proc, this.plan.remote!, deadline, kill);
    this.stopUnreachable = r.unreachable;
    return r.stopped;
  }

  /** Processes left of the agent's group on its host (empty for a local agent: see groupPids). */
  async remoteProcesses(): Promise<{ pid: number; command: string }[]> {
    if (!this.plan.remote || !(this.proc instanceof RemoteAgentProcess)) return [];
    return (await this.plan.remote.status()).processes;
  }

  /** The connection carrying an agent on a host was lost, came back, or a retry failed. */
  private onLink(e: 'lost' | 'back' | 'retry'): void {
    const proc = this.proc as RemoteAgentProcess;
    const host = this.plan.remote!.host;
    if (e === 'lost') this.events.transcript('notice', { text: proc.hostLost()?.text ?? `connection to host ${host} lost; svc is reconnecting` });
    if (e === 'back') this.events.transcript('notice', { text: `reconnected to host ${host}: the agent kept running there and the conversation goes on` });
    this.events.state();
  }

  /** Output of the agent on a host was lost while disconnected: say what, and end the turn on both sides. */
  private onOutputLost(text: string): void {
    this.events.transcript('notice', { text: `${text}; requests waiting for an answer were failed${this.working ? ' and the turn is cancelled' : ''}` });
    if (this.working && this.sessionId && this.conn && !this.conn.signal.aborted) this.conn.agent.notify('session/cancel', { sessionId: this.sessionId }).catch(() => undefined);
  }

  /** How the agent ended; for an agent on a host, what the relay there said (or the connection lost before it started). */
  private describe(exit: { code: number | null; signal: NodeJS.Signals | null }): string {
    const proc = this.proc;
    if (this.plan.remote && proc instanceof RemoteAgentProcess) {
      if (!proc.everAttached && exit.code === SSH_FAILED && !this.stopping) return this.plan.remote.lost(proc.stderr());
      return proc.endText() ?? describeExit(exit);
    }
    return describeExit(exit);
  }

  /** Dead = connection closed OR child exited, whichever comes first (docs/acp.md rule 3). */
  private gone(exitStatus: string): void {
    if (this.phase === 'dead') return;
    if (this.phase === 'starting' && !this.stopping) return; // the startup step reports it as a spawn error
    this.die(exitStatus);
  }

  private die(exitStatus: string | undefined): void {
    if (this.phase === 'dead') return;
    // An agent that was alive and ends without a spawn error did start (a script `exit`).
    if (this.phase === 'alive' && !this.failed) this.confirmed = true;
    this.phase = 'dead';
    this.working = false;
    this.wake();
    this.idleSince = undefined;
    for (const ask of this.asks.values()) ask.settle?.(cancelledResponse(ask));
    this.asks.clear();
    if (this.queue.length) this.events.transcript('notice', { text: `${this.queue.length} queued message(s) were not delivered` });
    this.queue.length = 0;
    if (exitStatus !== undefined) this.events.ended(exitStatus);
    this.events.state();
  }

  /** The exit status once known (after `ended` the code may still be on its way). */
  exitStatus(): string | undefined {
    return this.proc?.exit ? this.describe(this.proc.exit) : undefined;
  }

  get processGone(): Promise<unknown> {
    return this.proc?.closed ?? Promise.resolve();
  }

  private wake(): void {
    for (const w of [...this.wakers]) w();
  }

  /**
   * Waits until `cond` holds or `ms` pass. Checked again at once when the turn ends or the
   * process exits, else polled: soon at first (a signalled process group is usually gone
   * within milliseconds), then every 25 ms (no event tells when a group's last process exits).
   */
  private async waitFor(cond: () => boolean, ms: number): Promise<boolean> {
    const end = Date.now() + ms;
    for (let n = 0; !cond(); n++) {
      const left = end - Date.now();
      if (left <= 0) return false;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.wakers.delete(done);
          resolve();
        };
        const timer = setTimeout(done, Math.min(left, POLL_MS[Math.min(n, POLL_MS.length - 1)]));
        this.wakers.add(done);
      });
    }
    return true;
  }
}

/** The stop door's poll intervals: the first checks come soon, then every 25 ms. */
const POLL_MS = [5, 10, 25];

function isDir(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}
