// Every row of the spec's Refusal conditions table (reap's rows aside): the refusal, its
// exit code, the exact message where the spec gives one, and nothing created.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LaneRecord } from '../../shared/protocol/lanes';
import {
  buildAndReport,
  judgeAndReport,
  laneStartArgs,
  laneWorld,
  ok,
  startLane,
  tryStartLane,
} from '../helpers/lanes';
import type { LaneWorld } from '../helpers/lanes';
import { git, makeScratch } from '../helpers/scratch';
import type { RunResult, Scratch } from '../helpers/scratch';
import { writeBrief } from '../helpers/scriptBrief';
import { laneEnv } from '../helpers/laneEnv';

function refusedWith(r: RunResult, message: string | RegExp): void {
  assert.equal(r.code, 1, `expected exit 1, got ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  if (typeof message === 'string') assert.equal(r.stderr, message + '\n');
  else assert.match(r.stderr, message);
}

describe('lanes: refusals', function () {
  this.timeout(120_000);
  let s: Scratch;
  let w: LaneWorld;
  let idle: string;
  let sleeper: string;

  before(async () => {
    s = makeScratch('refusals');
    w = await laneWorld(s, { gauntletModel: true });
    idle = writeBrief(w.briefs, 'idle.md', [{ say: 'ready' }]);
    sleeper = writeBrief(w.briefs, 'sleep.md', [{ sleep: 120_000 }]);
  });
  after(async () => s.dispose());

  const lane = async (name: string): Promise<LaneRecord> => {
    const r = await ok(s.svc(['lane', 'list', '--json']));
    return (JSON.parse(r.stdout) as LaneRecord[]).find((l) => l.name === name)!;
  };
  const asLane = (l: LaneRecord, args: string[], input?: string) =>
    s.svc(args, { env: laneEnv(s, { id: l.id }), cwd: l.cwd, input });

  it('refuses a role the effective launcher may not launch', async () => {
    await startLane(w, { run: 'perm', key: 'b', role: 'builder', brief: idle });
    const builder = await lane('perm-b-builder-i1');
    const r = await asLane(
      builder,
      laneStartArgs({ run: 'perm', key: 'b2', role: 'builder', model: 'm', harness: 'script', prompt: 'x' }),
    );
    refusedWith(
      r,
      'a builder lane may not launch a builder lane; a builder is launched by a root conversation or an orchestrator lane',
    );
    await startLane(w, { run: 'perm', key: 'o', role: 'orchestrator', model: 'm', brief: idle });
    const orch = await lane('perm-o-orchestrator-i1');
    const c = await asLane(
      orch,
      laneStartArgs({ for: 'b', role: 'critic', model: 'm', harness: 'script', prompt: 'x' }),
    );
    refusedWith(c, 'an orchestrator lane may not launch a critic lane; a critic is launched by a root conversation');
    const o2 = await asLane(
      orch,
      laneStartArgs({ key: 'o2', role: 'orchestrator', model: 'm', harness: 'script', prompt: 'x' }),
    );
    refusedWith(
      o2,
      'an orchestrator lane may not launch an orchestrator lane; an orchestrator is launched by a root conversation',
    );
    // An orchestrator lane's builder joins its run without --run.
    const b = await asLane(
      orch,
      laneStartArgs({ key: 'ob', role: 'builder', model: 'm', harness: 'script', brief: idle }),
    );
    assert.equal(b.code, 0, b.stderr);
    assert.match(b.stdout, /^Lane perm\/ob builder i1: conv \d+ \(perm-ob-builder-i1\) in /);
  });

  it('refuses a second live lane for the same run, key and role unless --replace', async () => {
    await startLane(w, { run: 'live', key: 'k', role: 'builder', model: 'm', brief: sleeper });
    const first = await lane('live-k-builder-i1');
    const r = await tryStartLane(w, { run: 'live', key: 'k', role: 'builder', model: 'm', brief: sleeper });
    refusedWith(
      r,
      new RegExp(
        `^lane live/k builder is already live: #${first.id} \\(live-k-builder-i1\\) is (working|idle|starting); wait for it, stop it, or pass --replace\\n$`,
      ),
    );
    const reuse = await tryStartLane(w, {
      run: 'live',
      key: 'k',
      role: 'builder',
      model: 'm',
      brief: sleeper,
      reuse: true,
    });
    refusedWith(
      reuse,
      new RegExp(
        `^--reuse: the earlier lane #${first.id} \\(live-k-builder-i1\\) is still (working|idle|starting); stop it first\\n$`,
      ),
    );
    // A --replace that is refused for another reason stops nothing.
    refusedWith(
      await tryStartLane(w, {
        run: 'live',
        key: 'k',
        role: 'builder',
        model: 'm',
        brief: idle,
        replace: true,
        from: 'no-such-ref',
      }),
      /^--from 'no-such-ref' is not a commit in /,
    );
    assert.ok(['working', 'idle'].includes((await lane('live-k-builder-i1')).activity), 'the live lane still runs');
    const rep = await ok(
      tryStartLane(w, { run: 'live', key: 'k', role: 'builder', model: 'm', brief: idle, replace: true }),
    );
    assert.match(rep.stdout, /^Lane live\/k builder i2: /);
    assert.equal((await lane('live-k-builder-i1')).activity, 'stopped');
  });

  it('svc conv resume of a stopped lane refuses while a --reuse respawn of its run, key and role is live; once that stops, it resumes', async () => {
    await startLane(w, { run: 'res', key: 'k', role: 'builder', model: 'm', brief: sleeper });
    const first = await lane('res-k-builder-i1');
    await ok(s.svc(['lane', 'stop', first.name]));
    await startLane(w, { run: 'res', key: 'k', role: 'builder', model: 'm', brief: sleeper, reuse: true });
    const second = await lane('res-k-builder-i1-r1');
    const r = await s.svc(['conv', 'resume', first.name]);
    refusedWith(
      r,
      new RegExp(
        `^lane #${first.id} \\(res-k-builder-i1\\) is not resumed: lane res/k builder is already live as #${second.id} \\(res-k-builder-i1-r1\\), (working|idle|starting); one lane of a run, key and role runs at a time\\. Stop it first \\(svc lane stop res-k-builder-i1-r1\\), then resume this one, or keep working with res-k-builder-i1-r1\\n$`,
      ),
    );
    assert.equal((await lane(first.name)).activity, 'stopped', 'the refused resume started nothing');
    await ok(s.svc(['lane', 'stop', second.name]));
    await ok(s.svc(['conv', 'resume', first.name]));
    assert.notEqual((await lane(first.name)).activity, 'stopped');
    await ok(s.svc(['lane', 'stop', first.name]));
  });

  it('refuses a launch without a model when the role has none configured, and uses the configured one', async () => {
    const r = await tryStartLane(w, { run: 'mdl', key: 'c', role: 'orchestrator', prompt: 'x' });
    refusedWith(
      r,
      "no model for the orchestrator role: pass --model <m> or set gauntlet.roles.orchestrator.model for project 'proj' in projects.yaml (there is no default model)",
    );
    await startLane(w, { run: 'mdl', key: 'b', role: 'builder', brief: idle });
    assert.equal((await lane('mdl-b-builder-i1')).model, 'default-builder-model');
  });

  it('refuses --key differing from --for, a --for with no such builder, and a critic without --for', async () => {
    refusedWith(
      await tryStartLane(w, { run: 'kf', key: 'x', for: 'y', role: 'critic', model: 'm', prompt: 'p' }),
      '--key x differs from --for y; a critic takes the key of the builder it judges',
    );
    refusedWith(
      await tryStartLane(w, { run: 'kf', for: 'nobody', role: 'critic', model: 'm', prompt: 'p' }),
      '--for nobody: run kf has no builder with that key',
    );
    refusedWith(
      await tryStartLane(w, { run: 'kf', key: 'x', role: 'critic', model: 'm', prompt: 'p' }),
      'a critic needs --for <builder key>: the builder it judges',
    );
  });

  it('refuses a critic without --at when the judged iteration has no done report', async () => {
    await startLane(w, { run: 'at', key: 'feat', role: 'builder', model: 'm', brief: idle });
    refusedWith(
      await tryStartLane(w, { run: 'at', for: 'feat', role: 'critic', model: 'm', prompt: 'p' }),
      'builder feat i1 has no done report; pass --at <sha>',
    );
    assert.ok(!fs.existsSync(path.join(`${w.repo}-lanes`, 'at-feat-critic-i1')), 'no critic directory created');
  });

  it('applies the report rules to builders, critics and verifiers', async () => {
    await startLane(w, { run: 'rep', key: 'feat', role: 'builder', model: 'm', brief: idle });
    const b = await lane('rep-feat-builder-i1');
    fs.writeFileSync(path.join(b.cwd, 'wip.txt'), 'uncommitted\n');
    refusedWith(
      await asLane(b, ['lane', 'report', '--stdin'], 'done'),
      `the working tree of ${b.cwd} has uncommitted changes; commit them (or discard them) and report again`,
    );
    git(b.cwd, s.env, 'add', 'wip.txt');
    git(b.cwd, s.env, 'commit', '-q', '-m', 'wip');
    refusedWith(
      await asLane(b, ['lane', 'report', '--stdin'], 'done'),
      'branch rep/feat has no upstream on origin; push it (git push -u origin HEAD) or pass --allow-unpushed',
    );
    refusedWith(
      await asLane(b, ['lane', 'report', '--stdin', '--verdict', 'PASS'], 'done'),
      '--verdict is for critic and verifier lanes; this is a builder lane',
    );
    refusedWith(
      await asLane(b, ['lane', 'report', '--stdin', '--status', 'blocked'], 'please decide'),
      "a blocked report's body must start with one of RULING, SPEND, ONE-WAY, BLOCKED",
    );
    const blocked = await asLane(b, ['lane', 'report', '--stdin', '--status', 'blocked'], 'RULING: which API?');
    assert.equal(blocked.code, 4);
    const done = await asLane(b, ['lane', 'report', '--stdin', '--allow-unpushed'], 'done, unpushed');
    assert.equal(done.code, 0, done.stderr);
    assert.equal(done.stdout, 'Report 2 filed for rep-feat-builder-i1: done\n');

    await startLane(w, { run: 'rep', for: 'feat', role: 'critic', model: 'm', brief: idle });
    const c = await lane('rep-feat-critic-i1');
    refusedWith(
      await asLane(c, ['lane', 'report', '--stdin'], 'looks fine'),
      "a critic's done report needs --verdict <WOWED|IMPRESSED|NOT_YET|PASS|DEFECTS>",
    );
    refusedWith(
      await asLane(c, ['lane', 'report', '--stdin', '--status', 'blocked', '--verdict', 'PASS'], 'BLOCKED: no'),
      '--verdict goes with a done report, not a blocked one',
    );
    // A verdict file lives in the critic's own folders (its git dir here): svc reads nothing else for it.
    const own = git(c.cwd, s.env, 'rev-parse', '--absolute-git-dir');
    const notJson = path.join(own, 'verdict.txt');
    fs.writeFileSync(notJson, 'not json');
    refusedWith(
      await asLane(c, ['lane', 'report', '--stdin', '--verdict', 'PASS', '--verdict-file', notJson], 'x'),
      `verdict file ${notJson} is not JSON`,
    );
    const noDefects = path.join(own, 'verdict.json');
    fs.writeFileSync(noDefects, '{"issues": []}');
    refusedWith(
      await asLane(c, ['lane', 'report', '--stdin', '--verdict', 'PASS', '--verdict-file', noDefects], 'x'),
      `verdict file ${noDefects} has no "defects" array`,
    );
    fs.writeFileSync(noDefects, '{"defects": [1, 2, 3]}');
    const first = await asLane(
      c,
      ['lane', 'report', '--stdin', '--verdict', 'DEFECTS', '--verdict-file', noDefects],
      'three',
    );
    assert.equal(first.stdout, 'Report 1 filed for rep-feat-critic-i1: done · verdict DEFECTS (3 defects)\n');
    refusedWith(
      await asLane(c, ['lane', 'report', '--stdin', '--verdict', 'PASS'], 'again'),
      'this critic already filed its done report; a critic files exactly one verdict',
    );

    // svc tell to a critic that already reported done: refused unless --force.
    refusedWith(
      await s.svc(['tell', 'conv-rep-feat-critic-i1', 'one more thing']),
      'critic rep-feat-critic-i1 already filed its done report; svc tell --force to message it anyway',
    );
    assert.equal((await s.svc(['tell', '--force', 'conv-rep-feat-critic-i1', 'one more thing'])).code, 0);
  });

  it('fails `svc lane report` outside a lane, including in a successor of a lane', async () => {
    refusedWith(await s.svc(['lane', 'report', '--stdin'], { input: 'x' }), 'not inside a lane');
    refusedWith(
      await s.svc(['lane', 'report', '--stdin'], { input: 'x', env: laneEnv(s, { id: w.rootId }) }),
      'not inside a lane',
    );
    await startLane(w, { run: 'succ', key: 'b', role: 'builder', model: 'm', brief: idle });
    const b = await lane('succ-b-builder-i1');
    const h = await ok(s.svc(['handoff', '--json'], { env: laneEnv(s, { id: b.id }), cwd: b.cwd }));
    // handoff --json answers {conversation}: the successor is a real conversation whose parent is the lane.
    const successor = (JSON.parse(h.stdout) as { conversation: { id: number; parentId: number } }).conversation;
    assert.equal(successor.parentId, b.id);
    refusedWith(
      await s.svc(['lane', 'report', '--stdin'], { input: 'x', env: laneEnv(s, { id: successor.id }), cwd: b.cwd }),
      'not inside a lane',
    );
  });

  it('refuses bad keys, option-like refs, bad briefs and bad HTTP bodies, creating nothing', async () => {
    const before = fs.readdirSync(path.join(s.svcHome, 'agents')).sort();
    const rootEntries = fs.existsSync(`${w.repo}-lanes`) ? fs.readdirSync(`${w.repo}-lanes`).sort() : [];
    for (const run of ['../x', '-rf', 'A', 'a'.repeat(33)]) {
      const r = await tryStartLane(w, { run, key: 'k', role: 'builder', model: 'm', prompt: 'p' });
      assert.equal(r.code, 1, `run key ${run}`);
      assert.match(r.stderr, /run: a run key is 1–32 characters/);
    }
    for (const key of ['../x', '-rf', 'A', 'k'.repeat(41)]) {
      const r = await tryStartLane(w, { run: 'bad', key, role: 'builder', model: 'm', prompt: 'p' });
      assert.equal(r.code, 1, `lane key ${key}`);
      assert.match(r.stderr, /key: a lane key is 1–40 characters/);
    }
    refusedWith(
      await tryStartLane(w, {
        run: 'bad',
        key: 'k',
        role: 'builder',
        model: 'm',
        prompt: 'p',
        from: '--upload-pack=x',
      }),
      "--from '--upload-pack=x' looks like an option; refs cannot start with -",
    );
    refusedWith(
      await tryStartLane(w, {
        run: 'bad',
        key: 'k',
        role: 'builder',
        model: 'm',
        prompt: 'p',
        extra: ['--branch=--upload-pack=x'],
      }),
      "branch '--upload-pack=x' looks like an option; refs cannot start with -",
    );
    refusedWith(
      await tryStartLane(w, { run: 'bad', key: 'k', role: 'builder', model: 'm', brief: w.briefs }),
      `brief ${w.briefs} is not a file`,
    );
    const unreadable = path.join(s.home, 'missing-brief.md');
    refusedWith(
      await tryStartLane(w, { run: 'bad', key: 'k', role: 'builder', model: 'm', brief: unreadable }),
      `brief ${unreadable} does not exist`,
    );
    refusedWith(
      await tryStartLane(w, { run: 'bad', key: 'k', role: 'builder', model: 'm', effort: 'extreme', prompt: 'p' }),
      /effort/,
    );
    assert.deepEqual(fs.readdirSync(path.join(s.svcHome, 'agents')).sort(), before);
    assert.deepEqual(fs.existsSync(`${w.repo}-lanes`) ? fs.readdirSync(`${w.repo}-lanes`).sort() : [], rootEntries);
    const list = JSON.parse((await ok(s.svc(['lane', 'list', '--run', 'bad', '--json']))).stdout) as unknown[];
    assert.equal(list.length, 0);
  });

  it('refuses lane keys that git refuses as branch names before recording anything, --no-wait and --replace too', async () => {
    const agents = async () => (JSON.parse((await ok(s.svc(['status', '--json']))).stdout) as unknown[]).length;
    const before = { agents: await agents(), homes: fs.readdirSync(path.join(s.svcHome, 'agents')).sort() };
    const rootEntries = fs.existsSync(`${w.repo}-lanes`) ? fs.readdirSync(`${w.repo}-lanes`).sort() : [];
    for (const key of ['a..b', 'a.lock', 'a.']) {
      for (const extra of [{}, { noWait: true }, { replace: true }]) {
        const r = await tryStartLane(w, { run: 'gitname', key, role: 'builder', model: 'm', prompt: 'p', ...extra });
        refusedWith(
          r,
          `lane key '${key}' gives the branch 'gitname/${key}', which is not a valid git branch name (git check-ref-format); choose another --key, or name the branch with --branch <name>`,
        );
        assert.doesNotMatch(r.stderr, /fatal:/);
      }
    }
    assert.equal(await agents(), before.agents, 'no conversation recorded');
    assert.deepEqual(fs.readdirSync(path.join(s.svcHome, 'agents')).sort(), before.homes, 'no brief written');
    assert.deepEqual(
      fs.existsSync(`${w.repo}-lanes`) ? fs.readdirSync(`${w.repo}-lanes`).sort() : [],
      rootEntries,
      'no directory made',
    );
    assert.deepEqual(JSON.parse((await ok(s.svc(['lane', 'list', '--run', 'gitname', '--json']))).stdout), []);
    // The same key with a branch of its own is fine: only the names git is given are judged.
    const named = await ok(
      tryStartLane(w, {
        run: 'gitname',
        key: 'a.',
        role: 'builder',
        model: 'm',
        brief: idle,
        branch: 'gitname/a-fixed',
        noWait: true,
      }),
    );
    assert.match(named.stdout, /^Lane gitname\/a\. builder i1: conv \d+ \(gitname-a\.-builder-i1\) in /);
    assert.equal(git((await lane('gitname-a.-builder-i1')).cwd, s.env, 'branch', '--show-current'), 'gitname/a-fixed');
  });

  it('--no-wait answers only once the lane directory exists: a failure there exits 1', async () => {
    fs.mkdirSync(path.join(`${w.repo}-lanes`, 'nowait-k'), { recursive: true });
    const r = await tryStartLane(w, {
      run: 'nowait',
      key: 'k',
      role: 'builder',
      model: 'm',
      prompt: 'p',
      noWait: true,
    });
    refusedWith(
      r,
      `lane directory ${path.join(fs.realpathSync(`${w.repo}-lanes`), 'nowait-k')} already exists; reap the lane that used it or choose another key`,
    );
  });

  it('a critic iteration has one verdict: a --reuse respawn cannot file a second one; one defect reads singular', async () => {
    const b = writeBrief(w.briefs, 'one-done.md', [{ run: buildAndReport('one.txt', 'one'), check: true }]);
    await startLane(w, { run: 'once', key: 'k', role: 'builder', model: 'm', brief: b });
    assert.equal((await s.svc(['lane', 'wait', 'once-k-builder-i1', '--timeout', '60'])).code, 0);
    // c1 is stopped before it judges; its --reuse respawn files the iteration's verdict.
    await startLane(w, { run: 'once', for: 'k', role: 'critic', model: 'm', brief: idle });
    const c1 = await lane('once-k-critic-i1');
    await ok(s.svc(['lane', 'stop', c1.name]));
    const judge = writeBrief(w.briefs, 'one-defect.md', [{ run: judgeAndReport('NOT_YET', 1), check: true }]);
    await startLane(w, { run: 'once', for: 'k', role: 'critic', model: 'm', brief: judge, reuse: true });
    const waited = await s.svc(['lane', 'wait', 'once-k-critic-i1-r1', '--timeout', '60']);
    assert.equal(waited.code, 0, waited.stderr);
    assert.match(waited.stderr, /^once-k-critic-i1-r1 reported done · verdict NOT_YET \(1 defect\)$/m);
    const r1 = await lane('once-k-critic-i1-r1');
    const judged = `critic k i1 already has its verdict (NOT_YET, filed by #${r1.id} once-k-critic-i1-r1); an iteration has one verdict: a new verdict needs a new critic iteration (svc lane start --for k --role critic, without --reuse)`;
    // The first conversation of the iteration is refused too, although it never reported.
    refusedWith(await asLane(c1, ['lane', 'report', '--stdin', '--verdict', 'PASS'], 'second opinion'), judged);
    await ok(s.svc(['lane', 'stop', r1.name]));
    refusedWith(
      await tryStartLane(w, { run: 'once', for: 'k', role: 'critic', model: 'm', brief: judge, reuse: true }),
      `--reuse: ${judged}`,
    );
    const show = await ok(s.svc(['lane', 'show', '--run', 'once', '--key', 'k']));
    assert.equal(show.stdout.split('\n')[0], 'i1 built → critic c1: NOT_YET (1 defect)');
    // A new critic iteration may judge again.
    const pass = writeBrief(w.briefs, 'pass.md', [{ run: judgeAndReport('PASS', 0), check: true }]);
    await startLane(w, { run: 'once', for: 'k', role: 'critic', model: 'm', brief: pass });
    assert.equal((await s.svc(['lane', 'wait', 'once-k-critic-i2', '--timeout', '60'])).code, 0);
  });

  it('builds a lane record for a done builder with --allow-unpushed only waiving the push', async () => {
    const b = writeBrief(w.briefs, 'done.md', [{ run: buildAndReport('x.txt', 'x'), check: true }]);
    await startLane(w, { run: 'fin', key: 'k', role: 'builder', model: 'm', brief: b });
    assert.equal((await s.svc(['lane', 'wait', 'fin-k-builder-i1', '--timeout', '60'])).code, 0);
    refusedWith(
      await tryStartLane(w, { run: 'fin', key: 'k', role: 'builder', model: 'm', brief: b, reuse: true }),
      /^--reuse: (builder k i1 reported done, so its branch is frozen; launch the next iteration instead|the earlier lane .* is still idle; stop it first)\n$/,
    );
  });
});
