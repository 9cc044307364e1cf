// `svc lane pick` through the real daemon, script builders and critics, and the local code
// host: four candidates with mixed checks (one head fails a check) and verdicts ranked in the
// printed form and as JSON, keys that are not candidates listed with why, the exit codes, and
// who may pick (a builder and a critic are refused; the launcher and the person may).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PickResult } from '../../shared/protocol/land';
import type { LaneRecord } from '../../shared/protocol/lanes';
import { buildAndReport, judgeAndReport, laneWorld, ok, startLane } from '../helpers/lanes';
import type { LaneWorld } from '../helpers/lanes';
import { laneEnv } from '../helpers/laneEnv';
import { git, makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import { writeBrief } from '../helpers/scriptBrief';

const CHECKS = `      checks:
        - name: lint
          run: 'test -f README.md'
          timeout: 60
        - name: test
          run: 'if [ -f fail.txt ]; then echo "failing: fail.txt is here"; exit 1; fi; echo green'
          timeout: 60
`;

describe('lanes: svc lane pick', function () {
  this.timeout(300_000);
  let s: Scratch;
  let w: LaneWorld;
  const b: Record<string, LaneRecord> = {};
  const critics: Record<string, LaneRecord> = {};
  const heads: Record<string, string> = {};

  before(async () => {
    s = makeScratch('pick');
    w = await laneWorld(s);
    fs.appendFileSync(path.join(s.svcHome, 'projects.yaml'), `    gauntlet:\n${CHECKS}`);
    // a breaks the test check; e never reports done (blocked); the others pass both checks.
    const work: Record<string, string> = {
      a: buildAndReport('fail.txt', 'a breaks the check'),
      b: buildAndReport('b.txt', 'b work'),
      c: buildAndReport('c.txt', 'c work'),
      d: buildAndReport('d.txt', 'd work'),
      e: `printf 'BLOCKED which greeting?\\n' | svc lane report --stdin --status blocked`,
    };
    for (const [key, run] of Object.entries(work)) {
      const brief = writeBrief(w.briefs, `${key}.md`, [{ run, check: true }]);
      b[key] = await startLane(w, { run: 'p1', key, role: 'builder', model: 'm', brief });
    }
    for (const key of Object.keys(work))
      assert.equal((await s.svc(['lane', 'wait', b[key].name, '--timeout', '60'])).code, key === 'e' ? 4 : 0);
    // Verdicts: a WOWED, b NOT_YET with 2 defects, c IMPRESSED; d is not judged.
    const verdicts: Record<string, [string, number]> = { a: ['WOWED', 0], b: ['NOT_YET', 2], c: ['IMPRESSED', 0] };
    for (const [key, [verdict, defects]] of Object.entries(verdicts)) {
      const brief = writeBrief(w.briefs, `critic-${key}.md`, [{ run: judgeAndReport(verdict, defects), check: true }]);
      critics[key] = await startLane(w, { for: key, role: 'critic', run: 'p1', model: 'm', brief });
    }
    for (const key of Object.keys(verdicts))
      assert.equal((await s.svc(['lane', 'wait', critics[key].name, '--timeout', '60'])).code, 0);
    for (const key of ['a', 'b', 'c', 'd'])
      heads[key] = git(w.repo, s.env, 'ls-remote', w.origin, `refs/heads/p1/${key}`).split('\t')[0];
  });
  after(async () => s.dispose());

  const originMain = () => git(w.repo, s.env, 'ls-remote', w.origin, 'refs/heads/main').split('\t')[0];
  const line = (rank: number, key: string, reasons: string) =>
    `${rank}. ${key} (${b[key].name} at ${heads[key].slice(0, 12)}): ${reasons}`;

  it('ranks four candidates: checks green first, then the verdict and defects; lists the others with why', async () => {
    const before = originMain();
    const r = await ok(s.svc(['lane', 'pick', '--run', 'p1', '--keys', 'a,b,c,d,e,zz']));
    const log = new RegExp(`cat (${s.svcHome}/land/pick-[a-z0-9]+-\\d+/a/test\\.log)\\n`).exec(r.stdout)?.[1];
    assert.ok(log, r.stdout);
    assert.equal(
      r.stdout,
      [
        line(1, 'c', 'checks green, critic IMPRESSED, diff 1 line'),
        line(2, 'b', 'checks green, critic NOT_YET (2 defects), diff 1 line'),
        line(3, 'd', 'checks green, no critic verdict, diff 1 line'),
        line(4, 'a', 'checks red (test), critic WOWED, diff 1 line'),
        `   test's output: cat ${log}`,
        `not a candidate: e (${b.e.name}): no done report with a head yet (its newest report is blocked)`,
        'not a candidate: zz: no builder of key zz in run p1',
        `land the winner with: svc lane land ${b.c.name}`,
        '',
      ].join('\n'),
    );
    assert.equal(r.stderr, '');
    assert.equal(fs.readFileSync(log, 'utf8'), 'failing: fail.txt is here\n');
    // It lands nothing, and leaves no worktree of its own behind.
    assert.equal(originMain(), before);
    assert.deepEqual(
      fs.readdirSync(`${w.repo}-lanes`).filter((d) => d.startsWith('.pick-')),
      [],
    );
  });

  it('--json: the same ranking with every check result, the verdict and its critic', async () => {
    const r = await ok(s.svc(['lane', 'pick', '--run', 'p1', '--keys', 'd,a,c,b', '--json']));
    const p = JSON.parse(r.stdout) as PickResult;
    assert.equal(p.project, 'proj');
    assert.equal(p.base, 'main');
    assert.equal(p.baseSha, originMain());
    assert.equal(p.winner, b.c.name);
    assert.deepEqual(p.notCandidates, []);
    assert.deepEqual(
      p.ranking.map((c) => [c.rank, c.key, c.lane, c.head, c.checks, c.verdict, c.verdictBy, c.defects, c.diffLines]),
      [
        [1, 'c', b.c.name, heads.c, { green: true }, 'IMPRESSED', critics.c.name, 0, 1],
        [2, 'b', b.b.name, heads.b, { green: true }, 'NOT_YET', critics.b.name, 2, 1],
        [3, 'd', b.d.name, heads.d, { green: true }, null, null, 0, 1],
        [4, 'a', b.a.name, heads.a, { green: false, failed: ['test'] }, 'WOWED', critics.a.name, 0, 1],
      ],
    );
    // Every check ran on every head (a pick wants the whole picture, not the first failure).
    for (const c of p.ranking) {
      assert.deepEqual(
        c.checkResults.map((x) => [x.name, x.ok, x.exitCode, x.timedOut]),
        [
          ['lint', true, 0, false],
          ['test', c.key !== 'a', c.key === 'a' ? 1 : 0, false],
        ],
      );
      for (const x of c.checkResults) assert.equal(path.basename(path.dirname(x.outputPath)), c.key);
    }
    assert.deepEqual(p.ranking[3].failedOutput, [
      { name: 'test', outputPath: p.ranking[3].checkResults[1].outputPath },
    ]);
    assert.deepEqual(p.ranking[0].reasons, ['checks green', 'critic IMPRESSED', 'diff 1 line']);
  });

  it('exits 1 when no candidate passes the checks, or none has a done report', async () => {
    const red = await s.svc(['lane', 'pick', '--run', 'p1', '--keys', 'a']);
    assert.equal(red.code, 1, red.stderr);
    assert.match(red.stdout, /\nno candidate passes the checks: nothing to land\n$/);
    const none = await s.svc(['lane', 'pick', '--run', 'p1', '--keys', 'e,zz']);
    assert.equal(none.code, 1, none.stderr);
    assert.equal(
      none.stdout,
      `not a candidate: e (${b.e.name}): no done report with a head yet (its newest report is blocked)\n` +
        'not a candidate: zz: no builder of key zz in run p1\n' +
        'no candidate: none of the keys has a done report\n',
    );
    const json = await s.svc(['lane', 'pick', '--run', 'p1', '--keys', 'e', '--json']);
    assert.equal(json.code, 1);
    assert.equal((JSON.parse(json.stdout) as PickResult).winner, null);
  });

  it('refuses an unknown run and bad input', async () => {
    const run = await s.svc(['lane', 'pick', '--run', 'nope', '--keys', 'a']);
    assert.equal(run.code, 1);
    assert.equal(run.stderr, 'cannot pick among run nope: no lanes of that run; svc lane runs lists the runs\n');
    const keys = await s.svc(['lane', 'pick', '--run', 'p1']);
    assert.equal(keys.code, 1);
    assert.match(keys.stderr, /--keys is required: the builder keys to choose among, comma-separated/);
  });

  it('authority: a builder and a critic are refused; the launcher may', async () => {
    const picks = () => fs.readdirSync(path.join(s.svcHome, 'land')).length;
    const before = picks();
    const self = await s.svc(['lane', 'pick', '--run', 'p1', '--keys', 'a,b'], { env: laneEnv(s, b.a) });
    assert.equal(self.code, 1);
    assert.equal(
      self.stderr,
      `an agent may only pick among builders it launched (their lanes and successors too), never itself; #${b.a.id} (${b.a.name}) is you — ask the person or your launcher\n`,
    );
    const sibling = await s.svc(['lane', 'pick', '--run', 'p1', '--keys', 'b,c'], { env: laneEnv(s, b.a) });
    assert.equal(sibling.code, 1);
    assert.match(
      sibling.stderr,
      new RegExp(
        `^an agent may only pick among builders it launched \\(their lanes and successors too\\), never itself; #${b.b.id} \\(${b.b.name}\\) was launched by #${w.rootId} \\([^)]+\\), not by you \\(#${b.a.id} \\(${b.a.name}\\)\\) — ask the person or your launcher\\n$`,
      ),
    );
    const critic = await s.svc(['lane', 'pick', '--run', 'p1', '--keys', 'c'], { env: laneEnv(s, critics.c) });
    assert.equal(critic.code, 1);
    assert.match(
      critic.stderr,
      new RegExp(`#${b.c.id} \\(${b.c.name}\\) was launched by #${w.rootId} .*not by you \\(#${critics.c.id} `),
    );
    // No check ran for a refused pick: no output folder beyond those of the picks above.
    assert.equal(picks(), before);
    const launcher = await ok(
      s.svc(['lane', 'pick', '--run', 'p1', '--keys', 'c,d'], { env: laneEnv(s, { id: w.rootId }) }),
    );
    assert.match(launcher.stdout, new RegExp(`\\nland the winner with: svc lane land ${b.c.name}\\n$`));
  });
});
