// The run record's landings: a builder landed and one refused by a failing check, each with
// its lane, method, state, the base before and after, and every check's name, result,
// duration and log file, in the JSON facts, the page and the timeline.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { lanesLandings } from '../../shared/protocol/land';
import type { Landing } from '../../shared/protocol/land';
import type { RunRecord } from '../../shared/protocol/runRecord';
import { buildAndReport, laneWorld, ok, startLane } from '../helpers/lanes';
import type { LaneWorld } from '../helpers/lanes';
import { rpcRequest } from '../helpers/rpc';
import { makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import { writeBrief } from '../helpers/scriptBrief';

const CHECKS = `      checks:
        - name: test
          run: 'if [ -f fail.txt ]; then echo "failing: fail.txt is here"; exit 1; fi; echo green'
          timeout: 60
`;

describe('run record: landings and their checks', function () {
  this.timeout(180_000);
  let s: Scratch;
  let w: LaneWorld;
  let landed: Landing;
  let refused: Landing;

  before(async () => {
    s = makeScratch('run-record-land');
    w = await laneWorld(s);
    fs.appendFileSync(path.join(s.svcHome, 'projects.yaml'), `    gauntlet:\n${CHECKS}`);
    const builder = async (key: string, file: string) => {
      const brief = writeBrief(w.briefs, `${key}.md`, [{ run: buildAndReport(file, `${key} work`), check: true }]);
      const lane = await startLane(w, { run: 'rl', key, role: 'builder', model: 'm', brief });
      assert.equal((await s.svc(['lane', 'wait', lane.name, '--timeout', '60'])).code, 0);
      return lane;
    };
    const good = await builder('good', 'good.txt');
    const bad = await builder('bad', 'fail.txt');
    landed = JSON.parse((await ok(s.svc(['lane', 'land', good.name, '--wait', '--json']))).stdout) as Landing;
    assert.equal((await s.svc(['lane', 'land', bad.name, '--wait'])).code, 1);
    const { landings } = await rpcRequest(s.svcHome, lanesLandings, { run: 'rl' });
    refused = landings.find((l) => l.lane === bad.name)!;
  });
  after(async () => s.dispose());

  const home = (p: string) => p.replace(s.home, '~');

  it('--json: each landing with its base before and after and every check with its log', async () => {
    const rec = JSON.parse((await ok(s.svc(['run', 'export', 'rl', '--json', '--out', '-']))).stdout) as RunRecord;
    const check = (l: Landing) =>
      l.checks.map((c) => ({
        name: c.name,
        ok: c.ok,
        exitCode: c.exitCode,
        timedOut: c.timedOut,
        durationMs: c.durationMs,
        logPath: home(c.outputPath),
      }));
    assert.deepEqual(rec.landings, [
      {
        id: landed.id,
        lane: 'rl-good-builder-i1',
        key: 'good',
        method: 'merge',
        state: 'landed',
        base: 'main',
        headSha: landed.headSha,
        baseBefore: landed.baseSha,
        baseAfter: landed.landedSha,
        reason: null,
        message: null,
        checks: check(landed),
        queuedAt: landed.queuedAt,
        endedAt: landed.endedAt,
      },
      {
        id: refused.id,
        lane: 'rl-bad-builder-i1',
        key: 'bad',
        method: 'merge',
        state: 'refused',
        base: 'main',
        headSha: refused.headSha,
        baseBefore: refused.baseSha,
        baseAfter: null,
        reason: 'landCheckFailed',
        message: home(refused.message!),
        checks: check(refused),
        queuedAt: refused.queuedAt,
        endedAt: refused.endedAt,
      },
    ]);
    assert.deepEqual(
      rec.landings.map((l) => l.checks.map((c) => [c.name, c.ok, c.exitCode])),
      [[['test', true, 0]], [['test', false, 1]]],
    );
    assert.match(rec.landings[1].checks[0].logPath, /^~\/.*\/land\/\d+\/test\.log$/);
    const events = rec.timeline.filter((e) => e.kind === 'land').map((e) => e.text);
    assert.deepEqual(events, [
      `rl-good-builder-i1 landed on main (merge; ${landed.baseSha!.slice(0, 7)}..${landed.landedSha!.slice(0, 7)})`,
      'landing of rl-bad-builder-i1 refused (landCheckFailed); main unchanged',
    ]);
  });

  it('the page shows a Landings section with each check, its result, time and log', async () => {
    const html = (await ok(s.svc(['run', 'export', 'rl', '--out', '-']))).stdout;
    assert.ok(html.includes('<a href="#landings">Landings</a>'));
    const section = /<section id="landings">.*?<\/section>/s.exec(html)?.[0];
    assert.ok(section, 'a landings section');
    const secs = (l: Landing) => (l.checks[0].durationMs / 1000).toFixed(1);
    assert.ok(
      section.includes(
        `<tr><td>rl-good-builder-i1</td><td>merge</td><td>landed</td><td>main: <code>${landed.baseSha!.slice(0, 12)}</code> → <code>${landed.landedSha!.slice(0, 12)}</code></td><td><ul><li>test: <b class="ok">passed</b> in ${secs(landed)} s · <code>${home(landed.checks[0].outputPath)}</code></li></ul></td></tr>`,
      ),
      section,
    );
    assert.ok(section.includes(`<td>main: <code>${refused.baseSha!.slice(0, 12)}</code> → unchanged</td>`), section);
    assert.ok(section.includes(`test: <b class="bad">failed (exit 1)</b> in ${secs(refused)} s`), section);
  });
});
