// The HTTP API on 127.0.0.1. Every route needs the bearer token from server.json,
// except routes that verify themselves (the GitHub webhook, by HMAC). Requests whose
// Host is not 127.0.0.1:<port> or localhost:<port> are refused (DNS rebinding).
// No CORS headers are ever sent. Errors are JSON {error, reason}.
// A body is read only once the request may be served: the token is checked, a route's
// own `beforeBody` check (from the headers alone) passes, a declared Content-Length is
// within the route's limit, and the route has a free body slot. Those refusals
// are answered at once with `Connection: close` and the unread body is never taken in,
// so a flood of large unwanted posts costs no memory.
import * as crypto from 'node:crypto';
import * as http from 'node:http';
import { HttpStatus, SvcError } from '../../shared/errors';
import type { Params } from '../authority/authorityTable';
import { PERSON } from '../authority/caller';
import type { Caller, CallerClaim } from '../authority/caller';
import { logger } from '../util/log';
import { badJsonError, httpRefusals } from './httpRefusals';
import type { HttpRefusal } from './httpRefusals';

const log = logger('http');

export interface HttpRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  rawBody: Buffer;
  /** Who sent it (a person with the bearer token unless its headers prove an agent), resolved before the route runs. */
  caller: Caller;
  /** Parsed JSON body; undefined when the body is empty. Throws a 400 SvcError on bad JSON. */
  json(): unknown;
}

export interface HttpResponse {
  status: number;
  body: unknown;
  /** Sent as text/plain when set. */
  text?: string;
}

/** As over RPC: who calls, and whether they may, asked before each route runs (server/authority). */
export interface HttpGate {
  resolve(claim: CallerClaim): Caller;
  /** `key`: `METHOD /pattern` as the route was registered. */
  authorize(key: string, caller: Caller, params: Params): void;
}

/** An agent over HTTP proves itself as over RPC: its conversation and that conversation's credential. */
export const CALLER_CONVERSATION_HEADER = 'x-svc-conversation';
export const CALLER_TOKEN_HEADER = 'x-svc-caller-token';

interface Route {
  key: string;
  method: string;
  pattern: RegExp;
  names: string[];
  auth: 'bearer' | 'self';
  maxBody: number;
  beforeBody?: (head: RequestHead) => HttpResponse | undefined;
  maxConcurrentBodies: number;
  /** Bodies being read now. */
  reading: number;
  handler: (req: HttpRequest) => Promise<HttpResponse> | HttpResponse;
}

/** What is known of a request before its body is read. */
export interface RequestHead {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
}

export interface RouteOptions {
  auth?: Route['auth'];
  /** Largest body accepted, in bytes (default 1 MiB). */
  maxBody?: number;
  /** Refuses from the headers alone, before any of the body is read. */
  beforeBody?: Route['beforeBody'];
  /** Bodies read at once on this route; more are refused with 503 and Retry-After (default unbounded). */
  maxConcurrentBodies?: number;
}

export class HttpServer {
  private routes: Route[] = [];
  private server?: http.Server;
  private gate?: HttpGate;
  port = 0;

  constructor(private readonly token: string) {}

  /** `path` like `/api/lanes/:name`; `auth: 'self'` for routes that verify their own signature. */
  route(method: string, path: string, handler: Route['handler'], opts: RouteOptions = {}): void {
    const names: string[] = [];
    const pattern = new RegExp(
      '^' + path.replace(/:([a-zA-Z]+)/g, (_m, n: string) => (names.push(n), '([^/]+)')) + '$',
    );
    this.routes.push({
      key: `${method} ${path}`,
      method,
      pattern,
      names,
      auth: opts.auth ?? 'bearer',
      maxBody: opts.maxBody ?? 1024 * 1024,
      beforeBody: opts.beforeBody,
      maxConcurrentBodies: opts.maxConcurrentBodies ?? Infinity,
      reading: 0,
      handler,
    });
  }

  /** Who calls and whether they may: asked for every route that is not self-verifying. */
  guard(gate: HttpGate): void {
    this.gate = gate;
  }

  /** `port` 0 (the default): any free port, a new one each start. A fixed port lets a
   *  webhook forwarder keep its target across restarts. */
  listen(port = 0): Promise<number> {
    this.server = http.createServer((req, res) => {
      this.serve(req, res).catch((e) => {
        log.error('unhandled', e);
        refuse(res, httpRefusals.internal());
      });
    });
    this.server.headersTimeout = 10_000;
    this.server.requestTimeout = 60_000;
    return new Promise((resolve, reject) => {
      this.server!.once('error', (e: NodeJS.ErrnoException) =>
        reject(
          port && e.code === 'EADDRINUSE'
            ? new Error(
                `127.0.0.1:${port} (http.port in config.yaml) is in use by another program; free it or choose another port`,
              )
            : e,
        ),
      );
      this.server!.listen(port, '127.0.0.1', () => {
        this.port = (this.server!.address() as { port: number }).port;
        resolve(this.port);
      });
    });
  }

  close(): Promise<void> {
    return new Promise((r) => {
      if (!this.server) return r();
      this.server.closeAllConnections();
      this.server.close(() => r());
    });
  }

