// Shims started at the same moment with no daemon running end with exactly one daemon,
// and every one of them succeeds. Counted from /proc, not from server.json.
import * as assert from 'node:assert/strict';
import { alive, assertOnlyDaemon, daemonPids, discoveryOf, disposeAll, frozenDist } from '../helpers/daemonProcs';
import type { Svc } from '../helpers/daemonProcs';
import { makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';

const SHIMS = 5;

describe('daemon: shims racing to start it', function () {
  let s: Scratch;
  let svc: Svc;

  before(() => {
    s = makeScratch('daemonRace');
    ({ svc } = frozenDist(s));
  });
  after(async () => disposeAll(s, svc));

  async function race(what: string): Promise<void> {
    assert.deepEqual(daemonPids(s.svcHome), [], `no daemon before the race (${what})`);
    const results = await Promise.all(Array.from({ length: SHIMS }, () => svc(['daemon', 'status', '--json'])));
    for (const r of results) {
      assert.equal(r.stderr, '', what);
      assert.equal(r.code, 0, what);
    }
    const pids = new Set(results.map((r) => (JSON.parse(r.stdout) as { pid: number }).pid));
    assert.equal(pids.size, 1, `every shim talked to one daemon (${what}): ${[...pids].join(', ')}`);
    const [pid] = pids;
    assert.equal(discoveryOf(s).pid, pid);
    await assertOnlyDaemon(s.svcHome, pid);
  }

  it(`${SHIMS} shims in a fresh home (no SVC_HOME folder yet) end with exactly one daemon`, async () => {
    await race('fresh home');
  });

  it(`${SHIMS} shims after a stop (lock file and database exist) end with exactly one daemon`, async () => {
    for (let round = 1; round <= 3; round++) {
      const r = await svc(['daemon', 'stop']);
      assert.equal(r.code, 0);
      await race(`round ${round}`);
    }
  });

  it(`${SHIMS} shims after kill -9 (stale socket and server.json) end with exactly one daemon`, async () => {
    const pid = discoveryOf(s).pid;
    process.kill(pid, 'SIGKILL');
    while (alive(pid)) await new Promise((r) => setTimeout(r, 20));
    await race('after kill -9');
  });
});
