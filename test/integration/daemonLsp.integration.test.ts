// An LSP-style client (what vscode-languageclient sends when a VS Code window opens and
// closes) never stops the daemon: `shutdown` and `exit` end only that client's connection.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { createMessageConnection, SocketMessageReader, SocketMessageWriter } from 'vscode-jsonrpc/node';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import { alive, assertOnlyDaemon, discoveryOf, disposeAll, frozenDist } from '../helpers/daemonProcs';
import type { Svc } from '../helpers/daemonProcs';
import { makeScratch, REPO } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';

const VERSION = (JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { version: string }).version;

interface Window {
  socket: net.Socket;
  connection: MessageConnection;
  closed: Promise<void>;
}

async function openWindow(socketPath: string): Promise<Window> {
  const socket = net.connect(socketPath);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const closed = new Promise<void>((r) => socket.once('close', () => r()));
  const connection = createMessageConnection(new SocketMessageReader(socket), new SocketMessageWriter(socket));
  connection.listen();
  return { socket, connection, closed };
}

describe('daemon: LSP lifecycle from a client never stops it', function () {
  let s: Scratch;
  let svc: Svc;
  let pid: number;
  let socketPath: string;

  before(async () => {
    s = makeScratch('daemonLsp');
    ({ svc } = frozenDist(s));
    assert.equal((await svc(['daemon', 'status'])).code, 0);
    ({ pid, socketPath } = discoveryOf(s));
  });
  after(async () => disposeAll(s, svc));

  it('answers initialize/shutdown, and exit closes only that connection', async () => {
    const other = await openWindow(socketPath);
    const w = await openWindow(socketPath);
    const init = await w.connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: null,
      capabilities: {},
    });
    assert.deepEqual(init, { capabilities: {}, serverInfo: { name: 'svc', version: VERSION } });
    await w.connection.sendNotification('initialized', {});
    assert.equal((await w.connection.sendRequest<{ pid: number }>('daemon/status', {})).pid, pid);
    assert.equal(await w.connection.sendRequest('shutdown'), null);
    await w.connection.sendNotification('exit');
    await w.closed; // the daemon hung up on that client only
    w.connection.dispose();

    assert.equal(alive(pid), true);
    assert.equal(
      (await other.connection.sendRequest<{ pid: number }>('daemon/status', {})).pid,
      pid,
      'an open client is still served',
    );
    other.connection.dispose();
    other.socket.destroy();

    const r = await svc(['daemon', 'status', '--json']);
    assert.equal(r.code, 0);
    assert.equal((JSON.parse(r.stdout) as { pid: number; started: boolean }).pid, pid);
    await assertOnlyDaemon(s.svcHome, pid);
  });

  it('a client that vanishes without shutdown (a crashed window) does not stop it either', async () => {
    for (let i = 0; i < 3; i++) {
      const w = await openWindow(socketPath);
      await w.connection.sendRequest('initialize', { processId: null, rootUri: null, capabilities: {} });
      w.socket.destroy();
    }
    const w = await openWindow(socketPath);
    assert.equal((await w.connection.sendRequest<{ pid: number }>('daemon/status', {})).pid, pid);
    w.connection.dispose();
    w.socket.destroy();
    assert.equal(alive(pid), true);
  });
});
