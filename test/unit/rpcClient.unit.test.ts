// The small JSON-RPC client of the shim and of every client's "stop, you are another
// build" (shared/client/rpcClient.ts), against the daemon's own RPC server (vscode-jsonrpc)
// on a scratch socket: answers, typed refusals, notifications, a close before the answer,
// and LSP framing however the bytes are cut.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { z } from 'zod';
import { askToStop, readRpcError, DaemonRefusal } from '../../shared/client/daemonRefusal';
import { FrameReader, rpcOver, RpcError } from '../../shared/client/rpcClient';
import type { RpcConnection } from '../../shared/client/rpcClient';
import { nameTakenError } from '../../server/conversations/conversationRefusals';
import { notification, request } from '../../shared/protocol/rpc';
import { RpcServer } from '../../server/rpc/rpcServer';

const REPO = path.resolve(__dirname, '..', '..');

function frame(body: string): Buffer {
  const b = Buffer.from(body, 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${b.length}\r\n\r\n`, 'ascii'), b]);
}

describe('rpc client: LSP framing', () => {
  it('reads messages however the bytes are cut, multi-byte characters included', () => {
    const messages = [
      { jsonrpc: '2.0', id: 1, result: { text: 'ünïcödé → ✓ 😀' } },
      { jsonrpc: '2.0', method: 'svc/changed', params: { topic: 'lanes' } },
    ];
    const bytes = Buffer.concat(messages.map((m) => frame(JSON.stringify(m))));
    for (const size of [1, 2, 3, 7, 64, bytes.length]) {
      const reader = new FrameReader();
      const got: unknown[] = [];
      for (let i = 0; i < bytes.length; i += size) got.push(...reader.push(bytes.subarray(i, i + size)));
      assert.deepEqual(got, messages, `cut every ${size} bytes`);
    }
  });

  it('takes a Content-Type header beside the length, in any case', () => {
    const body = Buffer.from('{"id":3,"result":null}', 'utf8');
    const reader = new FrameReader();
    assert.deepEqual(
      reader.push(
        Buffer.concat([
          Buffer.from(
            `content-length: ${body.length}\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n`,
          ),
          body,
        ]),
      ),
      [{ id: 3, result: null }],
    );
  });

  it('refuses what is not LSP framing', () => {
    assert.throws(() => new FrameReader().push(Buffer.from('HTTP/1.1 200 OK\r\n\r\n')), /no Content-Length/);
    assert.throws(() => new FrameReader().push(Buffer.alloc(9000, 'x')), /header too long/);
  });
});

describe('rpc client: against the daemon RPC server', () => {
  const dir = path.join(REPO, '.scratch', `unit-rpcclient-${process.pid}`);
  const socketPath = path.join(dir, 's.sock');
  const echo = request('test/echo', z.object({ text: z.string() }), z.object({ text: z.string() }));
  const refuse = request('test/refuse', z.object({}), z.object({}));
  const hang = request('test/hang', z.object({}), z.object({}));
  const ping = notification('test/ping', z.object({ n: z.number() }));
  let server: RpcServer;
  const open: RpcConnection[] = [];

  const connect = async (): Promise<RpcConnection> => {
    const socket = net.connect(socketPath);
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    const c = rpcOver(socket);
    open.push(c);
    return c;
  };

  before(async () => {
    fs.mkdirSync(dir, { recursive: true });
    server = new RpcServer({ name: 'test', version: '0' });
    server.handle(echo, (p) => ({ text: p.text }));
    server.handle(refuse, () => {
      throw nameTakenError('x', 1);
    });
    server.handle(hang, () => new Promise(() => undefined));
    await server.listen(socketPath);
  });
  after(async () => {
    for (const c of open) c.dispose();
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('sends requests and reads their answers, many at once, large ones too', async () => {
    const c = await connect();
    const big = 'ä'.repeat(300_000); // 600 KB of two-byte characters, read in many chunks
    const answers = await Promise.all([
      c.sendRequest(echo.method, { text: 'one' }),
      c.sendRequest(echo.method, { text: big }),
      c.sendRequest(echo.method, { text: 'three' }),
    ]);
    assert.deepEqual(answers, [{ text: 'one' }, { text: big }, { text: 'three' }]);
  });

  it('reads a refusal as the daemon sent it (code, message, reason), and an unknown method', async () => {
    const c = await connect();
    const e = await c.sendRequest(refuse.method, {}).then(
      () => assert.fail('answered'),
      (err: unknown) => err,
    );
    assert.ok(e instanceof RpcError);
    const refusal = readRpcError(e);
    assert.ok(refusal instanceof DaemonRefusal);
    assert.equal(refusal.message, "conversation name 'x' is taken by #1");
    assert.equal(refusal.reason, 'nameTaken');
    assert.equal(refusal.kind, 'conflict');
    const unknown = readRpcError(await c.sendRequest('test/none', {}).catch((err: unknown) => err));
    assert.ok(unknown instanceof DaemonRefusal);
    assert.equal(unknown.reason, 'unknownMethod');
  });

  it('hands the daemon notifications to their listeners', async () => {
    const c = await connect();
    const got = new Promise<unknown>((resolve) => c.onNotification(ping.method, resolve));
    await c.sendRequest(echo.method, { text: 'registered' }); // the server knows this client now
    server.broadcast(ping, { n: 7 });
    assert.deepEqual(await got, { n: 7 });
  });

  it('fails a pending request as lost when the connection closes before the answer, and tells onClose', async () => {
    const c = await connect();
    let closed = 0;
    c.onClose(() => closed++);
    const pending = c.sendRequest(hang.method, {});
    await new Promise((r) => setTimeout(r, 50));
    await server.close(); // the daemon goes away
    const e = await pending.catch((err: unknown) => err);
    assert.equal(readRpcError(e), 'lost');
    assert.equal(closed, 1);
    assert.equal(
      readRpcError(await c.sendRequest(echo.method, { text: 'after' }).catch((err: unknown) => err)),
      'lost',
    );
    await server.listen(socketPath.replace('s.sock', 's2.sock')); // so after() closes a listening server
  });
});

describe('rpc client: asking a daemon to stop', () => {
  const dir = path.join(REPO, '.scratch', `unit-asktostop-${process.pid}`);
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('takes a daemon that closes the connection on the request, before answering, as stopping', async () => {
    fs.mkdirSync(dir, { recursive: true });
    const socketPath = path.join(dir, 'stop.sock');
    const asked: string[] = [];
    const server = net.createServer((s) =>
      s.once('data', (d) => {
        asked.push(d.toString('utf8'));
        s.destroy(); // a daemon on its way out: no answer
      }),
    );
    await new Promise<void>((r) => server.listen(socketPath, r));
    try {
      const socket = net.connect(socketPath);
      await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
      await askToStop(socket, 'svc daemon stop');
      assert.equal(asked.length, 1);
      assert.match(asked[0], /"method":"daemon\/stop"/);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
