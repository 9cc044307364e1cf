// Soak: 100,000 fuzzed connections to the real daemon's socket (random bytes, broken
// headers, malformed and hostile JSON-RPC, valid requests, bodies left unfinished), each
// closed, 64 at a time. What one closed connection leaves behind is measured, not guessed:
// the daemon writes a heap snapshot on SIGUSR2 (a full GC first), and the live heap is the
// sum of the snapshot's node sizes. Between 50,000 and 100,000 connections it must grow by
// less than 2 MB (under 40 bytes a connection; one retained client is kilobytes), and the
// resident size (read before each snapshot) by less than HALF_RSS_BOUND_MB; and at the end
// no closed client is held (no FrameGuard, which each client has one of, is left).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { discoveryOf } from '../helpers/daemonProcs';
import { snapshotHeap, snapshotNodeOptions } from '../helpers/heapSnapshot';
import { makeScratch, sleep } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import { fuzzConnections, randomSeed } from '../helpers/socketFuzz';
import { PARTIAL_FRAME_IDLE_MS } from '../../server/rpc/frameGuard';

const TOTAL = 100_000;
const ROUND = 10_000;
const PARALLEL = 64;
const HALF_HEAP_BOUND_MB = 2;
const HALF_RSS_BOUND_MB = 24;

describe('soak: the daemon socket under 100,000 fuzzed connections', function () {
  this.timeout(15 * 60_000);
  let s: Scratch;
  let diag: string;

  before(async () => {
    s = makeScratch('socket-soak');
    diag = path.join(s.root, 'diag');
    fs.mkdirSync(diag);
    s.env.NODE_OPTIONS = snapshotNodeOptions(diag);
    const r = await s.svc(['daemon', 'status']);
    assert.equal(r.code, 0, r.stderr);
  });
  after(async () => s.dispose());

  it('plateaus: live heap and resident size stop growing in the second half', async () => {
    const { pid, socketPath } = discoveryOf(s);
    const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
    // Waits out the guard's idle time (a closed client must not need it), then snapshots.
    const measure = async () => {
      await sleep(PARTIAL_FRAME_IDLE_MS + 1000);
      // Read before the snapshot: writing one costs resident memory of its own.
      const rss = rssMb();
      const { liveBytes, counts } = await snapshotHeap(pid, diag, ['FrameGuard']);
      return { heap: liveBytes / 2 ** 20, rss, heldClients: counts.FrameGuard };
    };

    const seed = randomSeed();
    const t0 = Date.now();
    const start = await measure();
    let half = start;
    let refused = 0;
    for (let done = 0; done < TOTAL; done += ROUND) {
      refused += (await fuzzConnections(socketPath, ROUND, { parallel: PARALLEL, seed: seed + done })).refused;
      process.stdout.write(`      ${done + ROUND} connections: rss ${rssMb().toFixed(1)} MB\n`);
      if (done + ROUND === TOTAL / 2) half = await measure();
    }
    const end = await measure();
    const line = (m: { heap: number; rss: number }) => `heap ${m.heap.toFixed(2)} MB, rss ${m.rss.toFixed(1)} MB`;
    process.stdout.write(
      `      seed ${seed}, ${((Date.now() - t0) / 1000).toFixed(0)} s, ${refused} attempts refused by a full backlog (and made again): at start ${line(start)}; at ${TOTAL / 2} ${line(half)}; at ${TOTAL} ${line(end)}\n`,
    );
    // Every client is gone, so no frame guard (one per client) is left.
    assert.equal(end.heldClients, 0, `closed clients still held after ${TOTAL} connections (seed ${seed})`);
    assert.ok(
      end.heap - half.heap < HALF_HEAP_BOUND_MB,
      `the live heap grew ${(end.heap - half.heap).toFixed(2)} MB over the second ${TOTAL / 2} connections (seed ${seed})`,
    );
    assert.ok(
      end.rss - half.rss < HALF_RSS_BOUND_MB,
      `the resident size grew ${(end.rss - half.rss).toFixed(1)} MB over the second ${TOTAL / 2} connections (seed ${seed})`,
    );
    // The daemon still answers.
    const r = await s.svc(['daemon', 'status']);
    assert.equal(r.code, 0, r.stderr);
  });
});
