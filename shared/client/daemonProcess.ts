// Probing a daemon process and its socket: shared by the start path (ensureDaemon.ts) and
// the check for a daemon that still serves a home (homeDaemon.ts).
import { readFileSync, readdirSync } from 'node:fs';
import { connect } from 'node:net';
import type { Socket } from 'node:net';

/** The socket when it answers; otherwise undefined, with the error code given to `onError`. */
export function tryConnect(
  socketPath: string,
  timeoutMs: number,
  onError?: (code: string) => void,
): Promise<Socket | undefined> {
  return new Promise((resolve) => {
    const socket = connect(socketPath);
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(undefined);
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      resolve(socket);
    });
    socket.once('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      onError?.(e.code ?? 'error');
      resolve(undefined);
    });
  });
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

/** A detached daemon that exited stays a zombie until its new parent reaps it, and some
 *  init processes reap slowly (seconds): signal 0 still succeeds then, so ask /proc.
 *  Every thread must be a zombie: the main thread of a killed process turns zombie while
 *  its other threads still run and still hold its files (the socket) open. */
function isZombie(pid: number): boolean {
  if (process.platform !== 'linux') return false;
  try {
    const tasks = readdirSync(`/proc/${pid}/task`);
    return tasks.every((t) => {
      try {
        const stat = readFileSync(`/proc/${pid}/task/${t}/stat`, 'utf8');
        return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
      } catch {
        return true; // that thread is gone
      }
    });
  } catch {
    return false;
  }
}
