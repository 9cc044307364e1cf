// The client side of the daemon's JSON-RPC 2.0 with LSP framing (`Content-Length: <bytes>`,
// a blank line, then the JSON) over its socket: requests, their answers and the daemon's
// notifications. It is every client's short exchange with the daemon: the shim's whole
// connection, and the extension's and the shim's "stop, you are another build". Kept small
// because `svc` compiles every byte of its bundle on each start (vscode-jsonrpc was half of
// it, ~25 ms of each call). The extension's long-lived connection stays on
// vscode-languageclient, which it needs for the LSP lifecycle and its restarts; the daemon
// serves with vscode-jsonrpc. Both speak this framing; test/integration checks all three.
import type * as net from 'node:net';

/** Codes for a request cut off by the transport (vscode-jsonrpc's, so every client reads them alike). */
export const WRITE_FAILED = -32099;
export const CLOSED_BEFORE_ANSWER = -32097;
const METHOD_NOT_FOUND = -32601;
/** A header longer than this is not LSP framing: the connection is closed. */
const MAX_HEADER_BYTES = 8 * 1024;

/** An error answer (`code`, `message`, `data` as the daemon sent them), or a transport failure. */
export class RpcError extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

export interface RpcConnection {
  sendRequest(method: string, params?: unknown): Promise<unknown>;
  sendNotification(method: string, params?: unknown): void;
  onNotification(method: string, fn: (params: unknown) => void): void;
  /** Runs `fn` once the connection is closed (by either side). */
  onClose(fn: () => void): void;
  /** Closes the connection; pending requests fail with CLOSED_BEFORE_ANSWER. */
  dispose(): void;
}

interface Message {
  jsonrpc?: string;
  id?: number | string | null;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

/** A JSON-RPC connection over a connected socket. */
export function rpcOver(socket: net.Socket): RpcConnection {
  let nextId = 1;
  let closed = false;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: RpcError) => void }>();
  const handlers = new Map<string, ((params: unknown) => void)[]>();
  const closeFns: (() => void)[] = [];
  const frames = new FrameReader();

  const close = () => {
    if (closed) return;
    closed = true;
    for (const p of pending.values())
      p.reject(new RpcError('the connection closed before the answer', CLOSED_BEFORE_ANSWER));
    pending.clear();
    for (const fn of closeFns.splice(0)) fn();
  };

  const write = (msg: Message): Promise<void> =>
    new Promise((resolve, reject) => {
      if (closed || socket.destroyed) return reject(new RpcError('the connection is closed', WRITE_FAILED));
      const body = Buffer.from(JSON.stringify(msg), 'utf8');
      socket.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]), (e) =>
        e ? reject(new RpcError(`could not write to the daemon: ${e.message}`, WRITE_FAILED)) : resolve(),
      );
    });

  const dispatch = (msg: Message) => {
    if (msg.method === undefined) {
      const p = typeof msg.id === 'number' ? pending.get(msg.id) : undefined;
      if (!p) return;
      pending.delete(msg.id as number);
      if (msg.error) p.reject(new RpcError(msg.error.message, msg.error.code, msg.error.data));
      else p.resolve(msg.result ?? null);
    } else if (msg.id !== undefined && msg.id !== null) {
      // A request from the daemon: this client serves none.
      write({
        jsonrpc: '2.0',
        id: msg.id,
        error: { code: METHOD_NOT_FOUND, message: `unhandled method ${msg.method}` },
      }).catch(() => undefined);
    } else {
      for (const fn of handlers.get(msg.method) ?? []) fn(msg.params);
    }
  };

  socket.on('data', (chunk: Buffer) => {
    let messages: Message[];
    try {
      messages = frames.push(chunk);
    } catch {
      socket.destroy(); // not LSP framing, or not JSON: nothing more can be read from it
      return;
    }
    for (const m of messages) dispatch(m);
  });
  socket.on('error', () => undefined); // 'close' follows
  socket.on('close', close);

  return {
    sendRequest(method, params) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        write({ jsonrpc: '2.0', id, method, params: params ?? null }).catch((e: RpcError) => {
          if (pending.delete(id)) reject(e);
        });
      });
    },
    sendNotification(method, params) {
      write({ jsonrpc: '2.0', method, params: params ?? null }).catch(() => undefined);
    },
    onNotification(method, fn) {
      handlers.set(method, [...(handlers.get(method) ?? []), fn]);
    },
    onClose(fn) {
      if (closed) fn();
      else closeFns.push(fn);
    },
    dispose() {
      socket.destroy();
      close();
    },
  };
}

/** Splits a byte stream into JSON-RPC messages; throws on anything that is not LSP framing. */
export class FrameReader {
  private chunks: Buffer[] = [];
  private size = 0;
  /** The body length of the message being read, once its header is complete. */
  private bodyBytes = -1;

  push(chunk: Buffer): Message[] {
    this.chunks.push(chunk);
    this.size += chunk.length;
    const out: Message[] = [];
    for (;;) {
      if (this.bodyBytes < 0) {
        const buf = this.joined();
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) {
          if (buf.length > MAX_HEADER_BYTES) throw new Error('header too long');
          return out;
        }
        const m = /^content-length: *(\d+) *$/im.exec(buf.toString('ascii', 0, end));
        if (!m) throw new Error('no Content-Length');
        this.bodyBytes = Number(m[1]);
        this.take(end + 4);
      }
      if (this.size < this.bodyBytes) return out;
      const buf = this.joined();
      out.push(JSON.parse(buf.toString('utf8', 0, this.bodyBytes)) as Message);
      this.take(this.bodyBytes);
      this.bodyBytes = -1;
    }
  }

  /** The unread bytes as one buffer (joined only when a message may be complete). */
  private joined(): Buffer {
    if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks)];
    return this.chunks[0] ?? Buffer.alloc(0);
  }

  private take(n: number): void {
    const rest = this.joined().subarray(n);
    this.chunks = rest.length ? [rest] : [];
    this.size = rest.length;
  }
}
