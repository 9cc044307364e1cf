// Lane roles and lifecycles beyond the main loop: wait exit codes, play, verifier,
// orchestrator, --reuse, stop, sparse checkout, blindness, successors, Awareness cards.
import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LaneRecord, RunCard } from '../../shared/protocol/lanes';
import { buildAndReport, laneWorld, ok, startLane, tryStartLane } from '../helpers/lanes';
import type { LaneWorld } from '../helpers/lanes';
import { advanceClock } from '../helpers/rpc';
import { eventually, git, makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import { writeBrief } from '../helpers/scriptBrief';
import { laneEnv } from '../helpers/laneEnv';

describe('lanes: roles and lifecycle', function () {
  this.timeout(180_000);
  let s: Scratch;
  let w: LaneWorld;
  let root: string;

  before(async () => {
    s = makeScratch('lanes-life');
    w = await laneWorld(s);
    root = `${w.repo}-lanes`;
  });
  after(async () => s.dispose());

  const lanes = async (run?: string): Promise<LaneRecord[]> =>
    JSON.parse((await ok(s.svc(['lane', 'list', ...(run ? ['--run', run] : []), '--json']))).stdout) as LaneRecord[];
  const lane = async (name: string) => (await lanes()).find((l) => l.name === name)!;

  it('wait exits 2 for a lane that exited without a report, 3 on timeout, 4 for blocked', async () => {
    await startLane(w, {
      run: 'ex',
      key: 'gone',
      role: 'builder',
      model: 'm',
      brief: writeBrief(w.briefs, 'exit.md', [{ exit: 0 }]),
      noWait: true,
    });
    const gone = await s.svc(['lane', 'wait', 'ex-gone-builder-i1', '--timeout', '60']);
    assert.equal(gone.code, 2, gone.stderr);
    assert.equal(
      gone.stderr,
      'ex-gone-builder-i1 exited without a report\nnext: svc lane wait ex-gone-builder-i1 --after 0\n',
    );

    await startLane(w, {
      run: 'ex',
      key: 'slow',
      role: 'builder',
      model: 'm',
      brief: writeBrief(w.briefs, 'slow.md', [{ sleep: 120_000 }]),
    });
    const t = await s.svc(['lane', 'wait', 'ex-slow-builder-i1', '--timeout', '1']);
    assert.equal(t.code, 3);
    assert.equal(t.stderr, 'timed out; the lane is still running\nnext: svc lane wait ex-slow-builder-i1 --after 0\n');

    await startLane(w, {
      run: 'ex',
      key: 'stuck',
      role: 'builder',
      model: 'm',
      brief: writeBrief(w.briefs, 'blocked.md', [
        { run: "printf 'SPEND: may I buy a GPU hour?\\n' | svc lane report --stdin --status blocked" },
      ]),
    });
    const b = await s.svc(['lane', 'wait', 'ex-stuck-builder-i1', '--timeout', '60']);
    assert.equal(b.code, 4);
    assert.equal(b.stdout, 'SPEND: may I buy a GPU hour?\n');
    assert.match(
      b.stderr,
      /^ex-stuck-builder-i1 reported blocked\nnext: svc lane wait ex-stuck-builder-i1 --after 1\n$/,
    );

    // A set wait walks the run oldest first: the silent lane, then the blocked report.
    const first = await s.svc(['lane', 'wait', '--run', 'ex', '--timeout', '10']);
    assert.equal(first.code, 2, first.stderr);
    const cursor = /next: svc lane wait --run ex --after (\S+)/.exec(first.stderr)![1];
    assert.match(cursor, /^\d+\.ex-gone-builder-i1\.0$/);
    const second = await s.svc(['lane', 'wait', '--run', 'ex', '--after', cursor, '--timeout', '10']);
    assert.equal(second.code, 4);
    assert.equal(second.stdout, 'SPEND: may I buy a GPU hour?\n');

    // A run with no lanes is named at once (exit 1), never waited on until a timeout that
    // blames a lane still running.
    const none = await s.svc(['lane', 'wait', '--run', 'exx', '--timeout', '30']);
    assert.equal(none.code, 1, none.stderr);
    assert.equal(none.stdout, '');
    assert.equal(none.stderr, 'run exx has no lanes; nothing to wait for (svc lane runs lists the runs)\n');
  });

  it('a branch with commits and no upstream lists them ahead of its base, not `-`', async () => {
    await startLane(w, {
      run: 'nb',
      key: 'k',
      role: 'builder',
      model: 'm',
      brief: writeBrief(w.briefs, 'nb.md', [{ exit: 0 }]),
    });
    const dir = path.join(root, 'nb-k');
    git(dir, s.env, 'commit', '-q', '--allow-empty', '-m', 'one');
    git(dir, s.env, 'commit', '-q', '--allow-empty', '-m', 'two');
    const head = git(dir, s.env, 'rev-parse', 'HEAD');
    const record = await lane('nb-k-builder-i1');
    assert.deepEqual(record.git, { branch: 'nb/k', headSha: head, ahead: 2, aheadOfBase: true, dirty: false });
    const [header, row] = (await ok(s.svc(['lane', 'list', '--run', 'nb']))).stdout.trimEnd().split('\n');
    const cells = (line: string) => line.split(/\s{2,}/);
    assert.equal(cells(row)[cells(header).indexOf('AHEAD')], '2 (base)');
    // Once pushed, the count is of the upstream again.
    git(dir, s.env, 'push', '-q', '-u', 'origin', 'HEAD');
    assert.deepEqual((await lane('nb-k-builder-i1')).git, { branch: 'nb/k', headSha: head, ahead: 0, dirty: false });
  });

  it('wait exits 2 for a lane idle 10 minutes without a report (test clock)', async () => {
    await startLane(w, {
      run: 'idle',
      key: 'k',
      role: 'builder',
      model: 'm',
      brief: writeBrief(w.briefs, 'say.md', [{ say: 'thinking about it' }]),
    });
    await eventually(async () => (await lane('idle-k-builder-i1')).activity === 'idle', 15_000, 'lane idle');
    // Just under the limit the lane is still waited for: a timeout, not silence.
    await advanceClock(s.svcHome, 10 * 60 * 1000 - 5_000);
    const under = await s.svc(['lane', 'wait', 'idle-k-builder-i1', '--timeout', '1']);
    assert.equal(under.code, 3, under.stderr);
    const waiting = s.svc(['lane', 'wait', 'idle-k-builder-i1', '--timeout', '60']);
    await new Promise((r) => setTimeout(r, 300));
    await advanceClock(s.svcHome, 6_000);
    const r = await waiting;
    assert.equal(r.code, 2);
    assert.equal(
      r.stderr,
      'idle-k-builder-i1 sat idle for 10 minutes without a report\nnext: svc lane wait idle-k-builder-i1 --after 0\n',
    );
  });

  it('launches a play lane in an empty directory without svc context or contract', async () => {
    // Written in its own directory (a sandboxed lane writes nowhere else), listed before anything is written there.
    const brief = writeBrief(w.briefs, 'play.md', [
      { run: 'l=$(ls -A); env > play-env.txt; printf %s "$l" > play-ls.txt' },
    ]);
    const r = await ok(tryStartLane(w, { run: 'pl', key: 'toy', role: 'play', model: 'm', brief }));
    assert.match(
      r.stdout,
      new RegExp(`^Lane pl/toy play i1: conv \\d+ \\(pl-toy-play-i1\\) in ${root}/pl-toy-play-i1\\n$`),
    );
    const dir = path.join(root, 'pl-toy-play-i1');
    await eventually(() => fs.existsSync(path.join(dir, 'play-ls.txt')), 15_000, 'play script ran');
    const env = fs.readFileSync(path.join(dir, 'play-env.txt'), 'utf8');
    assert.doesNotMatch(env, /^SVC_CONVERSATION=/m);
    assert.doesNotMatch(env, /^SVC_HOME=/m);
    assert.equal(fs.readFileSync(path.join(dir, 'play-ls.txt'), 'utf8'), '');
    const log = (await ok(s.svc(['conv', 'log', 'pl-toy-play-i1']))).stdout;
    assert.doesNotMatch(log, /svc lane contract/);
    const l = await lane('pl-toy-play-i1');
    assert.equal(l.gitBacked, false);
    assert.equal(l.git, null);
  });

  it('checks out verifiers and orchestrators detached at --at or the base ref, in their directories', async () => {
    const base = git(w.repo, s.env, 'rev-parse', 'origin/main');
    await startLane(w, {
      run: 'ver',
      key: 'chk',
      role: 'verifier',
      model: 'm',
      brief: writeBrief(w.briefs, 'v.md', [{ say: 'verifying' }]),
    });
    assert.equal(git(path.join(root, 'ver-chk-verify-i1'), s.env, 'rev-parse', 'HEAD'), base);
    assert.equal((await lane('ver-chk-verifier-i1')).judged, null);
    await startLane(w, {
      run: 'ver',
      key: 'lead',
      role: 'orchestrator',
      model: 'm',
      at: 'HEAD',
      brief: writeBrief(w.briefs, 'o.md', [{ say: 'leading' }]),
    });
    const orchDir = path.join(root, 'ver-lead-orch');
    assert.equal(git(orchDir, s.env, 'rev-parse', 'HEAD'), git(w.repo, s.env, 'rev-parse', 'HEAD'));
    assert.equal(git(orchDir, s.env, 'rev-parse', '--abbrev-ref', 'HEAD'), 'HEAD');
  });

  it("starts a critic at a commit its builder made and has not reported (--at), from the builder's own repository", async () => {
    await startLane(w, {
      run: 'at',
      key: 'web',
      role: 'builder',
      model: 'm',
      brief: writeBrief(w.briefs, 'at-b.md', [{ say: 'working' }]),
    });
    const builderDir = path.join(root, 'at-web');
    fs.writeFileSync(path.join(builderDir, 'page.html'), '<p>hello</p>\n');
    git(builderDir, s.env, 'add', '.');
    git(builderDir, s.env, 'commit', '-qm', 'page');
    const head = git(builderDir, s.env, 'rev-parse', 'HEAD');
    // Made in the builder's own repository: the person's does not have it yet.
    assert.equal(spawnSync('git', ['cat-file', '-e', head], { cwd: w.repo, env: s.env }).status, 1);
    const critic = await startLane(w, {
      run: 'at',
      key: 'web',
      role: 'critic',
      for: 'web',
      at: head,
      model: 'm',
      brief: writeBrief(w.briefs, 'at-c.md', [{ say: 'judging' }]),
    });
    assert.equal(git(critic.cwd, s.env, 'rev-parse', 'HEAD'), head);
    assert.deepEqual(critic.judged, { key: 'web', iteration: 1 });
  });

  it('respawns with --reuse in the same directory and iteration, and stops lanes', async () => {
    await startLane(w, {
      run: 'ru',
      key: 'k',
      role: 'builder',
      model: 'm',
      brief: writeBrief(w.briefs, 'ru.md', [{ say: 'working' }]),
    });
    const stop = await s.svc(['lane', 'stop', 'ru-k-builder-i1']);
    assert.equal(stop.code, 0, stop.stderr);
    assert.equal(stop.stdout, 'Lane ru-k-builder-i1 stopped\n');
    assert.equal((await lane('ru-k-builder-i1')).activity, 'stopped');
    const r = await ok(
      tryStartLane(w, {
        run: 'ru',
        key: 'k',
        role: 'builder',
        model: 'm',
        reuse: true,
        brief: writeBrief(w.briefs, 'ru2.md', [{ say: 'again' }]),
      }),
    );
    assert.match(r.stdout, new RegExp(`^Lane ru/k builder i1: conv \\d+ \\(ru-k-builder-i1-r1\\) in ${root}/ru-k\\n$`));
    const respawn = await lane('ru-k-builder-i1-r1');
    assert.equal(respawn.iteration, 1);
    assert.equal(respawn.respawn, 1);
    assert.equal(respawn.git?.branch, 'ru/k');
    // It starts no worktree of its own: its base is the one its directory was created from.
    const first = await lane('ru-k-builder-i1');
    assert.equal(first.baseSha, git(w.repo, s.env, 'rev-parse', 'origin/main'));
    assert.equal(respawn.baseSha, first.baseSha);
  });

  it('lists a lane whose git does not answer within 5 s as "git facts unavailable", and the other lanes with theirs', async () => {
    await startLane(w, {
      run: 'hang',
      key: 'k',
      role: 'builder',
      model: 'm',
      brief: writeBrief(w.briefs, 'hang.md', [{ exit: 0 }]),
    });
    await startLane(w, {
      run: 'hang',
      key: 'fine',
      role: 'builder',
      model: 'm',
      brief: writeBrief(w.briefs, 'fine.md', [{ exit: 0 }]),
    });
    const dir = path.join(root, 'hang-k');
    const id = (await lane('hang-k-builder-i1')).id;
    const index = path.join(git(dir, s.env, 'rev-parse', '--absolute-git-dir'), 'index');
    // An index that is a FIFO: git blocks opening it, as on a network filesystem that stopped answering.
    fs.rmSync(index);
    execFileSync('mkfifo', [index]);
    try {
      const t = Date.now();
      const list = await ok(s.svc(['lane', 'list', '--run', 'hang']));
      assert.ok(Date.now() - t < 15_000, `lane list answered after ${Date.now() - t} ms`);
      const [header, ...rows] = list.stdout.trimEnd().split('\n');
      const cells = (line: string) => line.split(/\s{2,}/);
      const col = (name: string) => cells(header).indexOf(name);
      const hung = cells(rows.find((r) => r.startsWith(`#${id} `))!);
      assert.deepEqual([hung[col('BRANCH@SHA')], hung[col('AHEAD')], hung[col('DIRTY')]], ['?', '?', '?']);
      const fine = cells(rows.find((r) => r.includes('hang/fine'))!);
      assert.match(fine[col('BRANCH@SHA')], /^hang\/fine@[0-9a-f]{7}$/);
      assert.equal(rows[rows.length - 1], `#${id}: git facts unavailable: git did not answer within 5 s`);
      const json = await lanes('hang');
      const record = json.find((l) => l.id === id)!;
      assert.equal(record.git, null);
      assert.equal(record.gitUnavailable, 'git did not answer within 5 s');
      assert.equal(json.find((l) => l.key === 'fine')!.gitUnavailable, null);
    } finally {
      // The filesystem answers again: the git still blocked on the index gets an answer (an
      // empty one, which it refuses) instead of hanging on after the test.
      answerReaders(index);
      fs.rmSync(index);
      git(dir, s.env, 'reset', '-q');
    }
    const back = await eventually(async () => (await lane('hang-k-builder-i1')).git, 10_000, 'the facts back');
    assert.equal(back.dirty, false);
  });

  it('keeps critics blind to the builder: no builder name, no report text', async () => {
    const secret = 'SECRET-BUILDER-REPORT-TEXT-42';
    await startLane(w, {
      run: 'bl',
      key: 'feat',
      role: 'builder',
      model: 'm',
      brief: writeBrief(w.briefs, 'bb.md', [{ run: buildAndReport('f.txt', 'x', secret), check: true }]),
    });
    assert.equal((await s.svc(['lane', 'wait', 'bl-feat-builder-i1', '--timeout', '60'])).code, 0);
    const criticBrief = writeBrief(w.briefs, 'bc.md', [{ run: 'env > critic-env.txt' }]);
    await startLane(w, { run: 'bl', for: 'feat', role: 'critic', model: 'm', brief: criticBrief });
    const criticEnv = path.join(root, 'bl-feat-critic-i1', 'critic-env.txt');
    await eventually(() => fs.existsSync(criticEnv), 15_000, 'critic ran');
    const received = [
      (await ok(s.svc(['conv', 'log', 'bl-feat-critic-i1']))).stdout,
      fs.readFileSync(path.join(s.svcHome, 'agents', 'conv-bl-feat-critic-i1', 'lane-brief.md'), 'utf8'),
      fs.readFileSync(criticEnv, 'utf8'),
    ].join('\n');
    assert.ok(!received.includes('bl-feat-builder-i1'), 'the critic never sees the builder conversation name');
    assert.ok(!received.includes(secret), 'the critic never sees builder report text');
    const head = git(path.join(root, 'bl-feat'), s.env, 'rev-parse', 'HEAD');
    assert.ok(received.includes(head), 'the critic is told the commit under judgement');
  });

  it('nests a successor orchestrator and lets it keep the run', async () => {
    await startLane(w, {
      run: 'sc',
      key: 'lead',
      role: 'orchestrator',
      model: 'm',
      brief: writeBrief(w.briefs, 'so.md', [{ say: 'leading' }]),
    });
    const orch = await lane('sc-lead-orchestrator-i1');
    const h = await ok(s.svc(['handoff', '--json'], { env: laneEnv(s, { id: orch.id }), cwd: orch.cwd }));
    const succ = JSON.parse(h.stdout) as { conversation?: { id: number }; id?: number };
    const succId = succ.conversation?.id ?? succ.id!;
    const r = await tryStartLane(
      s,
      { key: 'b', role: 'builder', model: 'm', harness: 'script', prompt: 'x' },
      {
        env: laneEnv(s, { id: succId }),
        cwd: orch.cwd,
      },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Lane sc\/b builder i1: /);
    const b = await lane('sc-b-builder-i1');
    assert.equal(b.parentId, succId);
    assert.deepEqual((await lanes('sc')).map((l) => l.name).sort(), ['sc-b-builder-i1', 'sc-lead-orchestrator-i1']);
  });

  it('derives Awareness cards per run with counts and the latest event', async () => {
    const { stdout } = await ok(s.svc(['lane', 'runs', '--json']));
    const cards = JSON.parse(stdout) as RunCard[];
    const ex = cards.find((c) => c.run === 'ex')!;
    assert.equal(ex.project, 'proj');
    assert.equal(ex.launcherId, w.rootId);
    assert.match(ex.countsLine, /^3 builders · /);
    const bl = cards.find((c) => c.run === 'bl')!;
    assert.equal(bl.countsLine.split(' · ')[0], '1 builder');
    assert.equal(bl.countsLine.split(' · ')[1], '1 critic');
    const ver = cards.find((c) => c.run === 'ver')!;
    assert.equal(ver.latest.kind, 'launch');
    assert.equal(ver.latest.text, 'ver/lead orchestrator i1 launched');
    assert.deepEqual(
      { kind: ex.latest.kind, text: ex.latest.text },
      { kind: 'report', text: 'ex/stuck builder i1 reported blocked' },
    );
  });

  it('applies sparse checkout patterns from the project gauntlet config', async () => {
    fs.mkdirSync(path.join(w.repo, 'docs'), { recursive: true });
    fs.writeFileSync(path.join(w.repo, 'docs', 'a.md'), 'a\n');
    fs.writeFileSync(path.join(w.repo, 'big.bin'), 'x\n');
    git(w.repo, s.env, 'add', '.');
    git(w.repo, s.env, 'commit', '-q', '-m', 'more files');
    git(w.repo, s.env, 'push', '-q', 'origin', 'HEAD:main');
    fs.appendFileSync(
      path.join(s.svcHome, 'projects.yaml'),
      '    gauntlet:\n      sparse_checkout:\n        - "/*"\n        - "!/big.bin"\n',
    );
    await startLane(w, { run: 'sp', key: 'k', role: 'builder', model: 'm', prompt: 'x' });
    const dir = path.join(root, 'sp-k');
    assert.ok(fs.existsSync(path.join(dir, 'README.md')));
    assert.ok(fs.existsSync(path.join(dir, 'docs', 'a.md')));
    assert.ok(!fs.existsSync(path.join(dir, 'big.bin')), 'excluded by the sparse pattern');
    assert.equal((await lane('sp-k-builder-i1')).git?.dirty, false);
  });
});

/** Opens a FIFO for writing and closes it, so every reader blocked on it reads an end of file. */
function answerReaders(fifo: string): void {
  try {
    fs.closeSync(fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK));
  } catch (e) {
    // ENXIO: nobody is reading it (the daemon gave up on its git already).
    if ((e as NodeJS.ErrnoException).code !== 'ENXIO') throw e;
  }
}
