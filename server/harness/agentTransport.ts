// The seam between a harness session and where its agent runs. The session speaks ACP over
// an agent's stdin and stdout and never asks whether the agent is a child of this daemon
// (localAgent.ts) or runs on a host under svc's relay over SSH (remoteAgentTransport.ts):
// what differs — how it starts, how its end is put in words, why it ended early, the rest
// of the stop door, its processes, a lost host — is answered here.
import type { ExitInfo } from '../util/processExit';
import type { AgentPipes } from './pipedAgent';
import type { Profile } from './profiles';

export interface AgentTransport extends AgentPipes {
  /** Calls `fn` as soon as the agent's process exits, ahead of `closed` (the stop door wakes on it); a no-op where no exit is seen here. */
  onExit(fn: () => void): void;
  /** How the agent ended, in words (`stopping`: svc was stopping it). */
  describeEnd(exit: ExitInfo, stopping: boolean): string;
  /** The whole spawn error of an agent that ended during startup `step`, when the transport knows better than its exit code; else undefined. */
  earlyExitReason(step: string): string | undefined;
  /**
   * The rest of the stop door once stdin is closed: wait for the agent to end, then signal
   * what is left of its process group (SIGKILL only when `kill`). `unreachable`: why the
   * group could not be asked at all.
   */
  stop(door: StopDoor): Promise<{ stopped: boolean; unreachable?: string }>;
  /** Live processes left in the agent's process group on this machine (empty for an agent elsewhere: see processes). */
  groupPids(): number[];
  /** Processes left of the agent's group, wherever it runs, with their command lines. */
  processes(): Promise<{ pid: number; command: string }[]>;
  /** An agent on a host whose connection is down: since when, and what svc does about it. */
  hostLost(): { since: number; text: string } | null;
}

/** What the stop door lends a transport: its deadline, its waits (woken by the session), and the session's end. */
export interface StopDoor {
  deadline: number;
  kill: boolean;
  /** Waits until `cond` holds or `ms` pass, checked again at once when the turn ends or the process exits. */
  waitFor(cond: () => boolean, ms: number): Promise<boolean>;
  /** Waits (briefly) for the session to end after the process did, so whoever stopped it reads it ended. */
  sessionEnded(): Promise<void>;
}

/** Puts the agent's command inside the lane's sandbox, or says why the sandbox cannot start here. */
export type SandboxWrap = (
  command: string,
  args: string[],
) => Promise<{ ok: true; command: string; args: string[] } | { ok: false; reason: string; fix: string }>;

/** What starting an agent is told by its session. */
export interface StartIo {
  profile: Profile;
  cwd: string;
  env: NodeJS.ProcessEnv;
  sandbox?: SandboxWrap;
  configFileShown: string;
  logFile?: string;
  now: () => number;
  /** The connection carrying an agent on a host was lost, came back, or a retry failed; `notice`: what the transcript says of it. */
  onLink(notice: string | undefined): void;
  /** Output of an agent on a host was lost while disconnected: what, in words. */
  onLost(text: string): void;
}

/**
 * How a session's agent is started. `check` runs what can refuse before anything starts
 * (a SpawnError); the session then checks it was not stopped meanwhile and calls the start
 * it returned.
 */
export interface AgentLauncher {
  check(io: StartIo): Promise<() => Promise<AgentTransport>>;
}
