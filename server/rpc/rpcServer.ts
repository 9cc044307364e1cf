// JSON-RPC (LSP framing) over the daemon socket. One MessageConnection per client;
// every request is validated against its zod schema and answered with a typed error,
// never a crash. A client's LSP `exit` closes only that client's connection.
import * as net from 'node:net';
import { createMessageConnection, ResponseError, SocketMessageWriter, StreamMessageReader } from 'vscode-jsonrpc/node';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import type { z } from 'zod';
import { RpcErrorCode, SvcError } from '../../shared/errors';
import { CALLER_TOKEN_PARAM } from '../../shared/protocol/rpc';
import type { NotificationDef, RequestDef } from '../../shared/protocol/rpc';
import { bytesExcerpt, logger } from '../util/log';
import { FrameGuard } from './frameGuard';
import { isDiskFull } from '../store/diskFull';
import { rpcRefusals } from './rpcRefusals';
import type { RpcRefusal } from './rpcRefusals';

const log = logger('rpc');

export interface RequestContext {
  /** Aborted when the client that sent the request disconnects. */
  signal: AbortSignal;
  clientId: number;
}

type Handler = (params: unknown, ctx: RequestContext) => unknown;

interface Client {
  id: number;
  socket: net.Socket;
  connection: MessageConnection;
  abort: AbortController;
}

export class RpcServer {
  private handlers = new Map<string, { def: RequestDef<z.ZodType, z.ZodType>; fn: Handler }>();
  private clients = new Set<Client>();
  private nextClientId = 1;
  private servers: net.Server[] = [];
  private callerCheck?: (caller: string, token: string | undefined) => void;

  constructor(private readonly serverInfo: { name: string; version: string }) {}

  handle<P extends z.ZodType, R extends z.ZodType>(def: RequestDef<P, R>, fn: (params: z.output<P>, ctx: RequestContext) => z.input<R> | Promise<z.input<R>>): void {
    if (this.handlers.has(def.method)) throw new Error(`handler for ${def.method} registered twice`);
    this.handlers.set(def.method, { def: def as unknown as RequestDef<z.ZodType, z.ZodType>, fn: fn as Handler });
  }

  /** Checks the credential of every request that names a `caller` conversation (see conversations/callerCredential.ts). */
  checkCallers(fn: (caller: string, token: string | undefined) => void): void {
    this.callerCheck = fn;
  }

  methods(): string[] {
    return [...this.handlers.keys()];
  }

  broadcast<P extends z.ZodType>(def: NotificationDef<P>, params: z.input<P>): void {
    for (const c of this.clients) {
      c.connection.sendNotification(def.method, params).catch(() => undefined);
    }
  }

  get clientCount(): number {
    return this.clients.size;
  }

  /** Listens on `socketPath`; called again when that path was deleted while we run, the
   *  earlier listeners keep their clients. */
  listen(socketPath: string): Promise<void> {
    const server = net.createServer((socket) => this.accept(socket));
    this.servers.push(server);
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => {
        server.off('error', reject);
        resolve();
      });
    });
  }

  async close(): Promise<void> {
    for (const c of this.clients) {
      c.connection.dispose();
      c.socket.destroy();
    }
    await Promise.all(this.servers.map((server) => new Promise<void>((r) => server.close(() => r()))));
  }

  private accept(socket: net.Socket): void {
    const guard = new FrameGuard((why, sample) => {
      log.warn(`closing client: ${why}; it sent ${bytesExcerpt(sample)}`);
      socket.destroy();
    });
    socket.on('error', () => undefined);
    socket.pipe(guard);
    const connection = createMessageConnection(new StreamMessageReader(guard), new SocketMessageWriter(socket));
    const client: Client = { id: this.nextClientId++, socket, connection, abort: new AbortController() };
    this.clients.add(client);
    const drop = () => {
      if (!this.clients.delete(client)) return;
      client.abort.abort();
      connection.dispose();
      socket.destroy();
    };
    connection.onClose(drop);
    connection.onError(([err]) => {
      log.warn(`client ${client.id}: ${err.message}; closing it`);
      drop();
    });
    socket.on('close', drop);

    // LSP lifecycle for vscode-languageclient; `exit` ends only this connection.
    connection.onRequest('initialize', () => ({ capabilities: {}, serverInfo: this.serverInfo }));
    connection.onNotification('initialized', () => undefined);
    connection.onRequest('shutdown', () => null);
    connection.onNotification('exit', drop);

    connection.onRequest((method, raw) => this.dispatch(client, method, raw));
    connection.listen();
  }

  private async dispatch(client: Client, method: string, raw: unknown): Promise<unknown> {
    const entry = this.handlers.get(method);
    if (!entry) throw answer(rpcRefusals.unknownMethod(method));
    // The shim adds the agent's credential beside the method's own params.
    let token: string | undefined;
    if (raw && typeof raw === 'object' && !Array.isArray(raw) && CALLER_TOKEN_PARAM in raw) {
      const { [CALLER_TOKEN_PARAM]: t, ...rest } = raw as Record<string, unknown>;
      token = typeof t === 'string' ? t : undefined;
      raw = rest;
    }
    const parsed = entry.def.params.safeParse(raw ?? {});
    if (!parsed.success) {
      const detail = parsed.error.issues.map((i) => `${i.path.join('.') || 'params'}: ${i.message}`).join('; ');
      throw answer(rpcRefusals.badParams(method, detail));
    }
    try {
      const caller = (parsed.data as { caller?: unknown }).caller;
      if (typeof caller === 'string' && caller !== '') this.callerCheck?.(caller, token);
      return await entry.fn(parsed.data, { signal: client.abort.signal, clientId: client.id });
    } catch (e) {
      if (e instanceof SvcError) throw new ResponseError(RpcErrorCode[e.kind], e.message, e.toBody());
      if (e instanceof ResponseError) throw e;
      log.error(`${method} failed`, e);
      if (isDiskFull(e)) throw answer(rpcRefusals.diskFull(method, (e as Error).message));
      throw answer(rpcRefusals.internal(method, (e as Error)?.message ?? String(e)));
    }
  }
}

const answer = (r: RpcRefusal) => new ResponseError(r.code, r.body.error, r.body);
