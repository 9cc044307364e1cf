// JSON-RPC (LSP framing) over the daemon socket. One MessageConnection per client;
// every request is validated against its zod schema and answered with a typed error,
// never a crash. A client's LSP `exit` closes only that client's connection.
import * as fs from 'node:fs';
import * as net from 'node:net';
import { createMessageConnection, ResponseError, SocketMessageWriter, StreamMessageReader } from 'vscode-jsonrpc/node';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import type { z } from 'zod';
import { RpcErrorCode, SvcError } from '../../shared/errors';
import { CALLER_TOKEN_PARAM } from '../../shared/protocol/rpc';
import type { NotificationDef, RequestDef } from '../../shared/protocol/rpc';
import { bytesExcerpt, logger } from '../util/log';
import { FrameGuard } from './frameGuard';
import { rpcRefusals } from './rpcRefusals';
import type { RpcRefusal } from './rpcRefusals';

const log = logger('rpc');

export interface RequestContext {
  /** Aborted when the client that sent the request disconnects. */
  signal: AbortSignal;
  clientId: number;
  /**
   * The conversation whose own socket the request came over (a sandboxed agent's: see
   * listenForConversation); undefined on the daemon's shared socket. Such a request is that
   * conversation's whatever it claims, and never a person's.
   */
  connectionConversation?: number;
}

type Handler = (params: unknown, ctx: RequestContext) => unknown;

interface Client {
  id: number;
  /** Set when the client connected over a conversation's own socket. */
  conversation?: number;
  socket: net.Socket;
  connection: MessageConnection;
  abort: AbortController;
}

export class RpcServer {
  private handlers = new Map<string, { def: RequestDef<z.ZodType, z.ZodType>; fn: Handler }>();
  private clients = new Set<Client>();
  private nextClientId = 1;
  private server?: net.Server;
  private callerCheck?: (caller: string, token: string | undefined) => void;
  private callerBinding?: (conversation: number, claimed: string | undefined) => string;
  private conversationServers = new Map<number, net.Server>();

  constructor(private readonly serverInfo: { name: string; version: string }) {}

  handle<P extends z.ZodType, R extends z.ZodType>(def: RequestDef<P, R>, fn: (params: z.output<P>, ctx: RequestContext) => z.input<R> | Promise<z.input<R>>): void {
    if (this.handlers.has(def.method)) throw new Error(`handler for ${def.method} registered twice`);
    this.handlers.set(def.method, { def: def as unknown as RequestDef<z.ZodType, z.ZodType>, fn: fn as Handler });
  }

  /** Checks the credential of every request that names a `caller` conversation (see conversations/callerCredential.ts). */
  checkCallers(fn: (caller: string, token: string | undefined) => void): void {
    this.callerCheck = fn;
  }

  /**
   * How a request over a conversation's own socket names its caller: given the socket's
   * conversation and what the request claims (maybe nothing), the caller it runs as, or a
   * refusal when it claims another conversation.
   */
  bindCallers(fn: (conversation: number, claimed: string | undefined) => string): void {
    this.callerBinding = fn;
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

  listen(socketPath: string): Promise<void> {
    this.server = net.createServer((socket) => this.accept(socket));
    return new Promise((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(socketPath, () => {
        this.server!.off('error', reject);
        resolve();
      });
    });
  }

  /**
   * Listens on a socket of conversation `conversation` alone: every client of it is that
   * conversation (the socket is bound into its agent's sandbox and reachable nowhere else
   * the agent can go). A leftover file at the path (a previous daemon's) is replaced.
   */
  async listenForConversation(socketPath: string, conversation: number): Promise<{ close(): Promise<void> }> {
    await this.closeConversation(conversation);
    fs.rmSync(socketPath, { force: true });
    const server = net.createServer((socket) => this.accept(socket, conversation));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.conversationServers.set(conversation, server);
    // Closes this listener only: a later start of the same conversation has its own.
    return { close: () => this.closeConversation(conversation, server) };
  }

  /** Stops listening on a conversation's socket (`only` that listener, if given) and removes it; its open connections close. */
  private async closeConversation(conversation: number, only?: net.Server): Promise<void> {
    const server = this.conversationServers.get(conversation);
    if (!server || (only && server !== only)) return;
    this.conversationServers.delete(conversation);
    for (const c of this.clients) if (c.conversation === conversation) c.socket.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  }

  async close(): Promise<void> {
    await Promise.all([...this.conversationServers.keys()].map((id) => this.closeConversation(id)));
    for (const c of this.clients) {
      c.connection.dispose();
      c.socket.destroy();
    }
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }

  private accept(socket: net.Socket, conversation?: number): void {
    const guard = new FrameGuard((why, sample) => {
      log.warn(`closing client: ${why}; it sent ${bytesExcerpt(sample)}`);
      socket.destroy();
    });
    socket.on('error', () => undefined);
    socket.pipe(guard);
    const connection = createMessageConnection(new StreamMessageReader(guard), new SocketMessageWriter(socket));
    const client: Client = { id: this.nextClientId++, conversation, socket, connection, abort: new AbortController() };
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
      const data = parsed.data as { caller?: unknown };
      if (client.conversation !== undefined) {
        // The socket is the credential: the request is its conversation's, whatever it claims.
        if (this.callerBinding && acceptsCaller(entry.def))
          data.caller = this.callerBinding(client.conversation, typeof data.caller === 'string' && data.caller !== '' ? data.caller : undefined);
      } else if (typeof data.caller === 'string' && data.caller !== '') this.callerCheck?.(data.caller, token);
      return await entry.fn(data, { signal: client.abort.signal, clientId: client.id, connectionConversation: client.conversation });
    } catch (e) {
      if (e instanceof SvcError) throw new ResponseError(RpcErrorCode[e.kind], e.message, e.toBody());
      if (e instanceof ResponseError) throw e;
      log.error(`${method} failed`, e);
      throw answer(rpcRefusals.internal(method, (e as Error)?.message ?? String(e)));
    }
  }
}

/** The method's params have a `caller` (the conversation a request comes from). */
function acceptsCaller(def: RequestDef<z.ZodType, z.ZodType>): boolean {
  const shape = (def.params as unknown as { shape?: Record<string, unknown> }).shape;
  return shape !== undefined && 'caller' in shape;
}

const answer = (r: RpcRefusal) => new ResponseError(r.code, r.body.error, r.body);
