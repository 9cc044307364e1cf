// One agent process in its own process group (docs/acp.md rule 2: signal the group, or a
// shell's children keep the pipes open). Keeps the last 8 KB of stderr for spawn-error
// messages and appends all of it to a log file beside the conversation's files.
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import type { ExitInfo } from '../util/processExit';
import { groupMembers, liveMemberOf } from '../util/processGroup';

const STDERR_TAIL = 8 * 1024;

/** Finds `command` the way spawn would: a path as is, a bare name on PATH. */
export function findCommand(command: string, envPath: string | undefined, cwd: string): string | undefined {
  const executable = (f: string) => {
    try {
      const st = fs.statSync(f);
      return st.isFile();
    } catch {
      return false;
    }
  };
  if (command.includes('/')) {
    const p = path.resolve(cwd, command);
    return executable(p) ? p : undefined;
  }
  for (const dir of (envPath ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const p = path.join(dir, command);
    if (executable(p)) return p;
  }
  return undefined;
}

export class AgentProcess {
  readonly child: ChildProcessWithoutNullStreams;
  private stderrTail = '';
  private log?: number;
  /** The group's live members found by the last full read (see groupAlive). */
  private lastMembers: number[] = [];
  /** The agent exited and no process of its group ran after it (see groupAlive). */
  private groupGone = false;
  exit?: ExitInfo;
  /** Resolves when the process has exited and its stdio closed. */
  readonly closed: Promise<ExitInfo>;
  /** Resolves with the spawn error (ENOENT, EACCES…), if spawning failed. */
  spawnFailure?: NodeJS.ErrnoException;

  constructor(command: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv; logFile?: string }) {
    if (opts.logFile) {
      try {
        fs.mkdirSync(path.dirname(opts.logFile), { recursive: true, mode: 0o700 });
        this.log = fs.openSync(opts.logFile, 'a', 0o600);
      } catch {
        // the log is a convenience; the tail below is what messages use
      }
    }
    this.child = spawn(command, args, {
      cwd: opts.cwd,
      env: opts.env,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child.stdin.on('error', () => undefined); // EPIPE after the agent exits
    this.child.stderr.on('data', (d: Buffer) => {
      this.stderrTail = (this.stderrTail + d.toString('utf8')).slice(-STDERR_TAIL);
      if (this.log !== undefined) fs.writeSync(this.log, d);
    });
    this.closed = new Promise((resolve) => {
      this.child.on('error', (e: NodeJS.ErrnoException) => {
        this.spawnFailure ??= e;
        if (this.child.pid === undefined) {
          this.exit ??= { code: null, signal: null };
          this.finish();
          resolve(this.exit);
        }
      });
      this.child.on('exit', (code, signal) => {
        this.exit = { code, signal };
      });
      this.child.on('close', (code, signal) => {
        this.exit ??= { code, signal };
        this.finish();
        resolve(this.exit);
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get stdin(): Writable {
    return this.child.stdin;
  }

  get stdout(): Readable {
    return this.child.stdout;
  }

  get exited(): boolean {
    return this.exit !== undefined;
  }

  stderr(): string {
    return this.stderrTail.trim();
  }

  /** Closes the agent's stdin: ACP agents exit on EOF. */
  closeStdin(): void {
    this.child.stdin.end();
  }

  /** Signals the whole process group; false when nothing is left to signal. */
  signalGroup(sig: NodeJS.Signals): boolean {
    const pid = this.child.pid;
    if (pid === undefined) return false;
    try {
      process.kill(-pid, sig);
      return true;
    } catch {
      return false;
    }
  }

  /** True while the agent's process group exists at all, zombies included (one kill(-pgid, 0)). */
  groupExists(): boolean {
    const pid = this.child.pid;
    if (pid === undefined || this.groupGone) return false;
    try {
      process.kill(-pid, 0);
      return true;
    } catch (e) {
      return (e as NodeJS.ErrnoException).code !== 'ESRCH';
    }
  }

  /**
   * True while any process of the agent's group still exists. The stop door asks this every
   * few milliseconds while a group outlives its agent: the members last seen are asked first
   * (one /proc file each), and only when none of them runs any more is every process read
   * again (a member may have forked one before it exited). Once the agent has exited and no
   * member runs, the group is gone for good: only a member can add one (a zombie left for
   * a slow init to reap keeps kill(-pgid, 0) answering, and must not cost a read of every
   * process at each poll).
   */
  groupAlive(): boolean {
    const pid = this.child.pid;
    if (pid === undefined || this.groupGone) return false;
    if (process.platform === 'linux' && this.lastMembers.some((m) => liveMemberOf(m, pid))) return true;
    const exited = this.exited;
    this.lastMembers = groupMembers(pid);
    if (exited && this.lastMembers.length === 0) this.groupGone = true;
    return this.lastMembers.length > 0;
  }

  private finish(): void {
    if (this.log !== undefined) {
      try {
        fs.closeSync(this.log);
      } catch {
        // already closed
      }
      this.log = undefined;
    }
  }
}
