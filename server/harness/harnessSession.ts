// One live ACP conversation: the agent (behind its transport, agentTransport.ts: here or on
// a host), the SDK client connection, and the live facts (alive, working, needs-you, queued
// prompts) built from a tap on the decoded stream in wire order (docs/acp.md rule 1). The
// startup (sessionStartup.ts) turns every failure into a spawn error; the stop door is
// `stop()` (docs/architecture.md §6), finished by the transport.
import { refusedWriteLine, refusedWriteNotice } from '../sandbox/refusedWrite';
import { RequestError } from '@agentclientprotocol/sdk';
import type { AnyMessage, ClientConnection } from '@agentclientprotocol/sdk';
import { askNotReadyError } from './harnessRefusals';
import { logger } from '../util/log';
import type { AgentLauncher, AgentTransport, SandboxWrap } from './agentTransport';
import { askFromRequest, cancelledResponse, responseFor } from './asks';
import type { Answer, Ask, AskResponse } from './asks';
import type { PermissionPolicy, Profile } from './profiles';
import * as errs from './spawnErrors';
import { SpawnError } from './spawnErrors';
import { connectAgent, handshake, startupStep } from './sessionStartup';
import type { JsonRpcId } from './sessionStartup';
import { StopDoorWaits } from './stopDoorWaits';
import type { Direction } from './wireTap';

export type { SandboxWrap } from './agentTransport';
export { INITIALIZE_TIMEOUT_MS, SESSION_TIMEOUT_MS } from './sessionStartup';

const log = logger('harness');

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
  /** Where and how the agent starts: on this machine (localAgent.ts) or on a host (remoteAgentTransport.ts). */
  agent: AgentLauncher;
  /**
   * Resolves once the agent's folder is complete (a lane's worktree checked out); absent: it
   * is. The agent starts after it, or, where its profile allows, before it (session/new waits).
   * A rejection means the folder was not made: the agent is ended without a spawn error of its
   * own (the launch records why).
   */
  workspace?: Promise<void>;
}

/** The agent's folder was not made (the launch that made it reports why). */
class WorkspaceNotMade extends Error {}

type Phase = 'starting' | 'alive' | 'dead';

/** Updates that belong to a prompt turn (session-level ones like available_commands_update do not). */
const TURN_UPDATES = new Set([
  'agent_message_chunk',
  'agent_thought_chunk',
  'tool_call',
  'tool_call_update',
  'plan',
  'usage_update',
  'user_message_chunk',
]);

export class HarnessSession {
  phase: Phase = 'starting';
  /** A session/prompt is in flight (seen on the wire). */
  working = false;
  idleSince?: number;
  lastTurnEndedAt?: number;
  /** When the agent last showed output or tool activity (or its turn began): a stall is measured from it. */
  outputAt?: number;
  sessionId?: string;
  /**
   * The start is confirmed: the session is open and the first prompt got past the
   * agent's auth gate (Claude answers `-32000` only there), or there is no first prompt.
   */
  confirmed = false;
  readonly asks = new Map<string, Ask>();
  private readonly queue: string[] = [];
  /** The message of the turn in progress (or the last one): what a daemon stop interrupted. */
  turnPrompt?: string;
  private proc?: AgentTransport;
  private conn?: ClientConnection;
  private promptId?: string;
  private firstPromptId?: string;
  private replaying = false;
  /** It runs in svc's sandbox: a write it refuses is told in words (refusedWrite.ts). */
  private sandboxed = false;
  /** The tool calls whose refused write was told already (one notice per call). */
  private readonly toldRefusals = new Set<string>();
  /** The next prompt sent is the conversation's first (auth errors on it are spawn errors). */
  private nextPromptIsFirst = false;
  private stopping = false;
  private failed = false;
  /** The last stop could not ask the agent's host (unreachable): why. */
  stopUnreachable?: string;
  /** Waits of the stop door, woken at once when the turn ends or the process exits (else they poll). */
  private readonly waits = new StopDoorWaits();

  constructor(
    private readonly plan: SessionPlan,
    private readonly events: SessionEvents,
    private readonly now: () => number,
  ) {}

