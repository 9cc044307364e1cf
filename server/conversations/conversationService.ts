// The session supervisor of the conversation layer: one harness session per live
// conversation, built on the rows of conversationRegistry.ts, and the live facts the
// activity rule reads. Created once by registerConversations(app), which returns it;
// daemon/features.ts hands it to the features that need it.
//
// API for other features (lanes, review):
//   rows (conversationRegistry.ts): insert(opts) → row (synchronous, no process: call it inside
//     your own db.transaction) · get(id) · resolve(ref) (`#id`, id, name, `conv-<name>`;
//     throws notFound) · list() · recordSpawnError(id, msg) · unarchive(id) · outputLines(ref, n)
//     · cost(id) · effectiveLauncher(id) · events (typed: conversationEvents.ts) · onChanged(fn)
//     · onUsage(fn) (spend caps)
//   sessions (here): start(id) · create(opts) = insert + start · waitStarted(id, ms) →
//     'alive'|'failed'|'ended'|'timeout' · facts(id) → {alive, working, needsYou, idleSince?,
//     lastTurnEndedAt?} · activity(row, now?) · tell(id, text, {force?}) · answer(id, a) ·
//     stop(id, {timeoutMs?, kill?}) → {stopped} · archive(id) · resume(id) · addTellGuard(fn) ·
//     addResumeGuard(fn) · addTurnGate(fn) · kick(id) · cancelTurn(id) · notice(id, text)
import { ConversationRegistry } from './conversationRegistry';
import type { CreateOptions } from './conversationRegistry';
import {
  alreadyRunningError,
  hostNotAskedError,
  noOpenAskError,
  notRunningError,
  stillRunningError,
} from './conversationRefusals';
import * as path from 'node:path';
import { activityOfRow } from '../../shared/activity';
import type { Activity } from '../../shared/activity';
import type { ConversationInfo, OpenAsk } from '../../shared/protocol/conversations';
import { SVC_VERSION } from '../../shared/version';
import type { App } from '../app';
import type { HostLink } from '../hosts/hostLink';
import type { Answer } from '../harness/asks';
import { HarnessSession } from '../harness/harnessSession';
import { logger } from '../util/log';
import { agentGitFacts } from './agentGitFacts';
import type { AgentGitFacts, PreparedStart } from './agentGitFacts';
import { reviewSeatOf } from './reviewSeat';
import type { ConversationRow, ListedRow } from './conversationStore';
import type { LiveFacts } from './liveFacts';
import { stopAfterRestart } from './remoteAgents';
import { AgentLaunches } from './agentLaunches';
import { askAgainPrompt, DaemonStops } from './daemonStops';
import type { DaemonStop } from './daemonStops';

const log = logger('conversations');

export type { ConversationRow } from './conversationStore';
export type { CreateOptions } from './conversationRegistry';

export type StartOutcome = 'alive' | 'failed' | 'ended' | 'timeout';
export type TellGuard = (row: ConversationRow, opts: { force: boolean }) => void;
/** Why a conversation's next turn must wait (it stays queued), or null. */
export type TurnGate = (row: ConversationRow) => string | null;

export class ConversationService extends ConversationRegistry {
  private readonly sessions = new Map<number, HarnessSession>();
  private readonly wasAlive = new Set<HarnessSession>();
  private readonly guards: TellGuard[] = [];
  private readonly gates: TurnGate[] = [];
  private readonly resumeGuards: ((row: ConversationRow) => void)[] = [];
  /** What each agent starts with, and where (its environment, sandbox and own socket). */
  private readonly launches: AgentLaunches;
  /** The conversations the daemon ended by stopping or crashing, until resumed or archived. */
  readonly daemonStops: DaemonStops;

  constructor(
    app: App,
    /** Where agents on other hosts are started and stopped (the hosts feature's). */
    private readonly hostLink: HostLink,
  ) {
    super(app);
    this.launches = new AgentLaunches(app, hostLink);
    this.daemonStops = new DaemonStops(app.db);
  }

  // ---- rows ----------------------------------------------------------------------------

  create(o: CreateOptions): ConversationRow {
    const row = this.insert(o);
    this.start(row.id);
    return row;
  }

