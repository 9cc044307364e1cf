// How every client (the shim, the extension) reads a daemon's error answer, and how it
// asks a daemon of another build to stop. One mapping, so `svc` and the editor tell the
// user the same thing for the same answer.
import type * as net from 'node:net';
import { kindFromRpcCode } from '../errors';
import type { ErrorKind } from '../errors';
import { daemonStop } from '../protocol/daemon';
import { isSvcReason } from '../refusals/reasons';
import type { SvcReason } from '../refusals/reasons';
import { TRANSPORT_ERROR_CODES } from './connectionLost';
import { withCallerEnvelope } from './callerEnvelope';
import { rpcOver } from './rpcClient';

/**
 * The daemon answered with a typed error; `message` is the daemon's text, shown as is.
 * `reason` is one of the domains' lists (shared/refusals/), so a client matches on the
 * same union the daemon throws with; `rpc` when the answer named none svc knows.
 */
export class DaemonRefusal<R extends SvcReason = SvcReason> extends Error {
  constructor(
    message: string,
    readonly reason: R,
    readonly kind: ErrorKind,
  ) {
    super(message);
    this.name = 'DaemonRefusal';
  }

  static is<R extends SvcReason = SvcReason>(e: unknown, reason?: R): e is DaemonRefusal<R> {
    return e instanceof DaemonRefusal && (reason === undefined || e.reason === reason);
  }
}

/**
 * What a failed request's error means: the daemon refused (its message and reason), the
 * connection was cut off before the answer (`lost`), or neither (undefined: not an RPC
 * answer at all). Read by shape, since vscode-languageclient (the extension) and rpcClient
 * (the shim) each have their own error class.
 */
export function readRpcError(e: unknown): DaemonRefusal | 'lost' | undefined {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code !== 'number') return undefined;
  if (TRANSPORT_ERROR_CODES.has(code)) return 'lost';
  const data = (e as { data?: { error?: string; reason?: unknown } }).data;
  return new DaemonRefusal(
    data?.error ?? (e as Error).message,
    isSvcReason(data?.reason) ? data.reason : 'rpc',
    kindFromRpcCode(code),
  );
}

/** Asks the daemon on `socket` to stop, whatever its build (daemon/stop never changes). */
/** `env`: the asker's environment; from inside an agent the request says so, and the
 *  daemon refuses it (only a person stops the daemon). */
export async function askToStop(socket: net.Socket, reason: string, env?: NodeJS.ProcessEnv): Promise<void> {
  const c = rpcOver(socket);
  // A daemon that closes before answering is stopping (or died) all the same.
  const closed = new Promise<void>((r) => socket.once('close', () => r()));
  try {
    await Promise.race([c.sendRequest(daemonStop.method, withCallerEnvelope({ reason }, env)), closed]);
  } catch (e) {
    const answer = readRpcError(e);
    // The close can reach the request before the socket's own 'close' event: the same case.
    if (answer === 'lost') return;
    throw answer instanceof DaemonRefusal ? answer : e;
  } finally {
    c.dispose();
    socket.destroy();
  }
}
