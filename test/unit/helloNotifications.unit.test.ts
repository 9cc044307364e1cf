// A connection's own choice of notifications (`svc/hello`, docs/protocol.md): the daemon's
// RPC server sends none to a client that opted out and sends them again once it opts back
// in; the shim opts out on every connection and back in only for a command that listens
// (`svc conv log --follow`). Real RpcServer on a scratch socket, the shim's real connect().
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { z } from 'zod';
import { connect as shimConnect } from '../../cli/client';
import type { Client } from '../../cli/client';
import { rpcOver } from '../../shared/client/rpcClient';
import type { RpcConnection } from '../../shared/client/rpcClient';
import { changed, hello } from '../../shared/protocol/daemon';
import { request } from '../../shared/protocol/rpc';
import { RpcServer } from '../../server/rpc/rpcServer';

const REPO = path.resolve(__dirname, '..', '..');

describe('svc/hello: a client that wants no notifications gets none', () => {
  const dir = path.join(REPO, '.scratch', `unit-hello-${process.pid}`);
  const socketPath = path.join(dir, 's.sock');
  const echo = request('test/echo', z.object({ text: z.string() }), z.object({ text: z.string() }));
  let server: RpcServer;
  const open: { dispose(): void }[] = [];

  const raw = async (): Promise<{ c: RpcConnection; topics: string[] }> => {
    const socket = net.connect(socketPath);
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    const c = rpcOver(socket);
    open.push(c);
    const topics: string[] = [];
    c.onNotification(changed.method, (p) => topics.push((p as { topic: string }).topic));
    return { c, topics };
  };
  /** Every notification sent before an answer is read before it: a round trip flushes them. */
  const flushed = (c: RpcConnection) => c.sendRequest(echo.method, { text: 'flush' });

  before(async () => {
    fs.mkdirSync(dir, { recursive: true });
    server = new RpcServer({ name: 'test', version: '0' });
    server.handle(echo, (p) => ({ text: p.text }));
    await server.listen(socketPath);
  });
  afterEach(() => {
    for (const c of open.splice(0)) c.dispose();
  });
  after(async () => {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('sends a quiet client nothing, a plain one everything, and a client that opts back in the rest', async () => {
    const plain = await raw();
    const quiet = await raw();
    quiet.c.sendNotification(hello.method, { notifications: false });
    await Promise.all([flushed(plain.c), flushed(quiet.c)]); // the server has read both clients' messages
    assert.equal(server.broadcast(changed, { topic: 'lanes' }), 1);
    await Promise.all([flushed(plain.c), flushed(quiet.c)]);
    assert.deepEqual(plain.topics, ['lanes']);
    assert.deepEqual(quiet.topics, []);

    quiet.c.sendNotification(hello.method, { notifications: true });
    await flushed(quiet.c);
    assert.equal(server.broadcast(changed, { topic: 'config' }), 2);
    await Promise.all([flushed(plain.c), flushed(quiet.c)]);
    assert.deepEqual(plain.topics, ['lanes', 'config']);
    assert.deepEqual(quiet.topics, ['config']);
  });

  it('ignores a malformed hello: the client keeps what it had', async () => {
    const c = await raw();
    c.c.sendNotification(hello.method, { notifications: 'no' });
    c.c.sendNotification(hello.method, { notifications: false, extra: 1 });
    await flushed(c.c);
    assert.equal(server.broadcast(changed, { topic: 'runs' }), 1);
    await flushed(c.c);
    assert.deepEqual(c.topics, ['runs']);
  });

  it('the shim opts out on connecting, and back in only when a command listens', async () => {
    const shim: Client = await shimConnect({ SVC_SOCKET: socketPath, SVC_HOME: dir });
    open.push({ dispose: () => shim.close() });
    assert.deepEqual(await shim.request(echo, { text: 'status' }), { text: 'status' });
    assert.equal(server.broadcast(changed, { topic: 'conversations' }), 0, 'the shim was sent a notification');

    const seen: string[] = [];
    shim.onNotification(changed, (p) => seen.push(p.topic));
    await shim.request(echo, { text: 'follow' });
    assert.equal(server.broadcast(changed, { topic: 'transcript' }), 1);
    await shim.request(echo, { text: 'flush' });
    assert.deepEqual(seen, ['transcript']);
  });
});