  /**
   * Spawns the harness of an inserted conversation (its first prompt follows once the session is open).
   * `prepared`: the agent's git facts, read by prepareStart in a folder of the same repository
   * (a lane's or a review's checkout, while the worktree is still being made).
   */
  start(id: number, opts: { prepared?: PreparedStart; workspace?: Promise<void> } = {}): void {
    const row = this.mustGet(id);
    this.spawn(row, { firstPrompt: row.firstPrompt, workspace: opts.workspace }, opts.prepared?.facts);
  }

  /**
   * Starts reading the git facts an agent working in `dir`'s repository needs, for a later
   * start(…, { prepared }). The start takes this answer as it is: what svc writes in between
   * (a new worktree, its branch's upstream in the repository's config) changes none of them,
   * and would otherwise have the start ask git again.
   */
  prepareStart(dir: string): PreparedStart {
    const facts = agentGitFacts(dir, process.env);
    void facts.catch(() => undefined);
    return { facts };
  }

  /** Restarts a stopped conversation: reattach where the agent offers it, else a fresh session told it continues. */
  resume(id: number): void {
    const row = this.mustGet(id);
    const s = this.sessions.get(id);
    if (s && s.phase !== 'dead') throw alreadyRunningError(row);
    for (const g of this.resumeGuards) g(row);
    const ask = this.daemonStops.take(id)?.ask;
    this.store.update(id, { endedAt: null, exitStatus: null, spawnError: null, archivedAt: null });
    this.transcript.append(id, 'lifecycle', { event: 'resume', text: 'resume requested' });
    if (row.startedAt === null) this.spawn(this.mustGet(id), { firstPrompt: row.firstPrompt });
    else {
      // A request the daemon's stop withdrew comes back: the agent is handed its turn again
      // (after the continuation, when it gets a fresh session) and asks again.
      const again = ask ? askAgainPrompt(ask) : undefined;
      const continuation = this.continuation(row) + (again ? `\n\n${again}` : '');
      this.spawn(this.mustGet(id), { firstPrompt: again, resume: { sessionId: row.sessionId, continuation } });
    }
    this.changed(id);
  }

  /** The conversations the daemon ended (stopped with it, or left by a crash), not since resumed or archived. */
  stoppedByDaemon(): (DaemonStop & { row: ConversationRow })[] {
    return this.daemonStops
      .list()
      .map((s) => ({ ...s, row: this.store.get(s.convId)! }))
      .filter((s) => s.row && s.row.endedAt !== null && s.row.archivedAt === null);
  }

  // ---- live facts ------------------------------------------------------------------------

  /** PIDs still alive in the agent's process group, for a refusal that names them. */
  groupPids(id: number): number[] {
    return this.sessions.get(id)?.groupPids() ?? [];
  }

  /** The processes left of the agent's group with their command lines: here, or on its host. */
  async groupProcesses(id: number): Promise<{ pid: number; command: string }[]> {
    return (await this.sessions.get(id)?.processes()) ?? [];
  }

  facts(id: number): LiveFacts {
    const s = this.sessions.get(id);
    const hostLost = s?.hostLost() ?? undefined;
    if (!s || s.phase !== 'alive')
      return { alive: false, working: false, needsYou: false, ...(hostLost ? { hostLost } : {}) };
    return {
      alive: true,
      working: s.working,
      needsYou: s.needsYou,
      idleSince: s.idleSince,
      lastTurnEndedAt: s.lastTurnEndedAt,
      outputAt: s.outputAt,
      ...(hostLost ? { hostLost } : {}),
    };
  }

  activity(row: ListedRow, now = this.app.now()): Activity {
    return activityOfRow(row, this.facts(row.id), now);
  }

  openAsk(id: number): OpenAsk | null {
    return this.sessions.get(id)?.openAsk()?.info ?? null;
  }

