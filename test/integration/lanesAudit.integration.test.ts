// Spec rules of the lanes half that no other suite asserted to the letter (audit, session 7):
// the key limits at their edges, effort, failed reports, verifiers' verdict rules, the
// builder done rule's two halves, who may launch (play lanes, successors of a builder),
// the --parent filters, and one lane over HTTP by id and by name.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LaneRecord } from '../../shared/protocol/lanes';
import { laneStartArgs, laneWorld, ok, startLane, tryStartLane } from '../helpers/lanes';
import type { LaneStartOptions, LaneWorld } from '../helpers/lanes';
import { git, makeRepo, makeScratch } from '../helpers/scratch';
import type { RunResult, Scratch } from '../helpers/scratch';
import { writeBrief } from '../helpers/scriptBrief';
import { laneEnv } from '../helpers/laneEnv';
import { advanceClock } from '../helpers/rpc';

function refusedWith(r: RunResult, message: string | RegExp): void {
  assert.equal(r.code, 1, `expected exit 1, got ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  if (typeof message === 'string') assert.equal(r.stderr, message + '\n');
  else assert.match(r.stderr, message);
}

describe('lanes: spec audit', function () {
  this.timeout(120_000);
  let s: Scratch;
  let w: LaneWorld;
  let root: string;
  let idle: string;

  before(async () => {
    s = makeScratch('lanes-audit');
    w = await laneWorld(s);
    root = `${fs.realpathSync(s.home)}/proj-lanes`;
    idle = writeBrief(w.briefs, 'idle.md', [{ say: 'ready' }]);
  });
  after(async () => s.dispose());

  const lanes = async (args: string[] = []): Promise<LaneRecord[]> =>
    JSON.parse((await ok(s.svc(['lane', 'list', ...args, '--json']))).stdout) as LaneRecord[];
  const lane = async (name: string) => (await lanes()).find((l) => l.name === name)!;
  const asLane = (l: LaneRecord, args: string[], input?: string) =>
    s.svc(args, { env: laneEnv(s, { id: l.id }), cwd: l.cwd, input });

  it('accepts a run key of 32 and a lane key of 40 characters (., _ and - inside), and effort low, medium or high', async () => {
    const run = 'r' + '0123456789-'.repeat(3).slice(0, 31);
    const key = 'k' + 'a.b_c-'.repeat(7).slice(0, 39);
    assert.equal(run.length, 32);
    assert.equal(key.length, 40);
    const r = await ok(tryStartLane(w, { run, key, role: 'builder', model: 'm', effort: 'high', brief: idle }));
    const name = `${run}-${key}-builder-i1`;
    assert.equal(
      r.stdout,
      `Lane ${run}/${key} builder i1: conv ${(await lane(name)).id} (${name}) in ${root}/${run}-${key}\n`,
    );
    const l = await lane(name);
    assert.equal(l.effort, 'high');
    assert.equal(l.git?.branch, `${run}/${key}`);
    // The longest role, too: its name is 89 characters.
    const o = await ok(tryStartLane(w, { run, key, role: 'orchestrator', model: 'm', prompt: 'p', noWait: true }));
    const orch = `${run}-${key}-orchestrator-i1`;
    assert.equal(
      o.stdout,
      `Lane ${run}/${key} orchestrator i1: conv ${(await lane(orch)).id} (${orch}) in ${root}/${run}-${key}-orch\n`,
    );
    for (const effort of ['low', 'medium'])
      await startLane(w, { run: 'eff', key: effort, role: 'play', model: 'm', effort, prompt: 'p' });
    assert.deepEqual(
      (await lanes(['--run', 'eff'])).map((x) => x.effort),
      ['low', 'medium'],
    );
    refusedWith(
      await tryStartLane(w, { run: 'eff', key: 'x', role: 'play', model: 'm', effort: 'max', prompt: 'p' }),
      /effort/,
    );
    refusedWith(await tryStartLane(w, { run: 'eff', key: 'x', role: 'wizard', model: 'm', prompt: 'p' }), /role/);
  });

  it('a failed report exits 4 from report and from wait, which prints its body', async () => {
    await startLane(w, { run: 'fail', key: 'k', role: 'builder', model: 'm', brief: idle });
    const b = await lane('fail-k-builder-i1');
    const filed = await asLane(
      b,
      ['lane', 'report', '--stdin', '--status', 'failed'],
      'cannot be done: the API is gone\n',
    );
    assert.equal(filed.code, 4, filed.stderr);
    assert.equal(filed.stdout, 'Report 1 filed for fail-k-builder-i1: failed\n');
    const waited = await s.svc(['lane', 'wait', 'fail-k-builder-i1', '--timeout', '10']);
    assert.equal(waited.code, 4);
    assert.equal(waited.stdout, 'cannot be done: the API is gone\n');
    assert.equal(waited.stderr, 'fail-k-builder-i1 reported failed\nnext: svc lane wait fail-k-builder-i1 --after 1\n');
    refusedWith(await asLane(b, ['lane', 'report', '--stdin', '--status', 'finished'], 'x'), /--status/);
    refusedWith(
      await asLane(b, ['lane', 'report', '--stdin', '--file', path.join(w.briefs, 'idle.md')], 'x'),
      /exactly one of --file <path> or --stdin/,
    );
  });

  it('a builder reports done only from a clean tree whose upstream holds every commit; --allow-unpushed never waives the clean tree', async () => {
    await startLane(w, { run: 'bd', key: 'k', role: 'builder', model: 'm', brief: idle });
    const b = await lane('bd-k-builder-i1');
    fs.writeFileSync(path.join(b.cwd, 'a.txt'), 'a\n');
    git(b.cwd, s.env, 'add', 'a.txt');
    git(b.cwd, s.env, 'commit', '-q', '-m', 'a');
    git(b.cwd, s.env, 'push', '-q', '-u', 'origin', 'HEAD');
    fs.writeFileSync(path.join(b.cwd, 'b.txt'), 'b\n');
    const dirty = `the working tree of ${b.cwd} has uncommitted changes; commit them (or discard them) and report again`;
    refusedWith(await asLane(b, ['lane', 'report', '--stdin', '--allow-unpushed'], 'done'), dirty);
    git(b.cwd, s.env, 'add', 'b.txt');
    refusedWith(await asLane(b, ['lane', 'report', '--stdin', '--allow-unpushed'], 'done'), dirty);
    git(b.cwd, s.env, 'commit', '-q', '-m', 'b');
    refusedWith(
      await asLane(b, ['lane', 'report', '--stdin'], 'done'),
      'branch bd/k has 1 commit(s) that origin/bd/k lacks; push them (git push) or pass --allow-unpushed',
    );
    git(b.cwd, s.env, 'push', '-q');
    assert.equal((await asLane(b, ['lane', 'report', '--stdin'], 'done')).code, 0);
    // The report records the head SHA and branch of a git-backed lane.
    const report = (await lane(b.name)).report!;
    assert.deepEqual(
      [report.status, report.headSha, report.branch],
      ['done', git(b.cwd, s.env, 'rev-parse', 'HEAD'), 'bd/k'],
    );
  });

  it('a verifier judges a builder with --for (key defaulting to it), files one verdict, and refuses svc tell after it', async () => {
    await startLane(w, { run: 'vf', key: 'feat', role: 'builder', model: 'm', brief: idle });
    refusedWith(
      await tryStartLane(w, { run: 'vf', key: 'other', for: 'feat', role: 'verifier', model: 'm', prompt: 'p' }),
      '--key other differs from --for feat; a verifier takes the key of the builder it judges',
    );
    refusedWith(
      await tryStartLane(w, { run: 'vf', for: 'nobody', role: 'verifier', model: 'm', prompt: 'p' }),
      '--for nobody: run vf has no builder with that key',
    );
    const at = git(w.repo, s.env, 'rev-parse', 'origin/main');
    const r = await ok(tryStartLane(w, { run: 'vf', for: 'feat', role: 'verifier', model: 'm', at, brief: idle }));
    assert.match(
      r.stdout,
      new RegExp(`^Lane vf/feat verifier i1: conv \\d+ \\(vf-feat-verifier-i1\\) in ${root}/vf-feat-verify-i1\\n$`),
    );
    const v = await lane('vf-feat-verifier-i1');
    assert.deepEqual(v.judged, { key: 'feat', iteration: 1 });
    refusedWith(
      await asLane(v, ['lane', 'report', '--stdin'], 'fine'),
      "a verifier's done report needs --verdict <WOWED|IMPRESSED|NOT_YET|PASS|DEFECTS>",
    );
    refusedWith(
      await asLane(v, ['lane', 'report', '--stdin', '--status', 'failed', '--verdict', 'PASS'], 'x'),
      '--verdict goes with a done report, not a failed one',
    );
    refusedWith(await asLane(v, ['lane', 'report', '--stdin', '--verdict', 'GREAT'], 'x'), /verdict/);
    const filed = await asLane(
      v,
      ['lane', 'report', '--stdin', '--verdict', 'DEFECTS', '--defects', '2'],
      'two defects',
    );
    assert.equal(filed.code, 0, filed.stderr);
    assert.equal(filed.stdout, 'Report 1 filed for vf-feat-verifier-i1: done · verdict DEFECTS (2 defects)\n');
    const report = (await lane(v.name)).report!;
    assert.deepEqual(
      [report.verdict, report.defects, report.headSha, report.branch],
      ['DEFECTS', 2, at, null],
      'a detached lane records its head and no branch',
    );
    refusedWith(
      await asLane(v, ['lane', 'report', '--stdin', '--verdict', 'PASS'], 'again'),
      'this verifier already filed its done report; a verifier files exactly one verdict',
    );
    refusedWith(
      await s.svc(['tell', 'conv-vf-feat-verifier-i1', 'more']),
      'verifier vf-feat-verifier-i1 already filed its done report; svc tell --force to message it anyway',
    );
    assert.equal((await s.svc(['tell', '--force', 'conv-vf-feat-verifier-i1', 'more'])).code, 0);
    const b = (await lanes(['--run', 'vf'])).find((l) => l.role === 'builder')!;
    assert.equal(b.verdict?.verdict, 'DEFECTS');
    assert.equal(b.verdict?.defects, 2);
    // `svc lane show` of any lane of the chain prints what --run and --key print.
    const show = (await ok(s.svc(['lane', 'show', '--run', 'vf', '--key', 'feat']))).stdout;
    for (const ref of [v.name, `conv-${b.name}`, String(v.id)])
      assert.equal((await ok(s.svc(['lane', 'show', ref]))).stdout, show, ref);
    const lines = show.trimEnd().split('\n');
    assert.match(lines[0], /^i1 (idle|working) → verifier v1: DEFECTS \(2 defects\)$/);
    const sandboxed = '    sandbox workspace: writes only its own worktree';
    assert.deepEqual(lines.slice(1), [
      `#${b.id} builder i1 ${(await lane(b.name)).activity} - -`,
      sandboxed,
      `    base ${b.baseSha}`,
      `#${v.id} verifier i1 ${(await lane(v.name)).activity} DEFECTS -`,
      sandboxed,
    ]);
  });

  it('keeps a critic blind: a brief naming a builder conversation of the key or quoting its report is refused', async () => {
    await startLane(w, { run: 'bl', key: 'k', role: 'builder', model: 'm', brief: idle });
    const b = await lane('bl-k-builder-i1');
    const body = 'Implemented the login flow with refresh tokens.';
    assert.equal((await asLane(b, ['lane', 'report', '--stdin', '--allow-unpushed'], `${body}\n`)).code, 0);
    const critic = (brief: string) =>
      tryStartLane(w, { run: 'bl', for: 'k', role: 'critic', model: 'm', prompt: brief });
    refusedWith(
      await critic('Judge the work of conv-bl-k-builder-i1 against the brief.'),
      "a critic's brief must not name the builder conversation bl-k-builder-i1: a critic is blind to the builder and judges the commit alone; take the name out of the brief",
    );
    refusedWith(
      await critic(`The builder said: ${body} Check it.`),
      "a critic's brief must not quote a builder's report (report 1 of bl-k-builder-i1): a critic is blind to the builder and judges the commit alone; take the report text out of the brief",
    );
    assert.deepEqual(await lanes(['--run', 'bl']).then((l) => l.map((x) => x.name)), ['bl-k-builder-i1']);
    // The standard to judge by (the builder's brief, what good means) is the critic's brief.
    await ok(critic('Judge the login flow: tokens must refresh before expiry.'));
  });

  it('play lanes and successors of a builder lane launch nothing', async () => {
    await startLane(w, { run: 'who', key: 'toy', role: 'play', model: 'm', brief: idle });
    const play = await lane('who-toy-play-i1');
    refusedWith(
      await asLane(
        play,
        laneStartArgs({ run: 'who', key: 'x', role: 'builder', model: 'm', harness: 'script', prompt: 'p' }),
      ),
      /^a play lane may not launch a builder lane; /,
    );
    await startLane(w, { run: 'who', key: 'b', role: 'builder', model: 'm', brief: idle });
    const b = await lane('who-b-builder-i1');
    const h = await ok(s.svc(['handoff', '--json'], { env: laneEnv(s, { id: b.id }), cwd: b.cwd }));
    const successor = (JSON.parse(h.stdout) as { conversation: { id: number; parentId: number } }).conversation;
    assert.equal(successor.parentId, b.id);
    const r = await tryStartLane(
      s,
      { run: 'who', key: 'y', role: 'verifier', model: 'm', harness: 'script', prompt: 'p' },
      {
        env: laneEnv(s, successor),
        cwd: b.cwd,
      },
    );
    refusedWith(r, /^a builder lane may not launch a verifier lane; /);
  });

  it('filters lists and waits by --parent, and answers one lane over HTTP by id, name or conv-<name>', async () => {
    const c = await ok(
      s.svc([
        'conv',
        'new',
        '--project',
        'proj',
        '--harness',
        'script',
        '--model',
        'm',
        '--prompt',
        'Another root.',
        '--json',
      ]),
    );
    const other = (JSON.parse(c.stdout) as { conversation: { id: number } }).conversation.id;
    const report = writeBrief(w.briefs, 'report.md', [
      { run: "printf 'PASSED\\n' | svc lane report --stdin --status failed" },
    ]);
    await startLane(s, {
      parent: other,
      harness: 'script',
      run: 'par',
      key: 'p',
      role: 'builder',
      model: 'm',
      brief: report,
    });
    assert.deepEqual(
      (await lanes(['--parent', String(other)])).map((l) => l.name),
      ['par-p-builder-i1'],
    );
    const waited = await s.svc(['lane', 'wait', '--parent', String(other), '--timeout', '60']);
    assert.equal(waited.code, 4, waited.stderr);
    assert.equal(waited.stdout, 'PASSED\n');
    assert.match(
      waited.stderr,
      new RegExp(
        `^par-p-builder-i1 reported failed\\nnext: svc lane wait --parent ${other} --after \\d+\\.par-p-builder-i1\\.1\\n$`,
      ),
    );

    const d = JSON.parse(fs.readFileSync(path.join(s.svcHome, 'server.json'), 'utf8')) as {
      httpPort: number;
      token: string;
    };
    const get = async (p: string) => {
      const res = await fetch(`http://127.0.0.1:${d.httpPort}${p}`, {
        headers: { Authorization: `Bearer ${d.token}` },
      });
      return { status: res.status, body: (await res.json()) as LaneRecord };
    };
    const l = await lane('par-p-builder-i1');
    for (const ref of [String(l.id), l.name, `conv-${l.name}`]) {
      const one = await get(`/api/lanes/${encodeURIComponent(ref)}`);
      assert.equal(one.status, 200, ref);
      assert.equal(one.body.name, l.name);
      assert.equal(one.body.activity, l.activity === 'working' ? one.body.activity : l.activity);
    }
    assert.equal((await get(`/api/lanes/${other}`)).status, 404);
  });

  it('fetches the base ref before each git-backed launch, and --from overrides the frozen branch a new iteration starts from', async () => {
    const other = path.join(s.home, 'other-clone');
    git(s.home, s.env, 'clone', '-q', w.origin, other);
    fs.writeFileSync(path.join(other, 'moved.txt'), 'origin moved\n');
    git(other, s.env, 'add', '.');
    git(other, s.env, 'commit', '-q', '-m', 'moved');
    git(other, s.env, 'push', '-q', 'origin', 'HEAD:main');
    const moved = git(other, s.env, 'rev-parse', 'HEAD');
    assert.notEqual(git(w.repo, s.env, 'rev-parse', 'origin/main'), moved, 'the checkout has not fetched');
    await startLane(w, { run: 'fr', key: 'k', role: 'builder', model: 'm', brief: idle });
    const b1 = await lane('fr-k-builder-i1');
    assert.equal(git(b1.cwd, s.env, 'rev-parse', 'HEAD'), moved);
    fs.writeFileSync(path.join(b1.cwd, 'i1.txt'), 'i1\n');
    git(b1.cwd, s.env, 'add', '.');
    git(b1.cwd, s.env, 'commit', '-q', '-m', 'i1');
    git(b1.cwd, s.env, 'push', '-q', '-u', 'origin', 'HEAD');
    assert.equal((await asLane(b1, ['lane', 'report', '--stdin'], 'done')).code, 0);
    await ok(s.svc(['lane', 'stop', b1.name]));
    const b2 = await ok(
      tryStartLane(w, { run: 'fr', key: 'k', role: 'builder', model: 'm', brief: idle, from: 'origin/main' }),
    );
    assert.match(
      b2.stdout,
      new RegExp(`^Lane fr/k builder i2: conv \\d+ \\(fr-k-builder-i2\\) in ${root}/fr-k-i2\\n$`),
    );
    const l2 = await lane('fr-k-builder-i2');
    assert.equal(l2.git?.branch, 'fr/k-i2');
    assert.equal(git(l2.cwd, s.env, 'rev-parse', 'HEAD'), moved, '--from wins over the previous iteration');
  });

  it('an orchestrator lane launches verifiers and play lanes into its own run, and refuses another --run', async () => {
    await startLane(w, { run: 'orun', key: 'lead', role: 'orchestrator', model: 'm', brief: idle });
    const o = await lane('orun-lead-orchestrator-i1');
    const as = (flags: LaneStartOptions) =>
      asLane(o, laneStartArgs({ model: 'm', harness: 'script', prompt: 'p', ...flags }));
    assert.match(
      (await ok(as({ key: 'v', role: 'verifier' }))).stdout,
      new RegExp(`^Lane orun/v verifier i1: conv \\d+ \\(orun-v-verifier-i1\\) in ${root}/orun-v-verify-i1\\n$`),
    );
    assert.match((await ok(as({ key: 'toy', role: 'play', run: 'orun' }))).stdout, /^Lane orun\/toy play i1: /);
    refusedWith(
      await as({ key: 'b', role: 'builder', run: 'elsewhere' }),
      "an orchestrator lane's lanes join its run 'orun'; drop --run elsewhere",
    );
    // A --prompt is the brief: written once to lane-brief.md like a --brief file.
    assert.equal(
      fs.readFileSync(path.join(s.svcHome, 'agents', 'conv-orun-v-verifier-i1', 'lane-brief.md'), 'utf8'),
      'p',
    );
    assert.deepEqual(
      (await lanes(['--parent', String(o.id)])).map((l) => l.name),
      ['orun-v-verifier-i1', 'orun-toy-play-i1'],
    );
  });

  it('unknown lanes and malformed waits exit 1; --reuse with nothing earlier, an agent naming another --parent and an ignored start point are refused', async () => {
    refusedWith(
      await tryStartLane(w, { run: 'none', key: 'k', role: 'builder', model: 'm', prompt: 'p', reuse: true }),
      '--reuse: there is no earlier builder lane none/k to reuse',
    );
    const c = await ok(
      s.svc([
        'conv',
        'new',
        '--project',
        'proj',
        '--harness',
        'script',
        '--model',
        'm',
        '--prompt',
        'A third root.',
        '--json',
      ]),
    );
    const other = (JSON.parse(c.stdout) as { conversation: { id: number } }).conversation.id;
    const asRoot = { env: laneEnv(s, { id: w.rootId }) };
    refusedWith(
      await tryStartLane(
        s,
        { parent: other, run: 'none', key: 'k', role: 'play', model: 'm', harness: 'script', prompt: 'p' },
        asRoot,
      ),
      `--parent ${other} is not this conversation (#${w.rootId}); an agent launches lanes as itself`,
    );
    for (const args of [
      ['stop', 'nope'],
      ['reap', 'nope'],
      ['show', 'nope'],
      ['wait', 'nope', '--timeout', '1'],
    ]) {
      const r = await s.svc(['lane', ...args]);
      assert.equal(r.code, 1, `svc lane ${args.join(' ')}: ${r.stderr}`);
      assert.notEqual(r.stderr, '');
    }
    refusedWith(
      await s.svc(['lane', 'wait', 'nope', '--run', 'x', '--timeout', '1']),
      'wait needs exactly one of <lane>, --run <key> or --parent <conv>',
    );
    refusedWith(
      await s.svc(['lane', 'wait', '--run', 'x', '--after', '12', '--timeout', '1']),
      "cursor '12' is not of the form <atMs>.<name>.<seq>",
    );
    refusedWith(await s.svc(['lane', 'show', '--run', 'x']), 'name a lane, or pass --run <key> and --key <key>');
    // A start point that would be ignored is refused: the lane would start somewhere not asked for.
    const sp = (role: string, flags: LaneStartOptions) =>
      tryStartLane(w, { run: 'sp', key: 'k', role, model: 'm', prompt: 'p', ...flags });
    refusedWith(
      await sp('builder', { at: 'HEAD' }),
      '--at is for critic, verifier and orchestrator lanes; a builder starts from --from <ref>',
    );
    refusedWith(
      await sp('play', { at: 'HEAD' }),
      '--at is for critic, verifier and orchestrator lanes; a play lane starts in an empty directory',
    );
    refusedWith(
      await sp('verifier', { from: 'HEAD' }),
      '--from is for builder lanes; a verifier is checked out at --at <ref>',
    );
    refusedWith(
      await sp('orchestrator', { from: 'HEAD' }),
      '--from is for builder lanes; an orchestrator is checked out at --at <ref>',
    );
    refusedWith(
      await sp('builder', { reuse: true, from: 'HEAD', branch: 'x/y' }),
      "--reuse keeps the earlier lane's directory and checkout; drop --from and --branch",
    );
    assert.deepEqual(await lanes(['--run', 'sp']), []);
  });

  it("refuses a run and key that join like another lane's (a-b/c and a/b-c), creating nothing", async () => {
    await startLane(w, { run: 'cl-a', key: 'b', role: 'play', model: 'm', prompt: 'p' });
    const first = await lane('cl-a-b-play-i1');
    const before = fs.readdirSync(root).sort();
    refusedWith(
      await tryStartLane(w, { run: 'cl', key: 'a-b', role: 'play', model: 'm', prompt: 'p' }),
      `run cl and key a-b give the lane directory ${root}/cl-a-b-play-i1, which lane cl-a/b play i1 (#${first.id} cl-a-b-play-i1) already has: lane names and directories join run and key with -; choose another --key`,
    );
    assert.deepEqual(fs.readdirSync(root).sort(), before);
    assert.deepEqual(await lanes(['--run', 'cl']), []);
    // Another role of the same join has a directory and a name of its own.
    await startLane(w, { run: 'cl', key: 'a-b', role: 'verifier', model: 'm', prompt: 'p' });
    // Another role's directory (orchestrator k: cl-k-orch) is in the way of builder k-orch only while it exists.
    await startLane(w, { run: 'cl', key: 'k', role: 'orchestrator', model: 'm', prompt: 'p' });
    const orch = await lane('cl-k-orchestrator-i1');
    refusedWith(
      await tryStartLane(w, { run: 'cl', key: 'k-orch', role: 'builder', model: 'm', prompt: 'p' }),
      new RegExp(
        `^run cl and key k-orch give the lane directory ${root}/cl-k-orch, which lane cl/k orchestrator i1 \\(#${orch.id} `,
      ),
    );
    await ok(s.svc(['lane', 'reap', orch.name]));
    assert.match(
      (await ok(tryStartLane(w, { run: 'cl', key: 'k-orch', role: 'builder', model: 'm', prompt: 'p' }))).stdout,
      new RegExp(`^Lane cl/k-orch builder i1: conv \\d+ \\(cl-k-orch-builder-i1\\) in ${root}/cl-k-orch\\n$`),
    );
  });

  it('a reaped lane stays in GET /api/lanes as stopped, without git facts; --keep leaves it in the Command Deck', async () => {
    const d = JSON.parse(fs.readFileSync(path.join(s.svcHome, 'server.json'), 'utf8')) as {
      httpPort: number;
      token: string;
    };
    const api = async (p: string) => {
      const res = await fetch(`http://127.0.0.1:${d.httpPort}${p}`, {
        headers: { Authorization: `Bearer ${d.token}` },
      });
      assert.equal(res.status, 200);
      return ((await res.json()) as { lanes: LaneRecord[] }).lanes;
    };
    for (const key of ['gone', 'kept'])
      await startLane(w, { run: 'rp', key, role: 'verifier', model: 'm', brief: idle });
    const gone = await lane('rp-gone-verifier-i1');
    assert.notEqual(gone.git, null, 'a live git-backed lane has git facts');
    assert.equal(
      (await ok(s.svc(['lane', 'reap', gone.name]))).stdout.split('\n')[0],
      `reaped conv ${gone.id} (${gone.name})`,
    );
    await ok(s.svc(['lane', 'reap', 'rp-kept-verifier-i1', '--keep']));
    const listed = await api('/api/lanes?run=rp');
    assert.deepEqual(
      listed.map((l) => [l.name, l.activity, l.archived, l.git]),
      [
        ['rp-gone-verifier-i1', 'stopped', true, null],
        ['rp-kept-verifier-i1', 'stopped', false, null],
      ],
    );
    const deck = (await ok(s.svc(['conv', 'list']))).stdout;
    assert.ok(!deck.includes('rp-gone-verifier-i1'));
    assert.ok(deck.includes('rp-kept-verifier-i1'));
  });

  it("uses the project's gauntlet.lanes_root, and refuses one outside home, under /tmp or holding the checkout, creating nothing", async () => {
    const { dir } = makeRepo(s, 'p2');
    await ok(s.svc(['project', 'add', 'p2', dir]));
    const file = path.join(s.svcHome, 'projects.yaml');
    const before = fs.readFileSync(file, 'utf8');
    const withRoot = (root: string) => fs.writeFileSync(file, `${before}    gauntlet:\n      lanes_root: ${root}\n`);
    const launch = (key: string) =>
      tryStartLane(w, { project: 'p2', run: 'lr', key, role: 'verifier', model: 'm', prompt: 'p' });
    const home = fs.realpathSync(s.home);
    withRoot('~/elsewhere/lanes');
    assert.match(
      (await ok(launch('a'))).stdout,
      new RegExp(
        `^Lane lr/a verifier i1: conv \\d+ \\(lr-a-verifier-i1\\) in ${home}/elsewhere/lanes/lr-a-verify-i1\\n$`,
      ),
    );
    withRoot('/tmp');
    refusedWith(
      await launch('b'),
      `lanes root /tmp is not under your home ${home}; set gauntlet.lanes_root in projects.yaml to a folder under it`,
    );
    withRoot(home);
    refusedWith(
      await launch('c'),
      `lanes root ${home} contains the project checkout ${dir}; choose a folder beside it (default: ${dir}-lanes)`,
    );
    withRoot(path.dirname(home));
    refusedWith(
      await launch('d'),
      `lanes root ${path.dirname(home)} contains the project checkout ${dir}; choose a folder beside it (default: ${dir}-lanes)`,
    );
    assert.deepEqual(
      (await lanes(['--run', 'lr'])).map((l) => l.name),
      ['lr-a-verifier-i1'],
    );
    fs.writeFileSync(file, before);
  });

  // Last: it moves the daemon's clock.
  it('a lane that fails to start reads failed-to-start; one that never comes alive is live while starting, for 3 minutes', async () => {
    const missing = path.join(s.home, 'no-such-agent');
    fs.appendFileSync(
      path.join(s.svcHome, 'config.yaml'),
      [
        'harnesses:',
        '  missing:',
        `    command: ${missing}`,
        '  hangs:',
        '    command: sleep',
        '    args: ["600"]',
        '',
      ].join('\n'),
    );
    const launch = (key: string, harness: string, extra: LaneStartOptions = {}) =>
      tryStartLane(w, { harness, run: 'fs', key, role: 'builder', model: 'm', prompt: 'p', ...extra });
    const f = await launch('f', 'missing');
    assert.equal(f.code, 1);
    assert.match(f.stdout, new RegExp(`^Lane fs/f builder i1: conv \\d+ \\(fs-f-builder-i1\\) in ${root}/fs-f\\n$`));
    assert.match(f.stderr, /^lane fs-f-builder-i1 failed to start: harness 'missing': /);
    assert.equal((await lane('fs-f-builder-i1')).activity, 'failed-to-start');
    assert.match(
      (await ok(s.svc(['lane', 'list', '--run', 'fs']))).stdout,
      /\n#\d+\s+fs\/f\s+builder\s+i1\s+failed-to-start\s+-/,
    );
    const waited = await s.svc(['lane', 'wait', 'fs-f-builder-i1', '--timeout', '10']);
    assert.equal(waited.code, 2);
    assert.equal(
      waited.stderr,
      'fs-f-builder-i1 exited without a report\nnext: svc lane wait fs-f-builder-i1 --after 0\n',
    );
    const card = () =>
      ok(s.svc(['lane', 'runs', '--json'])).then((r) =>
        (JSON.parse(r.stdout) as { run: string; latest: { text: string } }[]).find((c) => c.run === 'fs')!,
      );
    assert.equal((await card()).latest.text, 'fs/f builder i1 failed to start');

    await ok(launch('h', 'hangs', { noWait: true }));
    assert.equal((await lane('fs-h-builder-i1')).activity, 'starting');
    refusedWith(
      await launch('h', 'hangs', { noWait: true }),
      /^lane fs\/h builder is already live: #\d+ \(fs-h-builder-i1\) is starting; /,
    );
    await advanceClock(s.svcHome, 3 * 60 * 1000 - 5_000);
    assert.equal((await lane('fs-h-builder-i1')).activity, 'starting');
    await advanceClock(s.svcHome, 6_000);
    assert.equal((await lane('fs-h-builder-i1')).activity, 'stopped');
    assert.match((await ok(launch('h', 'hangs', { noWait: true }))).stdout, /^Lane fs\/h builder i2: /);
  });
});
