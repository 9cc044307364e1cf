// JSON-RPC (LSP framing) over the daemon socket. One MessageConnection per client;
// every request is validated against its zod schema and answered with a typed error,
// never a crash. A client's LSP `exit` closes only that client's connection.
import * as fs from 'node:fs';
import * as net from 'node:net';
import { createMessageConnection, ResponseError, SocketMessageWriter, StreamMessageReader } from 'vscode-jsonrpc/node';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import { z } from 'zod';
import { RpcErrorCode, SvcError } from '../../shared/errors';
import { hello } from '../../shared/protocol/daemon';
import { CALLER_CONVERSATION_PARAM, CALLER_TOKEN_PARAM } from '../../shared/protocol/rpc';
import type { NotificationDef, RequestDef } from '../../shared/protocol/rpc';
import type { Params } from '../authority/authorityTable';
import { PERSON } from '../authority/caller';
import type { Caller, CallerClaim, ConnectionIdentity } from '../authority/caller';
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
  /** Who sent it, resolved once before the method runs (server/authority/caller.ts). */
  caller: Caller;
}

/** Resolves each request's caller and authorises it before the method runs (server/authority). */
export interface CallerGate {
  resolve(claim: CallerClaim, connection: ConnectionIdentity | undefined): Caller;
  /** Throws a refusal unless `caller` may call `method` with `params`. */
  authorize(method: string, caller: Caller, params: Params): void;
}

type Handler = (params: unknown, ctx: RequestContext) => unknown;

interface Client {
  id: number;
  /** Set when the client connected over a conversation's own socket. */
  conversation?: number;
  socket: net.Socket;
  connection: MessageConnection;
  abort: AbortController;
  /** Set when the socket it came in on belongs to one agent. */
  identity?: ConnectionIdentity;
  server: net.Server;
  drop: () => void;
  /** The client said (svc/hello) it wants no notifications: none are sent to it. */
  quiet: boolean;
}

export class RpcServer {
  private handlers = new Map<string, { def: RequestDef<z.ZodType, z.ZodType>; fn: Handler }>();
  private clients = new Set<Client>();
  private nextClientId = 1;
  private servers: net.Server[] = [];
  private gate?: CallerGate;
  /** Each sandboxed agent's own listener, by conversation (see listenForConversation). */
  private conversationListeners = new Map<number, () => Promise<void>>();

  constructor(private readonly serverInfo: { name: string; version: string }) {}

  handle<P extends z.ZodType, R extends z.ZodType>(
    def: RequestDef<P, R>,
    fn: (params: z.output<P>, ctx: RequestContext) => z.input<R> | Promise<z.input<R>>,
  ): void {
    if (this.handlers.has(def.method)) throw new Error(`handler for ${def.method} registered twice`);
    this.handlers.set(def.method, { def: def, fn: fn as Handler });
  }

  /** Who calls and whether they may: asked for every request (see server/authority). */
  guard(gate: CallerGate): void {
    this.gate = gate;
  }

  methods(): string[] {
    return [...this.handlers.keys()];
  }

  /** Sends a notification to every client that has not opted out (svc/hello); returns how many got it. */
  broadcast<P extends z.ZodType>(def: NotificationDef<P>, params: z.input<P>): number {
    let sent = 0;
    for (const c of this.clients) {
      if (c.quiet) continue;
      c.connection.sendNotification(def.method, params).catch(() => undefined);
      sent++;
    }
    return sent;
  }

  get clientCount(): number {
    return this.clients.size;
  }