  info(row: ListedRow, now = this.app.now()): ConversationInfo {
    const s = this.sessions.get(row.id);
    return {
      id: row.id,
      name: row.name,
      title: row.title,
      kind: row.kind,
      parentId: row.parentId,
      project: row.project,
      cwd: row.cwd,
      harness: row.harness,
      model: row.model,
      effort: row.effort,
      permissions: permissionsOf(row),
      issueId: row.issueId,
      activity: this.activity(row, now),
      alive: this.facts(row.id).alive,
      archived: row.archivedAt !== null,
      createdAt: row.createdAt,
      startedAt: row.startedAt,
      endedAt: row.endedAt,
      exitStatus: row.exitStatus,
      spawnError: row.spawnError,
      cost: row.costAmount !== null ? { amount: row.costAmount, currency: row.costCurrency ?? 'USD' } : null,
      queued: s?.queued ?? 0,
      ask: this.openAsk(row.id),
      hostLost: s?.hostLost() ?? null,
      review: reviewSeatOf(row),
    };
  }

  /** Resolves when the conversation is alive, failed, ended, or `timeoutMs` passed (event-driven). */
  waitStarted(id: number, timeoutMs: number, signal?: AbortSignal): Promise<StartOutcome> {
    return this.waitFor(id, timeoutMs, signal, (s) => s.confirmed || this.wasAlive.has(s));
  }

  /**
   * As waitStarted, but 'alive' as soon as the agent's session is open and its first prompt
   * sent (not yet answered): what a review request waits for before it answers.
   */
  waitAlive(id: number, timeoutMs: number, signal?: AbortSignal): Promise<StartOutcome> {
    return this.waitFor(id, timeoutMs, signal, (s) => s.phase === 'alive' || this.wasAlive.has(s));
  }