  private async serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const host = req.headers.host ?? '';
    if (host !== `127.0.0.1:${this.port}` && host !== `localhost:${this.port}`) {
      return refuse(res, httpRefusals.badHost(host, this.port));
    }
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${this.port}`);
    const candidates = this.routes.filter((r) => r.pattern.test(url.pathname));
    // The token is checked before the route table answers: without it, which paths and
    // methods exist is not told (every unknown path answers 401, not 404/405). Only a
    // path served by a self-verifying route goes on without a token.
    const selfVerified = candidates.some((r) => r.auth === 'self');
    const authorized = this.authorized(req.headers.authorization);
    const unauthorized = (): void => {
      res.setHeader('WWW-Authenticate', 'Bearer');
      refuse(res, httpRefusals.unauthorized());
    };
    if (!selfVerified && !authorized) return unauthorized();
    if (candidates.length === 0) return refuse(res, httpRefusals.noRoute(url.pathname));
    const route = candidates.find((r) => r.method === req.method);
    if (!route) return refuse(res, httpRefusals.methodNotAllowed(req.method, url.pathname));
    if (route.auth === 'bearer' && !authorized) return unauthorized();
    const match = route.pattern.exec(url.pathname)!;
    const params: Record<string, string> = {};
    for (const [i, n] of route.names.entries()) {
      const raw = match[i + 1];
      try {
        params[n] = decodeURIComponent(raw);
      } catch {
        return refuse(res, httpRefusals.badPath(raw, n));
      }
    }
    const early = route.beforeBody?.({ method: req.method ?? 'POST', path: url.pathname, headers: req.headers });
    if (early) return sendUnread(req, res, early.status, early.body);
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > route.maxBody) {
      return refuseUnread(req, res, httpRefusals.bodyTooLarge(route.maxBody));
    }
    if (route.reading >= route.maxConcurrentBodies) {
      res.setHeader('Retry-After', '1');
      return refuseUnread(req, res, httpRefusals.busy(route.reading, url.pathname));
    }
    let rawBody: Buffer;
    route.reading++;
    try {
      rawBody = await readBody(req, route.maxBody);
    } catch (e) {
      return refuse(res, httpRefusals.bodyTooLarge(route.maxBody, (e as Error).message));
    } finally {
      route.reading--;
    }
    const header = (name: string) => {
      const v = req.headers[name];
      return typeof v === 'string' && v !== '' ? v : undefined;
    };
    const request: HttpRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      params,
      query: url.searchParams,
      headers: req.headers,
      rawBody,
      caller: PERSON,
      json() {
        if (rawBody.length === 0) return undefined;
        try {
          return JSON.parse(rawBody.toString('utf8')) as unknown;
        } catch {
          throw badJsonError();
        }
      },
    };
    try {
      if (this.gate && route.auth === 'bearer') {
        request.caller = this.gate.resolve({
          conversation: header(CALLER_CONVERSATION_HEADER),
          token: header(CALLER_TOKEN_HEADER),
        });
      }
      this.gate?.authorize(route.key, request.caller, params);
      const out = await route.handler(request);
      if (out.text !== undefined) {
        res.writeHead(out.status, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end(out.text);
      } else send(res, out.status, out.body);
    } catch (e) {
      if (e instanceof SvcError) return send(res, HttpStatus[e.kind], e.toBody());
      log.error(`${req.method} ${url.pathname} failed`, e);
      refuse(res, httpRefusals.internal((e as Error).message));
    }
  }

  private authorized(header: string | undefined): boolean {
    const m = /^Bearer (.+)$/i.exec(header ?? ''); // the scheme is case-insensitive (RFC 7235)
    if (!m) return false;
    const given = Buffer.from(m[1]);
    const want = Buffer.from(this.token);
    return given.length === want.length && crypto.timingSafeEqual(given, want);
  }
}

const refuse = (res: http.ServerResponse, r: HttpRefusal): void => send(res, r.status, r.body);
const refuseUnread = (req: http.IncomingMessage, res: http.ServerResponse, r: HttpRefusal): void =>
  sendUnread(req, res, r.status, r.body);

function send(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(JSON.stringify(body));
}

/** How long a connection answered before its body was read stays open before it is cut. */
const UNREAD_LINGER_MS = 10_000;

/** An answer before the body was read, on a connection that then closes. The body is
 *  never taken in: `read(0)` marks the request as consumed by us, so Node does not drain
 *  it to reuse the connection, and with nobody taking data the socket stops reading once
 *  the request's small buffer is full (the client's writes then wait on TCP). Closing at
 *  once would reset a connection the client is still writing to, and a client whose
 *  write fails first never reads the answer; so the socket half-closes after the answer
 *  (Node calls destroySoon on a `Connection: close` response once it is sent) and is
 *  destroyed UNREAD_LINGER_MS later. */
function sendUnread(req: http.IncomingMessage, res: http.ServerResponse, status: number, body: unknown): void {
  req.read(0);
  res.setHeader('Connection', 'close');
  const socket = res.socket;
  if (socket) {
    socket.destroySoon = function lingerThenDestroy(this: typeof socket) {
      this.end();
      setTimeout(() => this.destroy(), UNREAD_LINGER_MS).unref();
    };
  }
  send(res, status, body);
}

/** The body, up to `max` bytes. A larger one is read to its end and discarded (never
 *  buffered past `max`), then refused: answering before the client has sent it all would
 *  reset the connection before the client could read the 413. requestTimeout bounds an
 *  endless body. */
function readBody(req: http.IncomingMessage, max: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= max) chunks.push(c);
    });
    req.on('end', () =>
      size > max ? reject(new Error(`request body exceeds ${max} bytes`)) : resolve(Buffer.concat(chunks)),
    );
    req.on('error', reject);
  });
}
