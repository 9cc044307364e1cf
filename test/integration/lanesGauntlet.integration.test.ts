// A whole gauntlet loop on the script harness, on a real repository with a bare origin:
// builder i1 → critic NOT_YET (2 defects) → builder i2 told the verdict → critic PASS.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LaneRecord } from '../../shared/protocol/lanes';
import { buildAndReport, judgeAndReport, laneWorld, ok, startLane, tryStartLane } from '../helpers/lanes';
import type { LaneWorld } from '../helpers/lanes';
import { git, makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import { writeBrief } from '../helpers/scriptBrief';

describe('lanes: a whole gauntlet loop', function () {
  this.timeout(180_000);
  let s: Scratch;
  let w: LaneWorld;

  before(async () => {
    s = makeScratch('gauntlet');
    w = await laneWorld(s);
  });
  after(async () => s.dispose());

  const laneJson = async (name: string): Promise<LaneRecord> => {
    const r = await ok(s.svc(['lane', 'list', '--run', 'r1', '--json']));
    const lane = (JSON.parse(r.stdout) as LaneRecord[]).find((l) => l.name === name);
    assert.ok(lane, `lane ${name} listed`);
    return lane;
  };

  it('walks builder i1, critic NOT_YET, builder i2, critic PASS', async () => {
    const lanesRoot = `${w.repo}-lanes`;
    // Builder i1 commits, pushes and reports done.
    const b1 = writeBrief(w.briefs, 'b1.md', [{ run: buildAndReport('feature.txt', 'first try'), check: true }]);
    const r1 = await ok(tryStartLane(w, { run: 'r1', key: 'feat', role: 'builder', model: 'm', brief: b1 }));
    const b1Lane = await laneJson('r1-feat-builder-i1');
    assert.equal(
      r1.stdout,
      `Lane r1/feat builder i1: conv ${b1Lane.id} (r1-feat-builder-i1) in ${path.join(lanesRoot, 'r1-feat')}\n`,
    );
    const w1 = await s.svc(['lane', 'wait', 'r1-feat-builder-i1', '--timeout', '60']);
    assert.equal(w1.code, 0, w1.stderr);
    assert.equal(w1.stdout, 'built it\n');
    assert.match(w1.stderr, /^next: svc lane wait r1-feat-builder-i1 --after 1$/m);
    const head1 = git(path.join(lanesRoot, 'r1-feat'), s.env, 'rev-parse', 'HEAD');
    assert.equal(git(w.repo, s.env, 'ls-remote', 'origin', 'refs/heads/r1/feat').split('\t')[0], head1);

    // The critic is checked out at the reported head and files NOT_YET with 2 defects.
    const c1 = writeBrief(w.briefs, 'c1.md', [{ run: judgeAndReport('NOT_YET', 2), check: true }]);
    await startLane(w, { for: 'feat', role: 'critic', run: 'r1', model: 'm', brief: c1 });
    const c1Dir = path.join(lanesRoot, 'r1-feat-critic-i1');
    assert.equal(git(c1Dir, s.env, 'rev-parse', 'HEAD'), head1);
    assert.equal((await s.svc(['lane', 'wait', 'r1-feat-critic-i1', '--timeout', '60'])).code, 0);
    const critic1 = await laneJson('r1-feat-critic-i1');
    assert.deepEqual(critic1.judged, { key: 'feat', iteration: 1 });
    assert.equal(critic1.verdict?.verdict, 'NOT_YET');
    assert.equal(critic1.verdict?.defects, 2);

    // Builder i2 branches from i1's branch and is told the verdict it answers.
    const b2 = writeBrief(w.briefs, 'b2.md', [{ run: buildAndReport('feature.txt', 'second try'), check: true }]);
    // i1 is idle after reporting, so still live: the next iteration replaces it.
    await startLane(w, { run: 'r1', key: 'feat', role: 'builder', model: 'm', brief: b2, replace: true });
    const b2Dir = path.join(lanesRoot, 'r1-feat-i2');
    assert.equal(git(b2Dir, s.env, 'rev-parse', '--abbrev-ref', 'HEAD'), 'r1/feat-i2');
    assert.equal((await s.svc(['lane', 'wait', 'r1-feat-builder-i2', '--timeout', '60'])).code, 0);
    assert.equal(git(b2Dir, s.env, 'merge-base', '--is-ancestor', head1, 'HEAD'), '');
    const firstPrompt = (await ok(s.svc(['conv', 'log', 'r1-feat-builder-i2']))).stdout;
    assert.ok(firstPrompt.includes(`critic conversation #${critic1.id}`), 'builder i2 is told the critic by id');
    // In the critic's own git dir: of its own repository (lanes.git: own), else of the project's.
    const verdict1 = path.join(git(c1Dir, s.env, 'rev-parse', '--absolute-git-dir'), 'verdict-r1-feat-critic-i1.json');
    assert.ok(
      firstPrompt.includes(`NOT_YET with 2 defect(s); verdict file: ${verdict1}`),
      'builder i2 is told the verdict',
    );

    const c2 = writeBrief(w.briefs, 'c2.md', [{ run: judgeAndReport('PASS', 0), check: true }]);
    await startLane(w, { for: 'feat', role: 'critic', run: 'r1', model: 'm', brief: c2, replace: true });
    assert.equal((await s.svc(['lane', 'wait', 'r1-feat-critic-i2', '--timeout', '60'])).code, 0);

    const show = await ok(s.svc(['lane', 'show', '--run', 'r1', '--key', 'feat']));
    const lines = show.stdout.trimEnd().split('\n');
    assert.equal(lines[0], 'i1 built → critic c1: NOT_YET (2 defects) → i2 built → critic c2: PASS');
    // Each lane's line, then its sandbox (the default, workspace), then a builder's base: the
    // commit its worktree was created from (i1: origin's main; i2: i1's reported head, the branch freeze).
    const base1 = git(w.repo, s.env, 'rev-parse', 'origin/main');
    const [b1Rec, c1Rec, b2Rec] = await Promise.all(
      ['r1-feat-builder-i1', 'r1-feat-critic-i1', 'r1-feat-builder-i2'].map(laneJson),
    );
    assert.deepEqual([b1Rec.baseSha, c1Rec.baseSha, b2Rec.baseSha], [base1, head1, head1]);
    assert.equal(lines.length, 11);
    for (const i of [2, 5, 7, 10]) assert.equal(lines[i], '    sandbox workspace: writes only its own worktree');
    assert.deepEqual([lines[3], lines[8]], [`    base ${base1}`, `    base ${head1}`]);
    assert.match(
      lines[4],
      new RegExp(
        `^#${critic1.id} critic i1 (idle|stopped) NOT_YET ${verdict1.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`,
      ),
    );

    const list = await ok(s.svc(['lane', 'list', '--run', 'r1']));
    const rows = list.stdout.trimEnd().split('\n');
    assert.match(
      rows[0],
      /^ID\s+RUN\/KEY\s+ROLE\s+ITER\s+ACTIVITY\s+REPORT\s+FOR\s+VERDICT\s+BRANCH@SHA\s+AHEAD\s+DIRTY\s+MODEL\s+COST$/,
    );
    const row = (name: string) => rows.find((r) => r.startsWith(`#${name} `))!;
    const b2Lane = await laneJson('r1-feat-builder-i2');
    const head2 = git(b2Dir, s.env, 'rev-parse', 'HEAD');
    assert.match(
      row(String(b1Lane.id)),
      new RegExp(
        `r1/feat\\s+builder\\s+i1\\s+\\S+\\s+done\\s+-\\s+NOT_YET 2\\s+r1/feat@${head1.slice(0, 7)}\\s+0\\s+no\\s+m\\s+-`,
      ),
    );
    assert.match(
      row(String(critic1.id)),
      new RegExp(
        `r1/feat\\s+critic\\s+i1\\s+\\S+\\s+done\\s+feat i1\\s+NOT_YET 2\\s+\\(detached\\)@${head1.slice(0, 7)}\\s+-\\s+no`,
      ),
    );
    assert.match(
      row(String(b2Lane.id)),
      new RegExp(
        `r1/feat\\s+builder\\s+i2\\s+\\S+\\s+done\\s+-\\s+PASS 0\\s+r1/feat-i2@${head2.slice(0, 7)}\\s+0\\s+no`,
      ),
    );

    const cards = JSON.parse((await ok(s.svc(['lane', 'runs', '--json']))).stdout) as {
      run: string;
      countsLine: string;
      latest: { text: string };
    }[];
    const card = cards.find((c) => c.run === 'r1')!;
    assert.equal(card.latest.text, 'r1/feat critic i2 reported done · verdict PASS');
    assert.match(card.countsLine, /^2 builders · 2 critics · /);

    // The brief is written once beside the agent's files; reports are keyed conv-<name>.
    assert.equal(
      fs.readFileSync(path.join(s.svcHome, 'agents', 'conv-r1-feat-builder-i1', 'lane-brief.md'), 'utf8'),
      fs.readFileSync(b1, 'utf8'),
    );
  });
});
