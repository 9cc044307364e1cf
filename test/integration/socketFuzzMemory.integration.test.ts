// A closed client leaves nothing behind in the daemon. After 6,000 fuzzed connections
// (random bytes, broken headers, hostile JSON-RPC, bodies left unfinished; see
// helpers/socketFuzz.ts) its heap holds the frame guard (one per client) of the one client
// still connected and of no other, and the data on its heap (compiled code aside) grew by
// less than BYTES_PER_CONNECTION a connection. The short form of the soak tier's run of
// 100,000 connections (test/soak/), which shows the plateau.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { discoveryOf } from '../helpers/daemonProcs';
import { snapshotHeap, snapshotNodeOptions } from '../helpers/heapSnapshot';
import { makeScratch, sleep } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import { fuzzConnections, randomSeed } from '../helpers/socketFuzz';

const WARM_UP = 1_500;
const MEASURED = 6_000;
/** One client held kilobytes (its socket, connection, emitters and buffers); a leak of even one in 100 shows. */
const BYTES_PER_CONNECTION = 40;
/**
 * Made once per client (server/rpc/rpcServer.ts) and by nothing else in an idle daemon; a
 * client held after it closed holds its guard (the reader reads from it). Our own class, so
 * the bundler keeps its name (it renames some of vscode-jsonrpc's).
 */
const PER_CLIENT = ['FrameGuard'] as const;

/** A well-behaved client that stays connected: it has had its answer to `initialize`. */
function connectedClient(socketPath: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { capabilities: {} } });
    const sock = net.createConnection(socketPath, () =>
      sock.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`),
    );
    sock.once('data', () => resolve(sock));
    sock.once('error', reject);
  });
}

describe('daemon socket: a closed client leaves nothing behind', function () {
  // Two heap snapshots cost the daemon some 15 s of CPU each: under a shared machine's load
  // the test has taken over two and a half minutes, most of it waiting for them.
  this.timeout(420_000);
  let s: Scratch;
  let diag: string;

  before(async () => {
    s = makeScratch('socket-memory');
    diag = path.join(s.root, 'diag');
    fs.mkdirSync(diag);
    s.env.NODE_OPTIONS = snapshotNodeOptions(diag);
    assert.equal((await s.svc(['daemon', 'status'])).code, 0);
  });
  after(async () => s.dispose());

  it(`holds only the connected client after ${MEASURED} fuzzed connections, and its heap barely grows`, async () => {
    const { pid, socketPath } = discoveryOf(s);
    const seed = randomSeed();
    // Warm up first: code compiled and caches filled on the first connections are not per connection.
    await fuzzConnections(socketPath, WARM_UP, { parallel: 64, seed });
    await sleep(1000);
    const held = await connectedClient(socketPath);
    try {
      await sleep(1000);
      const start = await snapshotHeap(pid, diag, PER_CLIENT);
      // The held client is counted (the name survives the build), and the warm-up's are gone.
      assert.deepEqual(start.counts, { FrameGuard: 1 }, `closed clients still held after ${WARM_UP} (seed ${seed})`);
      await fuzzConnections(socketPath, MEASURED, { parallel: 64, seed: seed + 1 });
      await sleep(1000);
      const end = await snapshotHeap(pid, diag, PER_CLIENT);
      assert.deepEqual(
        end.counts,
        { FrameGuard: 1 },
        `closed clients still held after ${MEASURED} connections (seed ${seed})`,
      );
      const perConnection = (end.dataBytes - start.dataBytes) / MEASURED;
      process.stdout.write(
        `      seed ${seed}: heap data ${start.dataBytes} → ${end.dataBytes} bytes (${perConnection.toFixed(1)} a connection)\n`,
      );
      assert.ok(
        perConnection < BYTES_PER_CONNECTION,
        `the heap's data grew ${perConnection.toFixed(0)} bytes a connection over ${MEASURED} (seed ${seed})`,
      );
    } finally {
      held.destroy();
    }
    // The daemon still answers.
    assert.equal((await s.svc(['daemon', 'status'])).code, 0);
  });
});