  private waitFor(
    id: number,
    timeoutMs: number,
    signal: AbortSignal | undefined,
    alive: (s: HarnessSession) => boolean,
  ): Promise<StartOutcome> {
    const check = (): StartOutcome | undefined => {
      const row = this.store.get(id);
      if (!row) return 'ended';
      if (row.spawnError !== null) return 'failed';
      const s = this.sessions.get(id);
      if (s && alive(s)) return 'alive';
      if (row.endedAt !== null) return 'ended';
      return undefined;
    };
    const now = check();
    if (now) return Promise.resolve(now);
    return new Promise((resolve) => {
      const done = (o: StartOutcome) => {
        clearTimeout(timer);
        off();
        signal?.removeEventListener('abort', onAbort);
        resolve(o);
      };
      const onChange = (changedId: number) => {
        if (changedId !== id) return;
        const o = check();
        if (o) done(o);
      };
      const onAbort = () => done('timeout');
      const timer = setTimeout(() => done('timeout'), timeoutMs);
      const off = this.events.on('changed', onChange);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  // ---- talking to agents -----------------------------------------------------------------

  addTellGuard(guard: TellGuard): void {
    this.guards.push(guard);
  }

  /** A gate consulted before each turn starts: a reason to hold the conversation's next message, or null. */
  addTurnGate(gate: TurnGate): void {
    this.gates.push(gate);
  }

  private mayPrompt(id: number): boolean {
    const row = this.store.get(id);
    return !row || this.gates.every((g) => g(row) === null);
  }

  /** Delivers a message a turn gate held back, once the gates allow it. */
  kick(id: number): void {
    this.sessions.get(id)?.kick();
  }

  /** Cancels the turn in progress (session/cancel), leaving the agent running; false when none was in progress. */
  cancelTurn(id: number): boolean {
    return this.sessions.get(id)?.cancelTurn() ?? false;
  }

  /** A check run before a resume changes anything; it throws to refuse the resume. */
  addResumeGuard(guard: (row: ConversationRow) => void): void {
    this.resumeGuards.push(guard);
  }

  tell(id: number, text: string, opts: { force?: boolean } = {}): { delivered: 'now' | 'queued'; ahead: number } {
    const row = this.mustGet(id);
    for (const g of this.guards) g(row, { force: opts.force ?? false });
    const s = this.sessions.get(id);
    if (!s || s.phase === 'dead' || row.endedAt !== null || row.spawnError !== null) {
      throw notRunningError(row, this.activity(row));
    }
    return s.tell(text);
  }

  answer(id: number, a: Answer): OpenAsk {
    const row = this.mustGet(id);
    const s = this.sessions.get(id);
    const answered = s?.alive ? s.answer(a) : undefined;
    if (!answered) throw noOpenAskError(row);
    return answered.info;
  }

  /** A notice in the transcript: something svc did to the conversation, in words. */
  notice(id: number, text: string): void {
    this.transcript.append(id, 'notice', { text });
    this.changed(id);
  }

  /** The stop door. Never SIGKILLs unless `kill` (a person escalating, or a spend cap's cancel ignored). */
  async stop(id: number, opts: { timeoutMs?: number; kill?: boolean } = {}): Promise<{ stopped: boolean }> {
    const row = this.mustGet(id);
    const s = this.sessions.get(id);
    if (!s) {
      if (row.endedAt === null && row.spawnError === null) {
        this.store.update(id, { endedAt: this.app.now(), exitStatus: 'stopped before it started' });
        this.fire('ended', id);
      }
      return { stopped: true };
    }
    if (s.phase !== 'dead')
      this.transcript.append(id, 'lifecycle', {
        event: 'stop',
        text: `stop requested${opts.kill ? ' (kill allowed)' : ''}`,
      });
    const stopped = await s.stop(opts);
    if (!stopped && s.stopUnreachable && row.host) {
      const e = hostNotAskedError(row, row.host, s.stopUnreachable);
      this.transcript.append(id, 'notice', { text: e.message });
      throw e;
    }
    return { stopped };
  }

  archive(id: number): void {
    const row = this.mustGet(id);
    const s = this.sessions.get(id);
    if (s && s.phase !== 'dead') throw stillRunningError(row);
    if (row.archivedAt !== null) return;
    if (row.endedAt === null && row.spawnError === null)
      this.store.update(id, { endedAt: this.app.now(), exitStatus: row.exitStatus ?? 'archived' });
    this.store.update(id, { archivedAt: this.app.now() });
    this.daemonStops.take(id);
    this.changed(id);
  }

  /** Counts for daemon/status. */
  counts(): { conversations: number; live: number } {
    const now = this.app.now();
    const live = this.store.unsettled().filter((r) => {
      const a = this.activity(r, now);
      return a === 'starting' || a === 'idle' || a === 'working' || a === 'needs-you';
    }).length;
    return { conversations: this.store.count(), live };
  }

  /**
   * At daemon start: agents of a previous daemon are gone (they exit on stdin EOF) — but for
   * agents on hosts, which svc's relay keeps running there: those are stopped there (in the
   * background), as no one can talk to them any more.
   */
  settleAfterRestart(): void {
    const now = this.app.now();
    for (const r of this.store.unsettled()) {
      this.store.update(r.id, { endedAt: now, exitStatus: 'daemon restarted' });
      this.daemonStops.record({ convId: r.id, at: now, how: 'restarted', ask: null });
      this.transcript.append(r.id, 'lifecycle', {
        event: 'ended',
        text: 'the daemon restarted; the agent is gone (svc conv resume continues it)',
      });
      if (r.host) void stopAfterRestart(this.hostLink, this.transcript, r.id, r.host);
    }
    this.transcript.flush();
  }

  /** Graceful daemon stop: every live agent through the stop door, in parallel. */
  async stopAll(timeoutMs = 10_000): Promise<void> {
    const live = [...this.sessions.entries()].filter(([, s]) => s.phase !== 'dead');
    // Recorded before the stop door withdraws their requests: what resume brings back.
    const at = this.app.now();
    for (const [id, s] of live) {
      const open = s.openAsk()?.info;
      const ask =
        open && s.turnPrompt !== undefined ? { kind: open.kind, title: open.title, prompt: s.turnPrompt } : null;
      this.safely(() => this.daemonStops.record({ convId: id, at, how: 'stopped', ask }));
    }
    await Promise.all(
      live.map(([id]) => this.stop(id, { timeoutMs }).catch((e) => log.error(`stop #${id} failed`, e))),
    );
    await Promise.all(live.map(([, s]) => Promise.race([s.processGone, new Promise((r) => setTimeout(r, 1000))])));
    this.transcript.flush();
  }

  // ---- internals -----------------------------------------------------------------------

  private continuation(row: ConversationRow): string {
    const tail = this.outputLines(row.id, 80).join('\n');
    return [
      `You are continuing conversation #${row.id} (${row.name}) after its agent was restarted; the earlier session could not be reattached.`,
      `Working directory: ${row.cwd}. The conversation so far ended with:`,
      '',
      '```text',
      tail,
      '```',
      '',
      'Continue from there. The full transcript: svc conv log ' + `#${row.id} --lines 1000`,
    ].join('\n');
  }

  private spawn(
    row: ConversationRow,
    what: {
      firstPrompt?: string;
      resume?: { sessionId: string | null; continuation: string };
      workspace?: Promise<void>;
    },
    gitFacts?: Promise<AgentGitFacts>,
  ): void {
    const existing = this.sessions.get(row.id);
    if (existing && existing.phase !== 'dead') throw alreadyRunningError(row);
    const profile = this.profile(row.harness);
    const launch = this.launches.plan(row, profile, this.credentials.tokenFor(row.id), gitFacts);
    const id = row.id;
    const now = () => this.app.now();
    const costBase = this.store.get(id)?.costAmount ?? 0;
    const session: HarnessSession = new HarnessSession(
      {
        profile,
        cwd: row.cwd,
        prepared: launch.prepared,
        model: row.model,
        effort: row.effort,
        logFile: path.join(this.app.paths.agents, `conv-${row.name}`, 'harness.log'),
        configFileShown: this.configFileShown(),
        clientVersion: SVC_VERSION,
        firstPrompt: what.firstPrompt,
        resume: what.resume,
        // A person's conversation asks them; lanes and the pipeline's agents are unattended.
        permissions: permissionsOf(row),
        agent: launch.agent,
        workspace: what.workspace,
      },
      {
        transcript: (kind, payload) => this.transcript.append(id, kind, payload),
        alive: (sessionId) => {
          // Not waiting for the disk: this runs between the first prompt's send and its write
          // to the agent, with other agents' starts waiting on the loop; the session and the
          // time are kept as the transcript's rows beside them are (updateUnsynced).
          this.store.updateUnsynced(id, { sessionId, startedAt: now() });
          this.transcript.append(id, 'lifecycle', {
            event: 'started',
            text: `${row.harness} agent started (model ${row.model}${row.effort ? `, effort ${row.effort}` : ''})`,
          });
          this.fire('started', id);
        },
        spawnError: (message) => {
          this.launches.agentGone(id);
          this.recordSpawnError(id, message);
        },
        ended: (exitStatus) => {
          this.launches.agentGone(id);
          this.safely(() => this.store.update(id, { endedAt: now(), exitStatus }));
          this.fire('ended', id);
          // The connection closes ~2 ms before `exit`: record the real exit status once known.
          void Promise.race([session.processGone, new Promise((r) => setTimeout(r, 2000))]).then(() => {
            const real = session.exitStatus() ?? exitStatus;
            this.safely(() => {
              // The end is on disk already (above); these are its exact words, kept as the
              // transcript row that says them is.
              if (real !== exitStatus) this.store.updateUnsynced(id, { exitStatus: real });
              this.transcript.append(id, 'lifecycle', { event: 'ended', text: `agent ended (${real})` });
            });
          });
        },
        state: () => {
          if (session.confirmed) this.wasAlive.add(session);
          this.changed(id);
        },
        turnEnded: () => this.fire('turnEnded', id),
        usage: (u) => {
          this.safely(() =>
            this.store.update(id, {
              contextUsed: u.used ?? null,
              contextSize: u.size ?? null,
              // An agent reports what its own session cost; a restarted agent starts again
              // from zero, so the conversation's spend is what earlier agents cost plus this one's.
              ...(u.cost ? { costAmount: costBase + u.cost.amount, costCurrency: u.cost.currency } : {}),
            }),
          );
          if (u.cost) this.events.emit('usage', id);
        },
        mayPrompt: () => this.mayPrompt(id),
      },
      now,
    );
    this.sessions.set(id, session);
    this.transcript.append(id, 'lifecycle', { event: 'spawn', text: `starting ${row.harness} in ${row.cwd}` });
    // No change to announce: the row reads `starting` from its insert on (announced there);
    // a resume announces its own (its row went from stopped back to starting).
    void session.run();
  }
}

/** A role's setting wins; else a person's conversations (roots, successors) ask and the rest run unattended. */
export function permissionsOf(row: Pick<ConversationRow, 'kind' | 'permissions'>): 'ask' | 'auto' {
  return row.permissions ?? (row.kind === 'root' || row.kind === 'successor' ? 'ask' : 'auto');
}
