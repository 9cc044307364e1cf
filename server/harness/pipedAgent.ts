// What every agent transport reads from the process that carries the agent (the agent itself
// on this machine, the ssh to svc's relay on a host): its pipes, its end, its stderr. The
// transports differ only in how an end is told and how the stop door finishes.
import type { Readable, Writable } from 'node:stream';
import type { ExitInfo } from '../util/processExit';

export interface AgentPipes {
  readonly stdin: Writable;
  readonly stdout: Readable;
  readonly closed: Promise<ExitInfo>;
  readonly exit?: ExitInfo;
  readonly exited: boolean;
  readonly pid: number | undefined;
  readonly spawnFailure?: NodeJS.ErrnoException;
  stderr(): string;
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
