// Finds the daemon of an SVC_HOME, starting it when absent and replacing it when it is
// of another build. Used by the shim and the extension (which passes the user's node).
// A stale lock, socket or discovery file never blocks: the lock is a kernel lock that
// dies with its process, and a discovery file whose socket does not answer is ignored.
import type { ChildProcess } from 'node:child_process';
import { chmodSync, closeSync, existsSync, fstatSync, mkdirSync, openSync, readFileSync, readSync } from 'node:fs';
import type * as net from 'node:net';
import { dirname } from 'node:path';
import { checkHomeFolder, readDiscovery } from '../discovery';
import type { Discovery } from '../discovery';
import { homePaths } from '../svcHome';
import { isAlive, tryConnect } from './daemonProcess';
import { daemonOfHomeAnswers } from './homeDaemon';

export { isAlive, tryConnect };

export interface EnsureOptions {
  home: string;
  /** Absolute path of dist/daemon.js. */
  daemonScript: string;
  /** The node binary that runs the daemon (never Electron). */
  nodePath: string;
  build: string;
  env: NodeJS.ProcessEnv;
  /** Asks a daemon of another build to stop; resolves once it was asked. */
  stopOther(socket: net.Socket): Promise<void>;
  timeoutMs?: number;
  /** The conversation whose agent runs this caller ($SVC_CONVERSATION). Such a caller never
   *  starts a daemon that was stopped on purpose: the stop ended its agent too, and the
   *  agent's last `svc` call would otherwise bring the daemon back behind the person's back.
   *  A daemon that crashed left no marker and is started again, so the report is not lost. */
  insideConversation?: string;
}

export interface Attached {
  discovery: Discovery;
  socket: net.Socket;
  started: boolean;
}

export class DaemonUnavailable extends Error {}

export async function ensureDaemon(o: EnsureOptions): Promise<Attached> {
  const paths = homePaths(o.home);
  const deadline = Date.now() + (o.timeoutMs ?? 20_000);
  // The daemon we started, while it runs. One that exits without writing a discovery
  // file lost the lock to a daemon that was stopping (or to a racing starter that lost
  // too): start another, so that race never ends in a timeout.
  let child: ChildProcess | undefined;
  // Where the log ended when we started our daemon: its failure reason is written after.
  let logStart = 0;
  let spawned = false;
  // We stopped a daemon of another build ourselves: starting its successor is ours to do.
  let replacing = false;
  let lastProblem = 'no discovery file appeared';
  for (;;) {
    const d = existsSync(o.home) ? (checkHomeFolder(o.home), readDiscovery(paths.discovery)) : undefined;
    if (d) {
      let refusedWith: string | undefined;
      const socket = await tryConnect(d.socketPath, 2000, (code) => (refusedWith = code));
      if (socket && d.build === o.build) return { discovery: d, socket, started: spawned };
      if (socket) {
        await o.stopOther(socket).catch(() => undefined);
        replacing = true;
        socket.destroy();
        await waitForExit(d.pid, 15_000);
        continue;
      }
      // A running daemon whose socket this process may not open (a sandboxed agent shell):
      // starting another would fail the same way, so say why at once.
      if ((refusedWith === 'EPERM' || refusedWith === 'EACCES') && isAlive(d.pid)) {
        throw new DaemonUnavailable(
          `cannot connect to the svc daemon on ${d.socketPath} (${refusedWith}): this process is not allowed to open that socket (a sandbox, or another user's SVC_HOME); allow the folder ${dirname(d.socketPath)} in the sandbox, or run svc outside it`,
        );
      }
      lastProblem = `daemon pid ${d.pid} does not answer on ${d.socketPath}`;
      // Its socket was deleted while it runs: it listens there again within a second.
      // Starting another daemon would put two on one home.
      if (!child && isAlive(d.pid) && (await daemonOfHomeAnswers(o.home))) {
        lastProblem = `daemon pid ${d.pid} answers over HTTP but its socket ${d.socketPath} is gone (it re-creates it)`;
        if (Date.now() > deadline)
          throw new DaemonUnavailable(
            `svc daemon did not come up within ${Math.round((o.timeoutMs ?? 20_000) / 1000)} s (${lastProblem}); see ${paths.daemonLog}`,
          );
        await sleep(100);
        continue;
      }
    }
    if (child && child.exitCode !== null && child.exitCode !== 0) {
      throw new DaemonUnavailable(
        `svc daemon failed to start (exit ${child.exitCode})${whyFailed(paths.daemonLog, logStart)}; see ${paths.daemonLog}`,
      );
    }
    if (!child || child.exitCode === 0) {
      if (o.insideConversation !== undefined && !spawned && !replacing)
        refuseIfStopped(paths.stopped, o.insideConversation);
      ({ child, logStart } = spawnDaemon(o));
      spawned = true;
    }
    if (Date.now() > deadline) {
      throw new DaemonUnavailable(
        `svc daemon did not come up within ${Math.round((o.timeoutMs ?? 20_000) / 1000)} s (${lastProblem}); see ${paths.daemonLog}`,
      );
    }
    await sleep(25);
  }
}

