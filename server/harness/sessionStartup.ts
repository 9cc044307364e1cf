// The startup of a harness session once its agent runs: the ACP connection over the agent's
// stdio (tapped in wire order, docs/acp.md rule 1), then initialize → authenticate → a
// session (new, or reattached on resume) → model and effort → permission mode. Every request
// is one step that turns the agent's death, a timeout or an error into a spawn error.
import { client, RequestError } from '@agentclientprotocol/sdk';
import type { AnyMessage, ClientConnection, Stream } from '@agentclientprotocol/sdk';
import { acpPipes } from '../util/acpPipes';
import { logger } from '../util/log';
import { describeExit } from '../util/processExit';
import type { AgentTransport } from './agentTransport';
import type { AskResponse } from './asks';
import { applyModelAndEffort } from './modelConfig';
import { openSession, setPermissionMode } from './openSession';
import type { OpenSessionIo } from './openSession';
import type { Profile } from './profiles';
import * as errs from './spawnErrors';
import { SpawnError } from './spawnErrors';
import { tapStream } from './wireTap';
import type { Direction } from './wireTap';

const log = logger('harness');

// gemini answers initialize only after ~20 s on a busy two-core machine (it relaunches its
// own node); a non-ACP command is still caught, just later.
export const INITIALIZE_TIMEOUT_MS = 90_000;
export const SESSION_TIMEOUT_MS = 120_000;

export type JsonRpcId = string | number | null;

/** The ACP client over the agent's stdio: every message passes `onWire` first; asks wait for `onAsk`'s answer. */
export function connectAgent(
  proc: AgentTransport,
  onWire: (dir: Direction, msg: AnyMessage) => void,
  onAsk: (id: JsonRpcId, signal: AbortSignal) => Promise<AskResponse>,
): ClientConnection {
  const raw = acpPipes(proc.stdin, proc.stdout);
  const stream: Stream = tapStream(
    raw,
    (dir, msg) => {
      try {
        onWire(dir, msg);
      } catch (e) {
        log.error('tap failed', e);
      }
    },
    (msg) => !TAP_ONLY.has((msg as { method?: string }).method ?? ''),
  );
  const app = client({ name: 'svc' })
    .onRequest('session/request_permission', (ctx) => onAsk(ctx.requestId, ctx.signal) as Promise<never>)
    .onRequest('elicitation/create', (ctx) => onAsk(ctx.requestId, ctx.signal) as Promise<never>);
  return app.connect(stream);
}

/**
 * Notifications only the tap acts on: the SDK never sees them. It would validate each
 * against its schema (twice for session/update: once for its own session router, once
 * for a handler) and answer nothing; the updates of a streaming agent are most of its
 * messages, and that validation was a large part of the daemon's work per message.
 */
const TAP_ONLY = new Set(['session/update', 'elicitation/complete']);

export interface Handshake {
  conn: ClientConnection;
  profile: Profile;
  cwd: string;
  writableDirs: string[];
  model: string;
  effort: string | null;
  clientVersion: string;
  firstPrompt?: string;
  resume?: { sessionId: string | null; continuation: string };
  permissions: 'ask' | 'auto';
  step<T>(name: string, timeoutMs: number, send: () => Promise<T>): Promise<T>;
  transcript(kind: string, payload: unknown): void;
  // Properties: handed on to openSession as free functions.
  replaying: (on: boolean) => void;
  agentExited: () => boolean;
  /** The session is open (model, effort and mode follow). */
  opened(sessionId: string): void;
  /** Resolves once the folder session/new names is complete (see SessionPlan.workspace). */
  workspace?: Promise<void>;
}

