// The SSH channel's end of an agent on a host (see relay.ts). `launch` starts the relay
// detached and then attaches; `attach` connects to a running relay. Both only pipe bytes
// between the channel (stdin/stdout) and the relay's socket: when the connection drops
// this process ends and the relay, in a session of its own, carries on. With no relay to
// attach to, it answers for it: a HELLO saying it is gone, with the exit it left behind.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { groupMembers } from '../../util/processGroup';
import { F, frame } from './frames';
import type { RelayExit, RelayHello } from './frames';
import { EXIT, SOCKET, STATE } from './relay';
import type { RelayState } from './relay';

export function readState(runDir: string): RelayState | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(runDir, STATE), 'utf8')) as RelayState;
  } catch {
    return null;
  }
}

export function readExit(runDir: string): RelayExit | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(runDir, EXIT), 'utf8')) as RelayExit;
  } catch {
    return null;
  }
}

export const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Connects to the relay's socket (relative to the run folder: a socket path holds ~100 bytes). */
function connect(runDir: string): Promise<net.Socket | null> {
  return new Promise((resolve) => {
    let sock: net.Socket;
    try {
      process.chdir(runDir);
      sock = net.connect(SOCKET);
    } catch {
      return resolve(null);
    }
    sock.once('connect', () => resolve(sock));
    sock.once('error', () => resolve(null));
  });
}

/**
 * Ends what runs in `runDir` (the agent, then its relay): asks the relay, then signals the
 * agent's group; waits for both to go. What a new launch of the same conversation does
 * first, and what a restarted daemon asks for the agents it can no longer talk to (which
 * then removes the run folder: no one will attach to it again).
 */
export async function stopRelay(
  runDir: string,
  why: string,
  remove = false,
): Promise<{ wasRunning: boolean; stopped: boolean }> {
  const state = readState(runDir);
  const running = () => state !== null && (alive(state.relayPid) || groupMembers(state.pgid).length > 0);
  const finish = (r: { wasRunning: boolean; stopped: boolean }) => {
    if (remove && r.stopped) fs.rmSync(runDir, { recursive: true, force: true });
    return r;
  };
  if (!running()) return finish({ wasRunning: false, stopped: true });
  const sock = await connect(runDir);
  sock?.end(frame(F.STOP, { why }));
  for (let i = 0; i < 200 && running(); i++) {
    if (i === 100) {
      for (const pid of [-state!.pgid, state!.relayPid]) {
        try {
          process.kill(pid, 'SIGTERM');
        } catch {
          // gone
        }
      }
    }
    await sleep(100);
  }
  return finish({ wasRunning: true, stopped: !running() });
}

/** `svcHost.js launch <runDir> <cwd> -- <argv…>`: a fresh relay for this run folder, then attach. */
export async function launchMain(runDir: string, cwd: string, argv: string[]): Promise<void> {
  fs.mkdirSync(runDir, { recursive: true, mode: 0o700 });
  fs.chmodSync(runDir, 0o700);
  const earlier = await stopRelay(runDir, 'stopped by svc: the conversation was started again');
  if (earlier.wasRunning)
    process.stderr.write(
      `svc: an earlier agent of this conversation was still running on this host; ${earlier.stopped ? 'it was stopped' : 'it could not be stopped'}\n`,
    );
  for (const f of [SOCKET, STATE, EXIT, 'stderr.log']) fs.rmSync(path.join(runDir, f), { force: true });
  const log = fs.openSync(path.join(runDir, 'relay.log'), 'a', 0o600);
  const relay = spawn(process.execPath, [process.argv[1], 'relay', runDir, cwd, '--', ...argv], {
    cwd: runDir,
    detached: true,
    stdio: ['ignore', 'ignore', log],
    env: process.env,
  });
  relay.unref();
  fs.closeSync(log);
  for (let i = 0; i < 300; i++) {
    const sock = await connect(runDir);
    if (sock) return pipe(sock);
    if (relay.exitCode !== null) break;
    await sleep(50);
  }
  process.stderr.write(`svc: svc's relay did not start on this host (see ${runDir}/relay.log)\n`);
  process.exit(96);
}

/** `svcHost.js attach <runDir>`: join a running relay, or say what it left. */
export async function attachMain(runDir: string): Promise<void> {
  const sock = fs.existsSync(runDir) ? await connect(runDir) : null;
  if (sock) return pipe(sock);
  const hello: RelayHello = { gone: true, exit: readExit(runDir) };
  process.stdout.write(frame(F.HELLO, hello), () => process.exit(0));
}

function pipe(sock: net.Socket): void {
  const done = () => process.exit(0);
  process.stdin.on('data', (d: Buffer) => sock.write(d));
  // The channel is gone (the connection dropped, or the daemon let go): the relay carries on.
  process.stdin.on('end', () => sock.destroy());
  process.stdin.on('error', () => sock.destroy());
  process.stdout.on('error', () => sock.destroy());
  sock.on('data', (d: Buffer) => {
    if (!process.stdout.write(d)) {
      sock.pause();
      process.stdout.once('drain', () => sock.resume());
    }
  });
  sock.on('close', () => process.stdout.write('', done));
  sock.on('error', () => undefined);
}
