// The ACP session of a starting agent, and its permission mode: reattach to the session a resume names (session/load,
// else session/resume, where the agent offers them and the profile does not prefer a fresh
// one), else a new session. A reattach that fails while the agent lives falls back to a new
// session, said in the transcript.
import type { ClientConnection, SessionConfigOption } from '@agentclientprotocol/sdk';
import { SpawnError } from './spawnErrors';

/** What the agent's `initialize` answer says about reattaching. */
interface ReattachCapabilities {
  loadSession?: boolean;
  sessionCapabilities?: { resume?: unknown } | null;
}

export type SessionModes = { currentModeId?: string; availableModes?: { id: string }[] } | null | undefined;

export interface OpenedSession {
  sessionId: string;
  options: SessionConfigOption[];
  modes: SessionModes;
  /** A new session: a resume's continuation is its first prompt. */
  fresh: boolean;
}

export interface OpenSessionIo {
  conn: ClientConnection;
  capabilities: ReattachCapabilities | null | undefined;
  cwd: string;
  /** `additionalDirectories` when the agent supports them, else empty. */
  extraDirs: { additionalDirectories?: string[] };
  resume?: { sessionId: string | null };
  preferFresh: boolean;
  /** Awaits one startup request, turning death, timeouts and errors into spawn errors. */
  step<T>(name: string, send: () => Promise<T>): Promise<T>;
  transcript(kind: 'lifecycle' | 'notice', payload: { event?: string; text: string }): void;
  /** While session/load replays the history (its updates are not live activity). */
  replaying(on: boolean): void;
  agentExited(): boolean;
}

export async function openSession(io: OpenSessionIo): Promise<OpenedSession> {
  const { conn, cwd, extraDirs, resume } = io;
  if (resume?.sessionId && !io.preferFresh) {
    const caps = io.capabilities ?? {};
    const sessionId = resume.sessionId;
    try {
      if (caps.loadSession) {
        io.replaying(true);
        const res = await io.step('session/load', () =>
          conn.agent.request('session/load', { sessionId, cwd, mcpServers: [], ...extraDirs }),
        );
        io.transcript('lifecycle', { event: 'resumed', text: `resumed session ${sessionId} (session/load)` });
        return { sessionId, options: res?.configOptions ?? [], modes: res?.modes, fresh: false };
      }
      if (caps.sessionCapabilities?.resume) {
        const res = await io.step('session/resume', () =>
          conn.agent.request('session/resume', { sessionId, cwd, ...extraDirs }),
        );
        io.transcript('lifecycle', { event: 'resumed', text: `resumed session ${sessionId} (session/resume)` });
        return { sessionId, options: res?.configOptions ?? [], modes: res?.modes, fresh: false };
      }
    } catch (e) {
      if (!(e instanceof SpawnError) || io.agentExited()) throw e;
      io.transcript('notice', {
        text: `could not reattach to session ${sessionId} (${e.message}); starting a fresh session`,
      });
    } finally {
      io.replaying(false);
    }
  }
  const res = await io.step('session/new', () =>
    conn.agent.request('session/new', { cwd, mcpServers: [], ...extraDirs }),
  );
  if (resume) {
    // A harness svc resumes fresh by choice may well offer a reattach (gemini declares
    // loadSession): saying it offers none would be false.
    const why = io.preferFresh
      ? 'svc starts this harness in a fresh session on resume by choice, told it continues'
      : 'the agent offers no reattach';
    io.transcript('lifecycle', { event: 'resumed', text: `resumed in a fresh session (${why})` });
  }
  return { sessionId: res.sessionId, options: res.configOptions ?? [], modes: res.modes, fresh: true };
}

/**
 * Puts the session in the mode the profile names for the permission policy. An agent
 * without session modes (the script agent) has nothing to choose; a mode it lacks is said
 * in the transcript and its own default stands.
 */
export async function setPermissionMode(
  io: OpenSessionIo,
  sessionId: string,
  modes: SessionModes,
  modeId: string | undefined,
  harness: string,
): Promise<void> {
  if (!modeId || modes?.currentModeId === modeId || !modes?.availableModes?.length) return;
  if (!modes.availableModes.some((m) => m.id === modeId)) {
    io.transcript('notice', {
      text: `harness '${harness}' offers no mode '${modeId}'; permissions follow its own default`,
    });
    return;
  }
  await io.step(`session/set_mode (${modeId})`, () => io.conn.agent.request('session/set_mode', { sessionId, modeId }));
}
