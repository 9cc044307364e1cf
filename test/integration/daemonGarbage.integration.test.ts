// Garbage on the daemon socket, sent with raw `net` sockets: each bad client gets an
// error response or a closed connection, and the daemon keeps serving everyone else
// (a second client's daemon/status answers during and after).
import * as assert from 'node:assert/strict';
import * as net from 'node:net';
import { createMessageConnection, SocketMessageReader, SocketMessageWriter } from 'vscode-jsonrpc/node';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import { alive, assertOnlyDaemon, discoveryOf, disposeAll, frozenDist } from '../helpers/daemonProcs';
import type { Svc } from '../helpers/daemonProcs';
import { makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';

interface RpcMessage {
  jsonrpc: string;
  id?: number | string | null;
  result?: unknown;
  error?: { code: number; message: string; data?: { error: string; reason: string } };
}

/** A raw client: writes bytes, parses LSP-framed replies, notices the close. */
class RawClient {
  readonly socket: net.Socket;
  readonly messages: RpcMessage[] = [];
  readonly closed: Promise<void>;
  private buf = Buffer.alloc(0);
  private waiters: (() => void)[] = [];

  constructor(path: string) {
    this.socket = net.connect(path);
    this.socket.on('error', () => undefined); // EPIPE/ECONNRESET once the daemon hangs up
    this.closed = new Promise((r) => this.socket.once('close', () => r()));
    this.socket.on('data', (d: Buffer) => this.onData(d));
  }

  ready(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.socket.once('connect', resolve);
      this.socket.once('error', reject);
    });
  }

  write(bytes: Buffer | string): void {
    this.socket.write(bytes);
  }

  send(message: unknown): void {
    this.write(frame(JSON.stringify(message)));
  }

  /** The next reply, or undefined when the daemon closed the connection instead. */
  async next(timeoutMs = 10_000): Promise<RpcMessage | undefined> {
    const deadline = Date.now() + timeoutMs;
    while (this.messages.length === 0) {
      if (this.socket.destroyed || this.socket.readableEnded) return undefined;
      if (Date.now() > deadline) throw new Error('no reply and no close');
      await Promise.race([
        new Promise<void>((r) => this.waiters.push(r)),
        this.closed,
        new Promise((r) => setTimeout(r, 100)),
      ]);
    }
    return this.messages.shift();
  }

  close(): void {
    this.socket.destroy();
  }

  private onData(d: Buffer): void {
    this.buf = Buffer.concat([this.buf, d]);
    for (;;) {
      const end = this.buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/Content-Length: (\d+)/i.exec(this.buf.subarray(0, end).toString('ascii'))?.[1]);
      if (this.buf.length < end + 4 + length) return;
      this.messages.push(JSON.parse(this.buf.subarray(end + 4, end + 4 + length).toString('utf8')) as RpcMessage);
      this.buf = this.buf.subarray(end + 4 + length);
      this.waiters.splice(0).forEach((w) => w());
    }
  }
}

