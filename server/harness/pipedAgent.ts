// What every agent transport reads from the process that carries the agent (the agent itself
// on this machine, the ssh to svc's relay on a host): its pipes, its end, its stderr. The
// transports differ only in how an end is told and how the stop door finishes.
import type { Readable, Writable } from 'node:stream';
import type { ExitInfo } from '../util/processExit';

export interface AgentPipes {
  readonly stdin: Writable;
  readonly stdout: Readable;
  /** Resolves once the agent has ended and its output is closed. */
  readonly closed: Promise<ExitInfo>;
  readonly exit?: ExitInfo;
  readonly exited: boolean;
  /** The process this machine started (the agent, or the ssh carrying it); undefined: it could not be started. */
  readonly pid: number | undefined;
  /** Why starting that process failed (ENOENT, EACCES…). */
  readonly spawnFailure?: NodeJS.ErrnoException;
  /** The last of its stderr, for messages. */
  stderr(): string;
  /** Closes the agent's stdin: ACP agents exit on EOF. */
  closeStdin(): void;
}

export abstract class PipedAgent<P extends AgentPipes> {
  constructor(protected readonly proc: P) {}

  get stdin() {
    return this.proc.stdin;
  }
  get stdout() {
    return this.proc.stdout;
  }
  get closed() {
    return this.proc.closed;
  }
  get exit() {
    return this.proc.exit;
  }
  get exited() {
    return this.proc.exited;
  }
  get pid() {
    return this.proc.pid;
  }
  get spawnFailure() {
    return this.proc.spawnFailure;
  }

  stderr(): string {
    return this.proc.stderr();
  }

  closeStdin(): void {
    this.proc.closeStdin();
  }
}