function refuseIfStopped(marker: string, conversation: string): void {
  let stop: { reason?: unknown; at?: unknown };
  try {
    stop = JSON.parse(readFileSync(marker, 'utf8')) as typeof stop;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    stop = {}; // a damaged marker still says the daemon was stopped
  }
  const how = [typeof stop.reason === 'string' ? stop.reason : '', typeof stop.at === 'string' ? `at ${stop.at}` : '']
    .filter(Boolean)
    .join(', ');
  throw new DaemonUnavailable(
    `the svc daemon is not running: it was stopped${how ? ` (${how})` : ''} while this agent worked, and svc does not start it again from inside an agent (conversation #${conversation}); the work stays in this worktree. The person starts svc again (any svc command outside an agent, or VS Code), and svc conv resume ${conversation} continues this conversation`,
  );
}

function spawnDaemon(o: EnsureOptions): { child: ChildProcess; logStart: number } {
  const paths = homePaths(o.home);
  let log: number;
  try {
    mkdirSync(paths.logs, { recursive: true, mode: 0o700 });
    chmodSync(o.home, 0o700);
    log = openSync(paths.daemonLog, 'a', 0o600);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'error';
    throw new DaemonUnavailable(
      `cannot start the svc daemon: SVC_HOME ${o.home} cannot be written here (${code}), and no running daemon answered there; run svc where that folder is writable (outside a sandbox), or set SVC_HOME to a writable folder`,
    );
  }
  const logStart = fstatSync(log).size;
  const env: NodeJS.ProcessEnv = { ...o.env, SVC_HOME: o.home };
  delete env.SVC_CONVERSATION; // the daemon is nobody's conversation
  // Loaded here, not at the top: only a start needs it, and loading it (with the modules it
  // pulls in) is a noticeable part of every other `svc` command's start.
  const { spawn } = process.getBuiltinModule('node:child_process');
  const child = spawn(o.nodePath, [o.daemonScript], {
    detached: true,
    cwd: o.home, // never inside a lane directory, so reap's process check never sees it
    env,
    stdio: ['ignore', log, log],
  });
  child.on('error', () => undefined); // reported through the timeout message and the log
  child.unref();
  closeSync(log);
  return { child, logStart };
}

const FAILED = 'svc daemon failed to start: ';

/** `: <reason>` from the start failure our daemon wrote to its log after `from` (server/main.ts
 *  writes it last, then exits): the whole reason, every line of it — a native module's
 *  load error says what is wrong only on its later lines. */
function whyFailed(logFile: string, from: number): string {
  try {
    const fd = openSync(logFile, 'r');
    const size = fstatSync(fd).size;
    const start = Math.max(from, size - 65_536);
    const buf = Buffer.alloc(Math.max(0, size - start));
    readSync(fd, buf, 0, buf.length, start);
    closeSync(fd);
    const text = buf.toString('utf8');
    const at = text.lastIndexOf(`\n${FAILED}`);
    const begin = at >= 0 ? at + 1 : text.startsWith(FAILED) ? 0 : -1;
    return begin >= 0 ? `: ${text.slice(begin + FAILED.length).trimEnd()}` : '';
  } catch {
    return '';
  }
}

export async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await sleep(25);
  }
  return !isAlive(pid);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