function frame(body: string | Buffer): Buffer {
  const b = Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${b.length}\r\n\r\n`, 'ascii'), b]);
}

/** An error reply or a closed connection: what every kind of garbage must get. */
async function errorOrClose(c: RawClient): Promise<RpcMessage | 'closed'> {
  const m = await c.next();
  if (m === undefined) return 'closed';
  assert.ok(m.error, `expected an error reply, got ${JSON.stringify(m)}`);
  return m;
}

describe('daemon socket: garbage from one client never hurts the others', function () {
  let s: Scratch;
  let svc: Svc;
  let socketPath: string;
  let pid: number;
  let good: MessageConnection;
  let goodSocket: net.Socket;

  /** The well-behaved second client's daemon/status. */
  async function goodStatus(): Promise<void> {
    const info = await good.sendRequest<{ pid: number }>('daemon/status', {});
    assert.equal(info.pid, pid);
  }

  before(async () => {
    s = makeScratch('daemonGarbage');
    ({ svc } = frozenDist(s));
    assert.equal((await svc(['daemon', 'status'])).code, 0);
    ({ socketPath, pid } = discoveryOf(s));
    goodSocket = net.connect(socketPath);
    good = createMessageConnection(new SocketMessageReader(goodSocket), new SocketMessageWriter(goodSocket));
    good.listen();
    await goodStatus();
  });
  after(async () => {
    good?.dispose();
    goodSocket?.destroy();
    await disposeAll(s, svc);
  });
  afterEach(async () => {
    await goodStatus();
    assert.equal(alive(pid), true);
  });

  it('a body that is not JSON, with valid framing: error reply or closed connection', async () => {
    const c = new RawClient(socketPath);
    await c.ready();
    c.write(frame('{this is not json'));
    const out = await errorOrClose(c);
    if (out !== 'closed') assert.equal(out.error?.code, -32700);
    c.close();
  });

  it('JSON that is not a JSON-RPC message: error reply or closed connection', async () => {
    for (const body of ['[1,2,3]', '"just a string"', '{"hello":"world"}', 'null']) {
      const c = new RawClient(socketPath);
      await c.ready();
      c.write(frame(body));
      c.send({ jsonrpc: '2.0', id: 1, method: 'daemon/status', params: {} });
      // Either the daemon skipped the bad message and answers the good one, or hung up.
      const m = await c.next();
      if (m !== undefined && m.error === undefined) assert.equal((m.result as { pid: number }).pid, pid, body);
      c.close();
    }
  });

  it('broken framing (no Content-Length, a bad value, an endless header) closes the connection', async () => {
    for (const bytes of [
      'Garbage-Header: 1\r\n\r\n{"jsonrpc":"2.0","id":1,"method":"daemon/status"}',
      'Content-Length: twelve\r\n\r\n{}',
      'Content-Length: -5\r\n\r\n',
      'this is not a header at all\r\n\r\n',
      'X'.repeat(64 * 1024),
    ]) {
      const c = new RawClient(socketPath);
      await c.ready();
      c.write(bytes);
      assert.equal(await c.next(), undefined, `closed after ${JSON.stringify(bytes.slice(0, 40))}`);
    }
  });

  it('an unknown method gets a typed error naming it; the connection stays usable', async () => {
    const c = new RawClient(socketPath);
    await c.ready();
    c.send({ jsonrpc: '2.0', id: 7, method: 'no/suchMethod', params: {} });
    assert.deepEqual(await c.next(), {
      jsonrpc: '2.0',
      id: 7,
      error: {
        code: -32601,
        message: "unknown method 'no/suchMethod'",
        data: { error: "unknown method 'no/suchMethod'", reason: 'unknownMethod' },
      },
    });
    c.send({ jsonrpc: '2.0', id: 8, method: 'daemon/status', params: {} });
    const ok = await c.next();
    assert.equal((ok?.result as { pid: number }).pid, pid);
    c.close();
  });

  it('wrong param types get a bad-params error naming the field', async () => {
    const c = new RawClient(socketPath);
    await c.ready();
    c.send({ jsonrpc: '2.0', id: 1, method: 'projects/add', params: { key: 5, path: '/x' } });
    const m = await c.next();
    assert.equal(m?.id, 1);
    assert.equal(m?.error?.code, -32602);
    assert.equal(m?.error?.data?.reason, 'badParams');
    assert.match(m?.error?.message ?? '', /^bad params for projects\/add: key: /);
    assert.equal(m?.error?.data?.error, m?.error?.message);

    c.send({ jsonrpc: '2.0', id: 2, method: 'daemon/status', params: [1, 2] });
    const arr = await c.next();
    assert.equal(arr?.error?.code, -32602);
    assert.equal(arr?.error?.data?.reason, 'badParams');

    c.send({ jsonrpc: '2.0', id: 3, method: 'daemon/status', params: { extra: true } });
    const extra = await c.next();
    assert.equal(extra?.error?.code, -32602);
    assert.match(extra?.error?.message ?? '', /^bad params for daemon\/status: /);

    c.send({ jsonrpc: '2.0', id: 4, method: 'projects/add', params: { key: 'ok', path: 'x'.repeat(100_000) } });
    const long = await c.next();
    assert.equal(long?.error?.code, -32602);
    assert.match(long?.error?.message ?? '', /^bad params for projects\/add: path: /);
    c.close();
  });

  it('a 50 MB message closes that connection while another client is served during and after', async () => {
    const c = new RawClient(socketPath);
    await c.ready();
    const size = 50 * 1024 * 1024;
    c.write(
      `Content-Length: ${size}\r\n\r\n{"jsonrpc":"2.0","id":1,"method":"projects/add","params":{"key":"big","path":"`,
    );
    const chunk = Buffer.alloc(1024 * 1024, 'a');
    // Keep sending until the daemon hangs up, while the other client asks for status.
    const sending = (async () => {
      for (let sent = 0; sent < size && !c.socket.destroyed; sent += chunk.length) {
        if (!c.socket.write(chunk)) await Promise.race([new Promise((r) => c.socket.once('drain', r)), c.closed]);
      }
    })();
    await Promise.all([sending, goodStatus(), goodStatus(), goodStatus()]);
    assert.equal(await c.next(), undefined, 'the daemon closed the 50 MB sender');
    await goodStatus();
  });

  it('a half-sent message does not stall other clients', async () => {
    const c = new RawClient(socketPath);
    await c.ready();
    c.write('Content-Length: 1000\r\n\r\n{"jsonrpc":"2.0",');
    await goodStatus();
    const other = new RawClient(socketPath);
    await other.ready();
    other.send({ jsonrpc: '2.0', id: 1, method: 'daemon/status', params: {} });
    assert.equal(((await other.next())?.result as { pid: number }).pid, pid);
    other.close();
    c.close();
  });

  it('many clients connecting and vanishing mid-request leave the daemon serving', async () => {
    for (let i = 0; i < 20; i++) {
      const c = new RawClient(socketPath);
      await c.ready();
      c.send({ jsonrpc: '2.0', id: 1, method: 'projects/list', params: {} });
      c.close();
    }
    await goodStatus();
    await assertOnlyDaemon(s.svcHome, pid);
  });
});
