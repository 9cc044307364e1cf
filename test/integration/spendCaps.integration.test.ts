// Spend caps on the script harness (its `cost:` step reports spending mid-turn, as real
// agents do): a lane over its cap is stopped mid-turn and files a SPEND report its
// launcher's wait returns with exit 4; no turn runs until the cap is raised, by a person or
// the lane's launcher (never the lane itself); a raise lets it go on. A run cap stops every
// live lane of the run, and a tool call that ignores the cancel is stopped with its agent;
// a harness that reports no cost is said to make a cap unenforceable.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LaneRecord } from '../../shared/protocol/lanes';
import { buildAndReport, laneWorld, ok, startLane, tryStartLane } from '../helpers/lanes';
import type { LaneWorld } from '../helpers/lanes';
import { laneEnv } from '../helpers/laneEnv';
import { eventually, makeScratch, sleep } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import { scriptBlock, writeBrief } from '../helpers/scriptBrief';

describe('spend caps', function () {
  this.timeout(180_000);
  let s: Scratch;
  let w: LaneWorld;

  before(async () => {
    s = makeScratch('spend-caps');
    w = await laneWorld(s);
  });
  after(async () => s.dispose());

  const lane = async (name: string): Promise<LaneRecord> => {
    const r = await ok(s.svc(['lane', 'list', '--json']));
    const l = (JSON.parse(r.stdout) as LaneRecord[]).find((x) => x.name === name);
    assert.ok(l, `lane ${name} listed`);
    return l;
  };
  const prompts = async (name: string) =>
    (await ok(s.svc(['conv', 'log', name, '--lines', '1000']))).stdout.split('\n').filter((l) => l.startsWith('> '))
      .length;

  it('stops a lane over its cap mid-turn; wait exits 4 with SPEND; nothing runs until a raise, which lets it go on', async () => {
    const lanesRoot = `${w.repo}-lanes`;
    const brief = writeBrief(w.briefs, 'spender.md', [
      { say: 'working' },
      { cost: 0.3 },
      { sleep: 200 },
      { cost: 0.3 },
      { sleep: 60_000 },
      { write: { path: 'never.txt', content: 'x' } },
    ]);
    const started = Date.now();
    await startLane(w, { run: 'sp', key: 'b', role: 'builder', model: 'm', brief, budget: '0.5' });

    const wait = await s.svc(['lane', 'wait', 'sp-b-builder-i1', '--timeout', '60']);
    assert.equal(wait.code, 4, wait.stderr);
    assert.ok(Date.now() - started < 50_000, 'the 60 s sleep was cut short: the turn was cancelled');
    assert.equal(
      wait.stdout,
      [
        'SPEND: Lane sp-b-builder-i1 reached its spend cap: spent $0.60 of $0.50, its own cap (--budget or svc lane budget).',
        '',
        'svc cancelled the turn in progress (an agent whose turn still runs 5 s later is stopped). No further turn runs on sp-b-builder-i1 until the cap is raised: messages sent to it are refused with this reason.',
        '',
        '- To go on: `svc lane budget sp-b-builder-i1 <usd>` with a higher amount (a person, or the conversation that launched the lane); the lane is told to carry on.',
        '- To end it: `svc lane stop sp-b-builder-i1`.',
        '',
      ].join('\n'),
    );
    assert.match(wait.stderr, /^sp-b-builder-i1 reported blocked$/m);
    // The turn ended cancelled and its last step never ran.
    const log = (await ok(s.svc(['conv', 'log', 'sp-b-builder-i1', '--lines', '1000']))).stdout;
    assert.match(log, /turn cancelled/);
    assert.ok(!fs.existsSync(path.join(lanesRoot, 'sp-b', 'never.txt')));

    const held = await lane('sp-b-builder-i1');
    assert.equal(held.activity, 'idle');
    assert.deepEqual(
      { spent: held.budget.spent, cap: held.budget.cap, from: held.budget.from, state: held.budget.state },
      { spent: 0.6, cap: 0.5, from: 'lane', state: 'reached' },
    );
    const list = (await ok(s.svc(['lane', 'list', '--run', 'sp']))).stdout;
    assert.match(list.split('\n')[1], / \$0\.60\/\$0\.50 reached$/);
    const show = (await ok(s.svc(['lane', 'show', 'sp-b-builder-i1']))).stdout.split('\n');
    assert.equal(
      show[2],
      '    budget: $0.60 of $0.50 (120%) — lane cap reached: svc lane budget sp-b-builder-i1 <usd> to go on',
    );

    // Held: a tell is refused with the reason, and no turn starts.
    const before = await prompts('sp-b-builder-i1');
    const tell = await s.svc(['tell', 'sp-b-builder-i1', 'keep going']);
    assert.equal(tell.code, 1);
    assert.equal(
      tell.stderr,
      "lane sp-b-builder-i1 is stopped at its spend cap: spent $0.60 of $0.50 (120%); no turn runs until the cap is raised (svc lane budget sp-b-builder-i1 <usd>, by a person or the lane's launcher) — or stop the lane (svc lane stop sp-b-builder-i1)\n",
    );
    // The lane may not raise its own cap.
    const self = await s.svc(['lane', 'budget', 'sp-b-builder-i1', '5'], { env: laneEnv(s, held) });
    assert.equal(self.code, 1);
    assert.equal(
      self.stderr,
      `conversation #${held.id} (sp-b-builder-i1) may not set the spend cap of lane sp-b-builder-i1: a person may, or the conversation that launched it (or one that launched that one)\n`,
    );
    assert.equal(await prompts('sp-b-builder-i1'), before, 'no turn ran while held');
    assert.equal((await lane('sp-b-builder-i1')).budget.cap, 0.5);

    // The launcher raises it: the lane is told to carry on, then takes the next message.
    const raise = await s.svc(['lane', 'budget', 'sp-b-builder-i1', '2'], { env: laneEnv(s, { id: w.rootId }) });
    assert.equal(raise.code, 0, raise.stderr);
    assert.equal(
      raise.stdout,
      'Spend cap of lane sp-b-builder-i1: $2.00 (spent $0.60)\nsp-b-builder-i1 may take turns again; it was told to carry on\n',
    );
    const going = await ok(
      s.svc([
        'tell',
        'sp-b-builder-i1',
        scriptBlock([{ run: buildAndReport('spent.txt', 'done anyway', 'finished'), check: true }]),
      ]),
    );
    assert.match(going.stdout, /^(Delivered to|Queued for) #\d+ \(sp-b-builder-i1\)/i);
    const done = await s.svc(['lane', 'wait', 'sp-b-builder-i1', '--after', '1', '--timeout', '60']);
    assert.equal(done.code, 0, done.stderr + done.stdout);
    assert.equal(done.stdout, 'finished\n');
    assert.match(
      (await ok(s.svc(['conv', 'log', 'sp-b-builder-i1', '--lines', '1000']))).stdout,
      /svc: your spend cap was raised \(lane \$0\.60 of \$2\.00 \(30%\)\)/,
    );
    const after = await lane('sp-b-builder-i1');
    assert.equal(after.budget.state, 'ok');
    assert.equal(after.budget.text, '$0.60 of $2.00 (30%)');
  });

  it('a run cap stops every live lane of the run; a launch into the capped run is refused until the run cap is raised', async () => {
    fs.appendFileSync(path.join(s.svcHome, 'projects.yaml'), '    gauntlet:\n      budget: 1\n');
    const idle = writeBrief(w.briefs, 'idle.md', [{ say: 'waiting for orders' }]);
    await startLane(w, { run: 'rc', key: 'quiet', role: 'builder', model: 'm', brief: idle });
    const spender = writeBrief(w.briefs, 'big.md', [{ cost: 1.25 }, { sleep: 60_000 }]);
    await startLane(w, { run: 'rc', key: 'big', role: 'builder', model: 'm', brief: spender });
    const waits = await Promise.all(
      ['rc-big-builder-i1', 'rc-quiet-builder-i1'].map((n) => s.svc(['lane', 'wait', n, '--timeout', '60'])),
    );
    for (const r of waits) {
      assert.equal(r.code, 4, r.stderr);
      assert.match(
        r.stdout,
        /^SPEND: Run rc reached its spend cap: spent \$1\.25 of \$1\.00, the project’s per-run cap \(gauntlet\.budget\)\.\n/,
      );
    }
    const runs = JSON.parse((await ok(s.svc(['lane', 'runs', '--json']))).stdout) as {
      run: string;
      spend: { spent: number; cap: number; text: string };
    }[];
    assert.deepEqual(
      runs.filter((c) => c.run === 'rc').map((c) => c.spend.text),
      ['$1.25 of $1.00 (125%) · 2 stopped at a cap'],
    );
    const refused = await tryStartLane(w, { run: 'rc', key: 'more', role: 'builder', model: 'm', brief: idle });
    assert.equal(refused.code, 1);
    assert.equal(
      refused.stderr,
      'run rc reached its spend cap (spent $1.25 of $1.00 (125%)): a new lane there would be stopped before its first turn; raise the cap first (svc lane budget --run rc <usd>)\n',
    );
    const raise = await ok(s.svc(['lane', 'budget', '--run', 'rc', '3']));
    assert.equal(
      raise.stdout,
      'Spend cap of run proj/rc: $3.00 (spent $1.25)\nrc-quiet-builder-i1 may take turns again; it was told to carry on\nrc-big-builder-i1 may take turns again; it was told to carry on\n',
    );
  });

  it('a tool call that ignores the cancel is stopped with its agent: nothing it started runs past the cap; a raise resumes it', async () => {
    const ticks = path.join(`${w.repo}-lanes`, 'tc-slow', 'ticks');
    // A command that ignores SIGTERM (so does every process it starts) and writes a tick every 0.1 s.
    const slow = writeBrief(w.briefs, 'stubborn.md', [
      { run: "trap '' TERM; while :; do echo tick >> ticks; sleep 0.1; done", check: false },
    ]);
    await startLane(w, { run: 'tc', key: 'slow', role: 'builder', model: 'm', brief: slow });
    await eventually(async () => fs.existsSync(ticks), 30_000, 'the stubborn command to run');
    await ok(s.svc(['lane', 'budget', '--run', 'tc', '0.5']));
    const spender = writeBrief(w.briefs, 'over.md', [{ cost: 0.75 }, { sleep: 60_000 }]);
    await startLane(w, { run: 'tc', key: 'spend', role: 'builder', model: 'm', brief: spender });
    const waited = await s.svc(['lane', 'wait', 'tc-slow-builder-i1', '--timeout', '60']);
    assert.equal(waited.code, 4, waited.stderr);
    assert.match(
      waited.stdout,
      /\nsvc cancelled the turn in progress \(an agent whose turn still runs 5 s later is stopped\)\. No further turn runs on tc-slow-builder-i1 /,
    );
    // The cancel alone does not end it; 5 s later svc stops the agent, its command with it.
    await eventually(
      async () => (await lane('tc-slow-builder-i1')).activity === 'stopped',
      30_000,
      'the agent stopped',
    );
    const size = fs.statSync(ticks).size;
    await sleep(1000);
    assert.equal(fs.statSync(ticks).size, size, 'no tick after the stop: the command ended with its agent');
    assert.match(
      (await ok(s.svc(['conv', 'log', 'tc-slow-builder-i1', '--lines', '1000']))).stdout,
      /svc stopped the agent: its turn was still running 5 s after svc cancelled it at the spend cap \(a tool call that ignored the cancel\); raising the cap resumes it/,
    );
    // The spender ended its turn at the cancel: it is held, not stopped.
    assert.equal((await lane('tc-spend-builder-i1')).activity, 'idle');

    const raise = await ok(s.svc(['lane', 'budget', '--run', 'tc', '5']));
    assert.equal(
      raise.stdout,
      'Spend cap of run proj/tc: $5.00 (spent $0.75)\ntc-slow-builder-i1 may take turns again; it was told to carry on\ntc-spend-builder-i1 may take turns again; it was told to carry on\n',
    );
    await eventually(
      async () => (await lane('tc-slow-builder-i1')).activity !== 'stopped',
      30_000,
      'the stopped lane resumed by the raise',
    );
  });

  it('says a cap is not enforceable on a harness that reports no cost', async () => {
    const brief = writeBrief(w.briefs, 'free.md', [
      { run: "printf 'BLOCKED: nothing to do\\n' | svc lane report --stdin --status blocked" },
    ]);
    await startLane(w, { run: 'nc', key: 'free', role: 'builder', model: 'm', brief, budget: '1' });
    assert.equal((await s.svc(['lane', 'wait', 'nc-free-builder-i1', '--timeout', '60'])).code, 4);
    const l = await lane('nc-free-builder-i1');
    assert.equal(l.budget.state, 'not-enforceable');
    const show = (await ok(s.svc(['lane', 'show', 'nc-free-builder-i1']))).stdout.split('\n');
    assert.equal(show[2], '    budget: not enforceable — script reports no cost');
  });
});
