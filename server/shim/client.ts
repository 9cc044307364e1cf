// The shim's connection to the daemon: ensure it runs, then typed requests over
// vscode-jsonrpc. A daemon refusal becomes a `Refusal` carrying the daemon's message.
import type * as net from 'node:net';
import * as path from 'node:path';
import { createMessageConnection, ResponseError, SocketMessageReader, SocketMessageWriter } from 'vscode-jsonrpc/node';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import type { z } from 'zod';
import { ensureDaemon } from '../../shared/client/ensureDaemon';
import type { Discovery } from '../../shared/discovery';
import { kindFromRpcCode } from '../../shared/errors';
import type { ErrorKind } from '../../shared/errors';
import { daemonStop } from '../../shared/protocol/daemon';
import type { NotificationDef, RequestDef } from '../../shared/protocol/rpc';
import { svcHomeFrom } from '../../shared/svcHome';
import { SVC_BUILD } from '../../shared/version';

export class Refusal extends Error {
  constructor(
    message: string,
    readonly reason: string,
    readonly kind: ErrorKind,
  ) {
    super(message);
  }
}

export interface Client {
  discovery: Discovery;
  started: boolean;
  request<P extends z.ZodType, R extends z.ZodType>(def: RequestDef<P, R>, params: z.input<P>): Promise<z.output<R>>;
  onNotification<P extends z.ZodType>(def: NotificationDef<P>, fn: (p: z.output<P>) => void): void;
  close(): void;
}

function wrap(socket: net.Socket): MessageConnection {
  const c = createMessageConnection(new SocketMessageReader(socket), new SocketMessageWriter(socket));
  c.listen();
  return c;
}

/** Asks the daemon on `socket` to stop, whatever its build (daemon/stop never changes). */
export async function askToStop(socket: net.Socket, reason: string): Promise<void> {
  const c = wrap(socket);
  try {
    await c.sendRequest(daemonStop.method, { reason });
  } finally {
    c.dispose();
    socket.destroy();
  }
}

export async function connect(env: NodeJS.ProcessEnv): Promise<Client> {
  const attached = await ensureDaemon({
    home: svcHomeFrom(env),
    daemonScript: path.join(__dirname, 'daemon.js'),
    nodePath: process.execPath,
    build: SVC_BUILD,
    env,
    stopOther: (socket) => askToStop(socket, `replaced by build ${SVC_BUILD}`),
  });
  const connection = wrap(attached.socket);
  return {
    discovery: attached.discovery,
    started: attached.started,
    async request(def, params) {
      try {
        return (await connection.sendRequest(def.method, params)) as never;
      } catch (e) {
        if (e instanceof ResponseError) {
          const data = e.data as { error?: string; reason?: string } | undefined;
          throw new Refusal(data?.error ?? e.message, data?.reason ?? 'rpc', kindFromRpcCode(e.code));
        }
        throw e;
      }
    },
    onNotification(def, fn) {
      connection.onNotification(def.method, (p: unknown) => fn(p as never));
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
