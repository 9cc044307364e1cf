// `svc lane land` through the real daemon, script builders and the local code host:
// a clean landing, a conflicting one, a failing check, two landings queued at once
// (tested in order, the second on top of the first) and who may land.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Landing } from '../../shared/protocol/land';
import { buildAndReport, laneWorld, ok, startLane } from '../helpers/lanes';
import type { LaneWorld } from '../helpers/lanes';
import { laneEnv } from '../helpers/laneEnv';
import { git, makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import { writeBrief } from '../helpers/scriptBrief';

const CHECKS = `      checks:
        - name: test
          run: 'if [ -f fail.txt ]; then echo "failing: fail.txt is here"; exit 1; fi; echo "green at $(git rev-parse HEAD)"'
          timeout: 60
`;

describe('lanes: svc lane land', function () {
  this.timeout(240_000);
  let s: Scratch;
  let w: LaneWorld;

  before(async () => {
    s = makeScratch('land');
    w = await laneWorld(s);
    fs.appendFileSync(path.join(s.svcHome, 'projects.yaml'), `    gauntlet:\n${CHECKS}`);
  });
  after(async () => s.dispose());

  const originMain = () => git(w.repo, s.env, 'ls-remote', w.origin, 'refs/heads/main').split('\t')[0];
  const originFile = (file: string) => {
    try {
      return git(w.repo, s.env, '--git-dir', w.origin, 'show', `main:${file}`);
    } catch {
      return undefined;
    }
  };

  /** A builder of key `key` that writes `file` and reports done; waits for the report. */
  async function builder(key: string, file: string, content: string) {
    const brief = writeBrief(w.briefs, `${key}.md`, [{ run: buildAndReport(file, content), check: true }]);
    const lane = await startLane(w, { run: 'r1', key, role: 'builder', model: 'm', brief });
    assert.equal((await s.svc(['lane', 'wait', lane.name, '--timeout', '60'])).code, 0);
    return lane;
  }

  it('lands a clean change: merged on the base by a fast-forward push after the checks pass', async () => {
    const before = originMain();
    const lane = await builder('clean', 'clean.txt', 'clean work');
    const r = await ok(s.svc(['lane', 'land', lane.name, '--wait', '--json']));
    const landing = JSON.parse(r.stdout) as Landing;
    assert.equal(landing.state, 'landed');
    assert.equal(landing.baseSha, before);
    assert.equal(landing.landedSha, originMain());
    assert.equal(originFile('clean.txt'), 'clean work');
    assert.deepEqual(
      landing.checks.map((c) => [c.name, c.ok, c.exitCode]),
      [['test', true, 0]],
    );
    assert.equal(fs.readFileSync(landing.checks[0].outputPath, 'utf8'), `green at ${landing.headSha}\n`);
    // The base had not moved since the lane started: the landing is the builder's own head.
    assert.equal(landing.landedSha, landing.headSha);
    // The one landing worktree left is the base's kept checks tree, at the landed commit
    // (made fresh for the next landing); the person's checkout is untouched.
    assert.deepEqual(
      fs.readdirSync(`${w.repo}-lanes`).filter((d) => d.startsWith('.land-')),
      ['.land-checks-main'],
    );
    assert.equal(git(path.join(`${w.repo}-lanes`, '.land-checks-main'), s.env, 'rev-parse', 'HEAD'), landing.landedSha);
    assert.equal(git(w.repo, s.env, 'status', '--porcelain'), '');
  });

  it('refuses a conflicting landing, naming the paths, with the base unchanged', async () => {
    const one = await builder('conf1', 'README.md', 'one');
    const two = await builder('conf2', 'README.md', 'two');
    await ok(s.svc(['lane', 'land', one.name, '--wait']));
    const before = originMain();
    const r = await s.svc(['lane', 'land', two.name, '--wait']);
    assert.equal(r.code, 1, r.stdout);
    assert.equal(
      r.stderr,
      `cannot land lane ${two.name}: its branch conflicts with main in README.md; the base is unchanged; have the builder merge main and report done again\n`,
    );
    assert.equal(originMain(), before);
    assert.equal(originFile('README.md'), 'one');
  });

  it('refuses a landing whose check fails, with the base unchanged and the output kept', async () => {
    const lane = await builder('failing', 'fail.txt', 'breaks the check');
    const before = originMain();
    const r = await s.svc(['lane', 'land', lane.name, '--wait']);
    assert.equal(r.code, 1, r.stdout);
    const file = /cat (\S+\/test\.log)/.exec(r.stderr)?.[1];
    assert.ok(file, r.stderr);
    assert.equal(
      r.stderr,
      `cannot land lane ${lane.name}: check 'test' exited 1 on its branch combined with main; the base is unchanged; all of its output: cat ${file}\n` +
        `--- end of test's output ---\nfailing: fail.txt is here\n`,
    );
    assert.equal(fs.readFileSync(file, 'utf8'), 'failing: fail.txt is here\n');
    assert.equal(originMain(), before);
    assert.equal(originFile('fail.txt'), undefined);
  });

  it('queues two landings of one base: run in order, the second tested on top of the first', async () => {
    const a = await builder('qa', 'qa.txt', 'first in line');
    const b = await builder('qb', 'qb.txt', 'second in line');
    const before = originMain();
    const [ra, rb] = await Promise.all([
      ok(s.svc(['lane', 'land', a.name, '--wait', '--json'])),
      (async () => {
        await new Promise((r) => setTimeout(r, 150));
        return ok(s.svc(['lane', 'land', b.name, '--wait', '--json']));
      })(),
    ]);
    const la = JSON.parse(ra.stdout) as Landing;
    const lb = JSON.parse(rb.stdout) as Landing;
    assert.ok(la.id < lb.id);
    assert.equal(la.baseSha, before);
    assert.equal(lb.baseSha, la.landedSha);
    assert.equal(originMain(), lb.landedSha);
    assert.equal(originFile('qa.txt'), 'first in line');
    assert.equal(originFile('qb.txt'), 'second in line');
    // Merge commits: the second's first parent is the first's landing.
    assert.equal(git(w.repo, s.env, '--git-dir', w.origin, 'rev-parse', `${lb.landedSha}^1`), la.landedSha);
    // The first was its builder's head (a fast-forward), checked while the base was read; the
    // second's head run, started the same way, was dropped: only the combination's output is kept.
    assert.equal(la.landedSha, la.headSha);
    assert.notEqual(lb.landedSha, lb.headSha);
    assert.equal(fs.readFileSync(la.checks[0].outputPath, 'utf8'), `green at ${la.headSha}\n`);
    assert.equal(fs.readFileSync(lb.checks[0].outputPath, 'utf8'), `green at ${lb.landedSha}\n`);
    assert.deepEqual(fs.readdirSync(path.dirname(lb.checks[0].outputPath)), ['test.log']);
  });

  it('without --wait prints the queue place and returns; the landing goes on', async () => {
    const lane = await builder('nowait', 'nowait.txt', 'later');
    const r = await ok(s.svc(['lane', 'land', lane.name]));
    assert.match(
      r.stdout,
      new RegExp(`^Landing #\\d+ of ${lane.name} queued on proj/main, next in line; svc lane runs shows the queue\\n$`),
    );
    for (let i = 0; i < 100 && originFile('nowait.txt') === undefined; i++)
      await new Promise((x) => setTimeout(x, 200));
    assert.equal(originFile('nowait.txt'), 'later');
  });

  it('authority: a builder cannot land itself or a sibling; a critic cannot land', async () => {
    const mine = await builder('auth1', 'auth1.txt', 'mine');
    const sib = await builder('auth2', 'auth2.txt', 'sibling');
    const before = originMain();
    const self = await s.svc(['lane', 'land', mine.name], { env: laneEnv(s, mine) });
    assert.equal(self.code, 1);
    assert.equal(
      self.stderr,
      `an agent may only land lanes it launched (their lanes and successors too), never itself; #${mine.id} (${mine.name}) is you — ask the person or your launcher\n`,
    );
    const sibling = await s.svc(['lane', 'land', sib.name], { env: laneEnv(s, mine) });
    assert.equal(sibling.code, 1);
    assert.match(sibling.stderr, /^an agent may only land lanes it launched/);
    assert.match(sibling.stderr, new RegExp(`#${sib.id} \\(${sib.name}\\)`));
    const critic = await startLane(w, { for: 'auth1', role: 'critic', run: 'r1', model: 'm', prompt: 'judge' });
    const byCritic = await s.svc(['lane', 'land', mine.name], { env: laneEnv(s, critic) });
    assert.equal(byCritic.code, 1);
    assert.match(byCritic.stderr, /^an agent may only land lanes it launched/);
    // Landing a critic is refused as such.
    const ofCritic = await s.svc(['lane', 'land', critic.name]);
    assert.equal(
      ofCritic.stderr,
      `cannot land lane ${critic.name}: it is a critic, and only a builder's branch lands; land the builder of key auth1\n`,
    );
    assert.equal(originMain(), before);
    // The launcher (the root conversation) may.
    await ok(s.svc(['lane', 'land', mine.name, '--wait'], { env: laneEnv(s, { id: w.rootId }) }));
    assert.equal(originFile('auth1.txt'), 'mine');
  });
});
