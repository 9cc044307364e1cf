// At most one live lane per run, key and role, even under 20 concurrent launches; and
// `svc lane wait` returns promptly once a report is filed (event-driven, not polling).
import * as assert from 'node:assert/strict';
import type { LaneRecord } from '../../shared/protocol/lanes';
import { laneWorld, ok, startLane, tryStartLane } from '../helpers/lanes';
import type { LaneWorld } from '../helpers/lanes';
import { makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import { writeBrief } from '../helpers/scriptBrief';

describe('lanes: concurrency and wait latency', function () {
  this.timeout(180_000);
  let s: Scratch;
  let w: LaneWorld;

  before(async () => {
    s = makeScratch('lanes-conc');
    w = await laneWorld(s);
  });
  after(async () => s.dispose());

  it('20 concurrent starts of one run, key and role end with one live lane and 19 refusals', async () => {
    const brief = writeBrief(w.briefs, 'sleep.md', [{ sleep: 120_000 }]);
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        tryStartLane(w, { run: 'race', key: 'k', role: 'builder', model: 'm', brief, noWait: true }),
      ),
    );
    const wins = results.filter((r) => r.code === 0);
    const refusals = results.filter((r) => r.code === 1);
    assert.equal(wins.length, 1, results.map((r) => r.stderr).join(''));
    assert.equal(refusals.length, 19);
    for (const r of refusals)
      assert.match(
        r.stderr,
        /^(lane race\/k builder is already live: #\d+ \(race-k-builder-i1\) is \S+; wait for it, stop it, or pass --replace|another launch of race\/k builder won the race; .*)\n$/,
      );
    const lanes = JSON.parse((await ok(s.svc(['lane', 'list', '--run', 'race', '--json']))).stdout) as LaneRecord[];
    assert.equal(lanes.length, 1);
  });

  it('a set wait returns the report within a short time of its filing', async () => {
    const brief = writeBrief(w.briefs, 'ask.md', [
      { ask: 'may I report?' },
      { run: 'printf "ok\\n" | svc lane report --stdin --allow-unpushed', check: true },
    ]);
    await startLane(w, { run: 'lat', key: 'k', role: 'builder', model: 'm', brief });
    let returnedAt = 0;
    const waiting = s
      .svc(['lane', 'wait', '--run', 'lat', '--timeout', '60'])
      .then((r) => ((returnedAt = Date.now()), r));
    await ok(s.svc(['conv', 'answer', 'lat-k-builder-i1', '--allow']));
    const r = await waiting;
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'ok\n');
    assert.match(r.stderr, /^next: svc lane wait --run lat --after \d+\.lat-k-builder-i1\.1$/m);
    const lane = (JSON.parse((await ok(s.svc(['lane', 'list', '--run', 'lat', '--json']))).stdout) as LaneRecord[])[0];
    const latency = returnedAt - lane.report!.at;
    // Filing → waiter woken → reply → shim exit. Target 100 ms (bench/); asserted loosely.
    console.log(`      wait latency after filing: ${latency} ms`);
    assert.ok(latency < 1000, `wait returned ${latency} ms after the report was filed`);
  });
});