/** The session is open in the right model and mode: its id, and the prompt it starts with (a resume's continuation when it got a fresh session). */
export async function handshake(h: Handshake): Promise<{ sessionId: string; firstPrompt: string | undefined }> {
  const { conn, profile } = h;
  const init = await h.step('initialize', INITIALIZE_TIMEOUT_MS, () =>
    conn.agent.request('initialize', {
      protocolVersion: 1,
      // `_meta.terminal_output_delta`: codex-acp streams command output as `_meta` chunks
      // to append (its `terminal` content block only names the stream); svc renders them.
      // No `terminal`/`fs`: agents run commands in their own shell, svc serves no terminal/*.
      clientCapabilities: { elicitation: { form: {} }, _meta: { terminal_output_delta: true } },
      clientInfo: { name: 'svc', version: h.clientVersion },
    }),
  );
  const methods = (init.authMethods ?? []).map((m) => m.id);
  if (profile.authMethod && methods.includes(profile.authMethod)) {
    await h.step(`authenticate (${profile.authMethod})`, SESSION_TIMEOUT_MS, () =>
      conn.agent.request('authenticate', { methodId: profile.authMethod! }),
    );
  }

  // Sandboxed agents (codex) may write only their workspace: name the other places a lane
  // writes (ACP `additionalDirectories`), where the agent supports them.
  const caps = init.agentCapabilities as { sessionCapabilities?: { additionalDirectories?: unknown } } | undefined;
  const extraDirs =
    caps?.sessionCapabilities?.additionalDirectories && h.writableDirs.length
      ? { additionalDirectories: h.writableDirs }
      : {};
  const io: OpenSessionIo = {
    conn,
    capabilities: init.agentCapabilities,
    cwd: h.cwd,
    extraDirs,
    resume: h.resume,
    preferFresh: profile.preferFreshSession === true,
    step: (name, send) => h.step(name, SESSION_TIMEOUT_MS, send),
    transcript: (kind, payload) => h.transcript(kind, payload),
    replaying: h.replaying,
    agentExited: h.agentExited,
  };
  // Everything before this may run while the folder is being checked out; the session is its.
  await h.workspace;
  const opened = await openSession(io);
  const { sessionId, options, modes } = opened;
  h.opened(sessionId);
  const { notices } = await h.step('model and effort', SESSION_TIMEOUT_MS, () =>
    applyModelAndEffort(conn.agent, sessionId, options, profile, h.model, h.effort),
  );
  for (const text of notices) h.transcript('notice', { text });
  await setPermissionMode(io, sessionId, modes, profile.modes[h.permissions], profile.name);
  return { sessionId, firstPrompt: opened.fresh && h.resume ? h.resume.continuation : h.firstPrompt };
}

/** What a startup step needs to know of the agent and of why it may have gone. */
export interface StepContext {
  proc: AgentTransport;
  conn: ClientConnection;
  profile: Profile;
  configFileShown: string;
  stopping(): boolean;
}

/** Awaits one startup request, turning death, timeouts and errors into spawn errors. */
export async function startupStep<T>(
  c: StepContext,
  name: string,
  timeoutMs: number,
  send: () => Promise<T>,
): Promise<T> {
  const { proc, conn } = c;
  let timer: NodeJS.Timeout | undefined;
  const died = Symbol('died');
  const timedOut = Symbol('timeout');
  try {
    const r = await Promise.race([
      send(),
      proc.closed.then(() => died),
      conn.closed.then(() => died),
      new Promise<symbol>((res) => (timer = setTimeout(() => res(timedOut), timeoutMs))),
    ]);
    if (r === died) throw await earlyExit(c, name);
    if (r === timedOut) throw errs.noAnswer(c.profile, name, Math.round(timeoutMs / 1000));
    return r as T;
  } catch (e) {
    if (e instanceof SpawnError) throw e;
    if (proc.exited || conn.signal.aborted) throw await earlyExit(c, name);
    if (e instanceof RequestError) throw errs.stepFailed(c.profile, c.configFileShown, name, e.message, e.code);
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

async function earlyExit(c: StepContext, step: string): Promise<SpawnError> {
  const proc = c.proc;
  // The connection closes ~2 ms before `exit`: wait briefly for the exit code and stderr.
  await Promise.race([proc.closed, new Promise((r) => setTimeout(r, 1000))]);
  if (c.stopping()) return new SpawnError('');
  const reason = proc.earlyExitReason(step);
  if (reason !== undefined) return new SpawnError(reason);
  return errs.exitedEarly(
    c.profile,
    c.configFileShown,
    step,
    proc.exit ? describeExit(proc.exit) : 'connection closed',
    proc.stderr(),
  );
}