  get alive(): boolean {
    return this.phase === 'alive';
  }

  /** Live processes left in the agent's process group on this machine (the agent itself included while it runs); wherever it runs: processes. */
  groupPids(): number[] {
    return this.proc?.groupPids() ?? [];
  }

  /** Processes left of the agent's group, here or on its host, with their command lines. */
  processes(): Promise<{ pid: number; command: string }[]> {
    return this.proc?.processes() ?? Promise.resolve([]);
  }

  /** An agent on a host whose connection is down: since when, and what svc does about it. */
  hostLost(): { since: number; text: string } | null {
    return this.phase !== 'dead' ? (this.proc?.hostLost() ?? null) : null;
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
      if (e instanceof WorkspaceNotMade) this.abandon();
      else if (e instanceof SpawnError) this.fail(e.message);
      else {
        log.error('startup failed', e);
        this.fail(`harness '${this.plan.profile.name}': ${(e as Error)?.message ?? String(e)}`);
      }
    }
  }

  private async startup(): Promise<void> {
    const { profile, cwd, configFileShown: cfg } = this.plan;
    const workspace = this.plan.workspace?.then(
      () => undefined,
      () => Promise.reject(new WorkspaceNotMade()),
    );
    void workspace?.catch(() => undefined); // taken below, at the step that needs the folder
    if (!profile.startsBeforeCheckout) await workspace;
    const { env, writableDirs, sandbox } = await this.plan.prepared;
    this.sandboxed = sandbox !== undefined;
    const start = await this.plan.agent.check({
      profile,
      cwd,
      env,
      sandbox,
      configFileShown: cfg,
      logFile: this.plan.logFile,
      now: this.now,
      onLink: (notice) => this.onLink(notice),
      onLost: (text) => this.onOutputLost(text),
    });
    if (this.stopping) return this.die('stopped before it started');
    const proc = await start();
    this.proc = proc;
    // Stopped while it was being started (on a host, that takes a while): end it there too.
    if (this.stopping) return void this.stop({ timeoutMs: 10_000 });
    void proc.closed.then((exit) => this.gone(proc.describeEnd(exit, this.stopping)));
    proc.onExit(() => this.waits.wake());
    if (proc.pid === undefined) {
      await proc.closed;
      const code = proc.spawnFailure?.code ?? 'unknown';
      throw code === 'ENOENT' ? errs.commandNotFound(profile, cfg) : errs.notExecutable(profile, cfg, code);
    }

    const conn = connectAgent(
      proc,
      (dir, msg) => this.onWire(dir, msg),
      (id, signal) => this.askHandler(id, signal),
    );
    this.conn = conn;
    void conn.closed.then(() =>
      this.gone(proc.exit ? proc.describeEnd(proc.exit, this.stopping) : 'connection closed'),
    );
    const resume = this.plan.resume;
    const { sessionId, firstPrompt } = await handshake({
      conn,
      profile,
      cwd,
      writableDirs,
      model: this.plan.model,
      effort: this.plan.effort,
      clientVersion: this.plan.clientVersion,
      firstPrompt: this.plan.firstPrompt,
      resume,
      permissions: this.plan.permissions,
      step: (name, timeoutMs, send) =>
        startupStep(
          { proc, conn, profile, configFileShown: cfg, stopping: () => this.stopping },
          name,
          timeoutMs,
          send,
        ),
      transcript: (kind, payload) => this.events.transcript(kind, payload),
      replaying: (on) => (this.replaying = on),
      agentExited: () => proc.exited,
      opened: (id) => (this.sessionId = id),
      workspace,
    });
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

  /** Ends an agent whose folder was not made: not its failure, so no spawn error of its own. */
  private abandon(): void {
    if (this.failed) return;
    this.failed = true;
    this.die(undefined);
    void this.stop({ timeoutMs: 10_000 });
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
    const m = msg as {
      id?: JsonRpcId;
      method?: string;
      params?: Record<string, unknown>;
      result?: unknown;
      error?: { code: number; message: string };
    };
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
        this.outputAt = this.now();
        const prompt = (m.params?.prompt ?? []) as { type: string; text?: string }[];
        this.turnPrompt = prompt.map((b) => b.text ?? '').join('');
        this.events.transcript('prompt', { text: this.turnPrompt });
        // No state() here: drain sent it and set `working`, and whoever drained announced
        // that (a second change with nothing changed cost every listener a read).
      } else if (!m.method && hasId && this.asks.has(key)) {
        const ask = this.asks.get(key)!;
        this.asks.delete(key);
        this.outputAt = this.now(); // the wait for the person is no stall
        this.events.transcript('answer', { id: m.id, summary: ask.summary ?? 'answered', result: m.result ?? null });
        this.becameIdleMaybe();
        this.events.state();
      } else if (m.method === 'session/cancel') {
        this.events.transcript('lifecycle', { event: 'cancel', text: 'turn cancelled' });
      }
      return;
    }
    if (
      !this.confirmed &&
      this.phase === 'alive' &&
      this.firstPromptId !== undefined &&
      this.answersFirstTurn(m, key)
    ) {
      this.confirmed = true;
      this.events.state();
    }
    if (m.method && hasId) {
      const ask = askFromRequest(key, m.method, m.params ?? {}, this.now());
      if (ask) {
        this.asks.set(key, ask);
        this.idleSince = undefined;
        this.outputAt = this.now();
        this.events.transcript(m.method === 'elicitation/create' ? 'elicitation' : 'permission', {
          id: m.id,
          title: ask.info.title,
          kind: ask.info.kind,
          params: m.params,
        });
        this.events.state();
      }
    } else if (m.method === 'session/update') {
      const update = (m.params?.update ?? {}) as {
        sessionUpdate?: string;
        used?: number;
        size?: number;
        cost?: { amount: number; currency: string } | null;
      };
      if (update.sessionUpdate === 'usage_update') this.events.usage(update);
      else if (!this.replaying && update.sessionUpdate) this.outputAt = this.now();
      if (!this.replaying && update.sessionUpdate) {
        this.events.transcript(update.sessionUpdate, update);
        this.tellRefusedWrite(update);
      }
    } else if (m.method === '$/cancel_request') {
      const id = (m.params as { requestId?: JsonRpcId } | undefined)?.requestId;
      if (id !== undefined) this.withdraw(JSON.stringify(id), 'the agent withdrew it');
    } else if (!m.method && hasId && key === this.promptId) {
      this.turnEnd(m.result as { stopReason?: string } | undefined, m.error);
    }
  }

  /** Evidence that the first prompt got past the agent's auth gate: turn output, an ask, or its answer (not -32000). */
  private answersFirstTurn(
    m: { method?: string; params?: Record<string, unknown>; error?: { code: number } },
    key: string,
  ): boolean {
    if (!m.method) return key === this.firstPromptId && m.error?.code !== -32000;
    if (m.method === 'session/request_permission' || m.method === 'elicitation/create') return true;
    const kind = (m.params?.update as { sessionUpdate?: string } | undefined)?.sessionUpdate;
    return m.method === 'session/update' && TURN_UPDATES.has(kind ?? '');
  }

  private tellRefusedWrite(update: Record<string, unknown>): void {
    if (!this.sandboxed) return;
    const line = refusedWriteLine(update);
    const id = typeof update.toolCallId === 'string' ? update.toolCallId : '';
    if (line === undefined || this.toldRefusals.has(id)) return;
    this.toldRefusals.add(id);
    this.events.transcript('notice', { event: 'sandboxRefusedWrite', text: refusedWriteNotice(line) });
  }

  private turnEnd(
    result: { stopReason?: string } | undefined,
    error: { code: number; message: string } | undefined,
  ): void {
    const wasFirst = this.firstPromptId === this.promptId;
    this.promptId = undefined;
    this.working = false;
    this.wake();
    this.lastTurnEndedAt = this.now();
    for (const k of [...this.asks.keys()]) this.withdraw(k, 'the turn ended');
    this.events.transcript(
      'turn_end',
      error ? { error: error.message, code: error.code } : { stopReason: result?.stopReason ?? null },
    );
    if (wasFirst && error?.code === -32000) {
      this.fail(errs.authRequired(this.plan.profile, this.plan.configFileShown, error.message).message);
      return;
    }
    this.becameIdleMaybe();
    this.events.turnEnded(result?.stopReason, error?.message);
    this.events.state();
    if (this.drain()) this.events.state();
  }

  private becameIdleMaybe(): void {
    if (this.phase === 'alive' && !this.working && this.asks.size === 0 && this.idleSince === undefined)
      this.idleSince = this.now();
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

  /** Sends the next queued message when the agent may take it; true when it did (the caller announces the change). */
  private drain(): boolean {
    if (this.phase !== 'alive' || this.working || this.stopping || this.queue.length === 0) return false;
    if (this.events.mayPrompt && !this.events.mayPrompt()) return false;
    const text = this.queue.shift()!;
    const conn = this.conn!;
    // Mark working now so a tell arriving before the tap sees the request queues behind it.
    this.working = true;
    this.idleSince = undefined;
    conn.agent
      .request('session/prompt', { sessionId: this.sessionId!, prompt: [{ type: 'text', text }] })
      .catch((e) => {
        if (!(e instanceof RequestError)) log.warn(`prompt failed: ${(e as Error).message}`);
      });
    return true;
  }

  /** Delivers a queued message held back by mayPrompt, once it allows turns again. */
  kick(): void {
    if (this.drain()) this.events.state();
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
      if (this.working && this.sessionId && this.conn && !this.conn.signal.aborted)
        this.conn.agent.notify('session/cancel', { sessionId: this.sessionId }).catch(() => undefined);
      for (const k of [...this.asks.keys()]) this.withdraw(k, 'the conversation was stopped');
      // Not spawned yet (still reading its git facts, or it failed): nothing to stop.
      if (this.phase === 'starting' && !proc) this.die('stopped before it started');
    }
    if (!proc || proc.pid === undefined) return true;
    // Give a cancelled turn a moment to answer, then EOF: ACP agents exit on stdin EOF.
    await this.waits.waitFor(() => !this.working || proc.exited, Math.min(1000, timeoutMs / 4));
    proc.closeStdin();
    const r = await proc.stop({
      deadline,
      kill: opts.kill === true,
      waitFor: (cond, ms) => this.waits.waitFor(cond, ms),
      sessionEnded: () =>
        this.waits
          .waitFor(() => this.phase === 'dead', 2000)
          .then(() => this.gone(proc.describeEnd(proc.exit!, this.stopping))),
    });
    this.stopUnreachable = r.unreachable;
    return r.stopped;
  }

  /** The connection carrying an agent on a host was lost, came back, or a retry failed. */
  private onLink(notice: string | undefined): void {
    if (notice !== undefined) this.events.transcript('notice', { text: notice });
    this.events.state();
  }

  /** Output of the agent on a host was lost while disconnected: say what, and end the turn on both sides. */
  private onOutputLost(text: string): void {
    this.events.transcript('notice', {
      text: `${text}; requests waiting for an answer were failed${this.working ? ' and the turn is cancelled' : ''}`,
    });
    if (this.working && this.sessionId && this.conn && !this.conn.signal.aborted)
      this.conn.agent.notify('session/cancel', { sessionId: this.sessionId }).catch(() => undefined);
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
    if (this.queue.length)
      this.events.transcript('notice', { text: `${this.queue.length} queued message(s) were not delivered` });
    this.queue.length = 0;
    if (exitStatus !== undefined) this.events.ended(exitStatus);
    this.events.state();
  }

  /** The exit status once known (after `ended` the code may still be on its way). */
  exitStatus(): string | undefined {
    return this.proc?.exit ? this.proc.describeEnd(this.proc.exit, this.stopping) : undefined;
  }

  get processGone(): Promise<unknown> {
    return this.proc?.closed ?? Promise.resolve();
  }

  private wake(): void {
    this.waits.wake();
  }
}
