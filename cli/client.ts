// The shim's connection to the daemon: ensure it runs, then typed requests over the small
// JSON-RPC client (shared/client/rpcClient.ts). A daemon refusal becomes a `DaemonRefusal` carrying the daemon's message.
import type * as net from 'node:net';
import { join } from 'node:path';
import type { z } from 'zod';
import { ConnectionLost } from '../shared/client/connectionLost';
import { askToStop, DaemonRefusal, readRpcError } from '../shared/client/daemonRefusal';
import { withCallerEnvelope } from '../shared/client/callerEnvelope';
import { rpcOver } from '../shared/client/rpcClient';
import { DaemonUnavailable, ensureDaemon } from '../shared/client/ensureDaemon';
import type { Discovery } from '../shared/discovery';
import { daemonStatus, hello } from '../shared/protocol/daemon';
import type { NotificationDef, RequestDef } from '../shared/protocol/rpc';
import { svcHomeFrom } from '../shared/svcHome';
import { SVC_BUILD } from '../shared/version';

export interface Client {
  discovery: Discovery;
  started: boolean;
  request<P extends z.ZodType, R extends z.ZodType>(def: RequestDef<P, R>, params: z.input<P>): Promise<z.output<R>>;
  onNotification<P extends z.ZodType>(def: NotificationDef<P>, fn: (p: z.output<P>) => void): void;
  /** Runs `fn` once when the connection closes (the daemon went away, or close()). */
  onClose(fn: () => void): void;
  close(): void;
}

export async function askLiveAgents(socket: net.Socket): Promise<number> {
  const c = rpcOver(socket);
  try {
    const info = (await c.sendRequest(daemonStatus.method, {})) as { live?: unknown };
    return typeof info.live === 'number' ? info.live : 0;
  } finally {
    c.dispose();
    socket.destroy();
  }
}

/** How long svc on a host waits for the SSH link to come back before it gives up on a command
 *  (the daemon retries the link with a backoff of up to 30 s; an outage of a few minutes is common). */
export const LINK_WAIT_S = 600;
const LINK_POLL_MS = 500;

/**
 * Inside an agent on another host, svc reaches the daemon through the socket ssh forwards
 * there ($SVC_SOCKET): connect to it as it is, never start a daemon on the host. While the
 * link is down the socket refuses (or is gone): nothing was sent, so svc waits for the
 * daemon to reconnect it — bounded, and saying so on stderr — rather than lose a report.
 */
async function attachForwarded(
  socketPath: string,
): Promise<{ discovery: Discovery; socket: net.Socket; started: boolean }> {
  const deadline = Date.now() + LINK_WAIT_S * 1000;
  let waiting = false;
  for (;;) {
    try {
      const socket = await connectOnce(socketPath);
      if (waiting) process.stderr.write('svc: the link to the daemon is back; going on\n');
      return {
        discovery: { pid: 0, version: '', build: SVC_BUILD, socketPath, httpPort: 0, token: '' },
        socket,
        started: false,
      };
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
      const linkDown = code === 'ECONNREFUSED' || code === 'ENOENT';
      if (!linkDown || Date.now() >= deadline) {
        const waited = waiting ? `; waited ${LINK_WAIT_S / 60} minutes for it` : '';
        throw new DaemonUnavailable(
          `cannot reach the svc daemon through the forwarded socket ${socketPath} (${code}): the SSH connection from the daemon's machine is down${waited}; svc reconnects it from there (svc host check <host> says why it cannot); run this command again once it is back`,
        );
      }
      if (!waiting) {
        waiting = true;
        process.stderr.write(
          `svc: the SSH link to the daemon's machine is down (${code} on ${socketPath}); waiting up to ${LINK_WAIT_S / 60} minutes for svc to reconnect it, then this command goes on\n`,
        );
      }
      await new Promise((r) => setTimeout(r, LINK_POLL_MS));
    }
  }
}

async function connectOnce(socketPath: string): Promise<net.Socket> {
  const { createConnection } = await import('node:net');
  return new Promise<net.Socket>((resolve, reject) => {
    const s = createConnection(socketPath, () => {
      s.removeListener('error', reject);
      resolve(s);
    });
    s.once('error', reject);
  });
}

/** `explicitStart`: the command itself is a start (`svc daemon restart`), which an agent may ask for too. */
export async function connect(env: NodeJS.ProcessEnv, opts: { explicitStart?: boolean } = {}): Promise<Client> {
  const attached = env.SVC_SOCKET
    ? await attachForwarded(env.SVC_SOCKET)
    : await ensureDaemon({
        home: svcHomeFrom(env),
        daemonScript: join(__dirname, 'daemon.js'),
        nodePath: process.execPath,
        build: SVC_BUILD,
        env,
        stopOther: (socket) => askToStop(socket, `replaced by build ${SVC_BUILD}`),
        insideConversation: opts.explicitStart ? undefined : env.SVC_CONVERSATION?.trim() || undefined,
      });
  const connection = rpcOver(attached.socket);
  // No notifications unless a command follows changes (onNotification below): the first
  // bytes on the connection, so the daemon reads this before any request.
  connection.sendNotification(hello.method, { notifications: false });
  let notified = false;
  // A request left pending when the socket closes would let an empty event loop exit 0:
  // every request races the close too.
  let markClosed!: () => void;
  const closed = new Promise<void>((r) => (markClosed = r));
  connection.onClose(markClosed);
  attached.socket.once('close', markClosed);
  return {
    discovery: attached.discovery,
    started: attached.started,
    async request(def, params) {
      try {
        const lost = closed.then(() => Promise.reject(new ConnectionLost(def.method, params)));
        return (await Promise.race([
          connection.sendRequest(def.method, withCallerEnvelope(params, env)),
          lost,
        ])) as never;
      } catch (e) {
        if (e instanceof ConnectionLost) throw e;
        const answer = readRpcError(e);
        if (answer instanceof DaemonRefusal) throw answer;
        // Otherwise the transport failed (a cut-off request, EPIPE or ECONNRESET writing
        // it): the daemon may have read it before it went away.
        throw new ConnectionLost(def.method, params);
      }
    },
    onNotification(def, fn) {
      connection.onNotification(def.method, (p) => fn(p as never));
      // Asked before any later request, so the daemon sends every change after that request's answer.
      if (!notified) connection.sendNotification(hello.method, { notifications: true });
      notified = true;
    },
    onClose(fn) {
      void closed.then(fn);
    },
    close() {
      connection.dispose();
      attached.socket.destroy();
    },
  };
}

/** Connects to the daemon, runs `fn`, and always closes the connection. */
export async function withDaemon<T>(io: { env: NodeJS.ProcessEnv }, fn: (c: Client) => Promise<T>): Promise<T> {
  const c = await connect(io.env);
  try {
    return await fn(c);
  } finally {
    c.close();
  }
}

const RETRIES = 3;

/** Runs an idempotent request again when the daemon went away before answering (the
 *  next attempt starts a daemon if none runs). Only for requests the daemon dedupes. */
export async function retryOnConnectionLost<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (e) {
      if (!(e instanceof ConnectionLost) || attempt > RETRIES) throw e;
      await new Promise((r) => setTimeout(r, 200 * attempt));
    }
  }
}