  /**
   * Serves on `socketPath`. With `identity`, every connection on this socket IS that
   * agent's conversation, whatever its requests say (a socket made for one sandboxed
   * agent): a request claiming no conversation is that agent, never a person, and one
   * claiming another is refused. The returned function stops this one listener and drops
   * its clients.
   */
  listen(socketPath: string, identity?: ConnectionIdentity): Promise<() => Promise<void>> {
    const server: net.Server = net.createServer((socket) => this.accept(socket, server, identity));
    this.servers.push(server);
    const stop = async () => {
      this.servers = this.servers.filter((s) => s !== server);
      for (const c of this.clients) if (c.server === server) c.drop();
      await new Promise<void>((r) => server.close(() => r()));
    };
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => {
        server.off('error', reject);
        resolve(stop);
      });
    });
  }

  /**
   * Listens on a socket of conversation `conversation` alone (bound into its agent's
   * sandbox and reachable nowhere else the agent can go): every client of it is that
   * conversation. A leftover file at the path (a previous daemon's) is replaced, and an
   * earlier listener of the same conversation stops.
   */
  async listenForConversation(socketPath: string, conversation: number): Promise<{ close(): Promise<void> }> {
    await this.conversationListeners.get(conversation)?.();
    fs.rmSync(socketPath, { force: true });
    const stop = await this.listen(socketPath, { conversation });
    this.conversationListeners.set(conversation, stop);
    return {
      // Closes this listener only: a later start of the same conversation has its own.
      close: async () => {
        if (this.conversationListeners.get(conversation) !== stop) return;
        this.conversationListeners.delete(conversation);
        await stop();
      },
    };
  }

  async close(): Promise<void> {
    this.conversationListeners.clear();
    for (const c of this.clients) {
      c.connection.dispose();
      c.socket.destroy();
    }
    await Promise.all(this.servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
  }

  private accept(socket: net.Socket, server: net.Server, identity?: ConnectionIdentity): void {
    const guard = new FrameGuard((why, sample) => {
      log.warn(`closing client: ${why}; it sent ${bytesExcerpt(sample)}`);
      socket.destroy();
    });
    socket.on('error', () => undefined);
    socket.pipe(guard);
    const reader = new StreamMessageReader(guard);
    // Off: vscode-jsonrpc's partial-message timer re-arms itself every 10 s for as long as the
    // process lives once a message arrived unfinished (its token never changes, and disposing
    // the reader does not clear it), holding the closed client's connection, socket and
    // buffers forever. Its only effect is an event nothing here listens to; the guard above
    // already ends a client whose message sits unfinished (PARTIAL_FRAME_IDLE_MS).
    reader.partialMessageTimeout = 0;
    const connection = createMessageConnection(reader, new SocketMessageWriter(socket));
    const drop = () => {
      if (!this.clients.delete(client)) return;
      client.abort.abort();
      connection.dispose();
      socket.destroy();
      // The guard's idle timer (a message left unfinished) would otherwise hold the client,
      // its connection and buffers for PARTIAL_FRAME_IDLE_MS after it is gone.
      guard.destroy();
    };
    const client: Client = {
      id: this.nextClientId++,
      socket,
      connection,
      abort: new AbortController(),
      identity,
      server,
      drop,
      quiet: false,
    };
    this.clients.add(client);
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
    // A client's own choice about its notifications; a malformed hello changes nothing (a
    // notification has no answer to carry a refusal).
    connection.onNotification(hello.method, (raw: unknown) => {
      const p = hello.params.safeParse(raw);
      if (p.success) client.quiet = !p.data.notifications;
      else log.warn(`client ${client.id}: ignored a malformed ${hello.method}: ${p.error.issues[0]?.message ?? ''}`);
    });

    connection.onRequest((method, raw) => this.dispatch(client, method, raw));
    connection.listen();
  }

  private async dispatch(client: Client, method: string, raw: unknown): Promise<unknown> {
    const entry = this.handlers.get(method);
    if (!entry) throw answer(rpcRefusals.unknownMethod(method));
    // The shim adds the agent's conversation and credential beside the method's own params.
    let token: string | undefined;
    let conversation: string | undefined;
    if (
      raw &&
      typeof raw === 'object' &&
      !Array.isArray(raw) &&
      (CALLER_TOKEN_PARAM in raw || CALLER_CONVERSATION_PARAM in raw)
    ) {
      const { [CALLER_TOKEN_PARAM]: t, [CALLER_CONVERSATION_PARAM]: c, ...rest } = raw as Record<string, unknown>;
      token = typeof t === 'string' ? t : undefined;
      conversation = typeof c === 'string' || typeof c === 'number' ? String(c) : undefined;
      raw = rest;
    }
    const parsed = entry.def.params.safeParse(raw ?? {});
    if (!parsed.success) {
      const detail = parsed.error.issues.map((i) => `${i.path.join('.') || 'params'}: ${i.message}`).join('; ');
      throw answer(rpcRefusals.badParams(method, detail));
    }
    try {
      const params = parsed.data as Params;
      const param = typeof params.caller === 'string' && params.caller !== '' ? params.caller : undefined;
      const caller = this.gate ? this.gate.resolve({ conversation, token, param }, client.identity) : PERSON;
      // A method that acts for a `caller` acts for the resolved one: an agent never
      // launches, reports or posts as anyone else, whatever its params said.
      if (caller.kind === 'agent' && takesCaller(entry.def.params)) params.caller = String(caller.conv.id);
      this.gate?.authorize(method, caller, params);
      return await entry.fn(params, { signal: client.abort.signal, clientId: client.id, caller });
    } catch (e) {
      if (e instanceof SvcError) throw new ResponseError(RpcErrorCode[e.kind], e.message, e.toBody());
      if (e instanceof ResponseError) throw e;
      log.error(`${method} failed`, e);
      if (isDiskFull(e)) throw answer(rpcRefusals.diskFull(method, (e as Error).message));
      throw answer(rpcRefusals.internal(method, (e as Error)?.message ?? String(e)));
    }
  }
}

const takesCaller = (schema: z.ZodType): boolean => schema instanceof z.ZodObject && 'caller' in schema.shape;

const answer = (r: RpcRefusal) => new ResponseError(r.code, r.body.error, r.body);
