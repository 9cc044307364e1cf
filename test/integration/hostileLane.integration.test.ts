// A hostile lane against everything but git (issue 41): the daemon as its deputy (paths it
// names, files it leaves where svc reads), launches giving more than it has, capabilities
// as root, sockets of a long home, escape sequences for the person's terminal. Each case
// checks what the person and the daemon see afterwards. Cases that need a sandboxed lane
// say why they do not run where bubblewrap cannot.
import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LaneRecord } from '../../shared/protocol/lanes';
import { lanesStart } from '../../shared/protocol/lanes';
import type { RunRecord } from '../../shared/protocol/runRecord';
import { withCallerEnvelope } from '../../shared/client/callerEnvelope';
import { buildAndReport, laneStartArgs, laneWorld, ok, startLane } from '../helpers/lanes';
import type { LaneWorld } from '../helpers/lanes';
import { laneEnv } from '../helpers/laneEnv';
import { rpcRequest } from '../helpers/rpc';
import { eventually, git, makeScratch } from '../helpers/scratch';
import type { RunResult, Scratch } from '../helpers/scratch';
import { writeBrief } from '../helpers/scriptBrief';

/** Whether bubblewrap can build a sandbox here (installed, user namespaces or root). */
function bwrapWorks(): boolean {
  return spawnSync('bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', 'true']).status === 0;
}

function sandboxOrSkip(ctx: Mocha.Context): void {
  if (bwrapWorks()) return;
  console.log('      (not run: bubblewrap cannot start a sandbox here; the sandbox tests need it)');
  ctx.skip();
}

function refusedWith(r: RunResult, message: string): void {
  assert.equal(r.code, 1, `expected exit 1, got ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  assert.equal(r.stderr, message + '\n');
}

describe('hostile lane: the daemon is no deputy, launches give no more than the launcher has', function () {
  this.timeout(180_000);
  let s: Scratch;
  let w: LaneWorld;
  let orch: LaneRecord;

  before(async () => {
    s = makeScratch('hostile-lane');
    w = await laneWorld(s);
    const idle = writeBrief(w.briefs, 'idle.md', [{ say: 'ready' }]);
    orch = await startLane(w, { run: 'h', key: 'o', role: 'orchestrator', model: 'm', brief: idle, sandbox: 'off' });
  });
  after(async () => s.dispose());

  const lane = async (name: string): Promise<LaneRecord> => {
    const lanes = JSON.parse((await ok(s.svc(['lane', 'list', '--run', 'h', '--json']))).stdout) as LaneRecord[];
    return lanes.find((l) => l.name === name)!;
  };
  const asLane = (l: LaneRecord, args: string[], input?: string) =>
    s.svc(args, { env: laneEnv(s, { id: l.id }), cwd: l.cwd, input });
  /** A raw lanes/start as the lane, as a hostile agent would send it past svc's CLI. */
  const rawStart = (l: LaneRecord, brief: string): Promise<string> =>
    rpcRequest(
      s.svcHome,
      lanesStart,
      withCallerEnvelope(
        { caller: String(l.id), key: 'deputy', role: 'builder', model: 'm', brief },
        laneEnv(s, l),
      ) as never,
    ).then(
      () => 'launched',
      (e: Error) => e.message,
    );

  it('reads no brief for an agent outside its own folders, and says the same whether or not it exists', async () => {
    const key = path.join(s.svcHome, 'caller.key');
    assert.ok(fs.existsSync(key));
    fs.symlinkSync(key, path.join(orch.cwd, 'key.md'));
    const outside = (f: string) =>
      `brief ${f} is not inside the launching agent's own folders; svc reads for an agent only what it could write itself`;
    for (const f of [key, path.join(s.svcHome, 'no-such-file'), path.join(orch.cwd, 'key.md')])
      assert.equal(await rawStart(orch, f), outside(f));
    const fifo = path.join(orch.cwd, 'brief.fifo');
    execFileSync('mkfifo', [fifo]);
    assert.equal(
      await rawStart(orch, fifo),
      `brief ${fifo} is not a regular file (a link, folder, FIFO or device is never read)`,
    );
    assert.equal((await lane('h-deputy-builder-i1')) ?? null, null, 'nothing was launched');
    assert.equal((await ok(s.svc(['daemon', 'status']))).code, 0);
  });

  it('takes a critic’s verdict file only from its own folders, and a FIFO left there never blocks the export', async () => {
    const b = writeBrief(w.briefs, 'b.md', [{ run: buildAndReport('v.txt', 'work'), check: true }]);
    const builder = await startLane(w, { run: 'h', key: 'vb', role: 'builder', model: 'm', brief: b, sandbox: 'off' });
    await ok(s.svc(['lane', 'wait', builder.name, '--timeout', '60']));
    const idle = writeBrief(w.briefs, 'cidle.md', [{ say: 'judging' }]);
    const critic = await startLane(w, { run: 'h', for: 'vb', role: 'critic', model: 'm', brief: idle, sandbox: 'off' });
    const own = git(critic.cwd, s.env, 'rev-parse', '--absolute-git-dir');
    const report = (file: string) =>
      asLane(critic, ['lane', 'report', '--stdin', '--verdict', 'PASS', '--verdict-file', file], 'judged\n');
    const outside = (f: string) =>
      `verdict file ${f} is not inside this lane's own folders (${critic.cwd}, ${own}); write it there`;

    // The builder's worktree: the builder could rewrite the critic's defects later.
    fs.writeFileSync(path.join(builder.cwd, 'verdict.json'), '{"defects": []}');
    refusedWith(await report(path.join(builder.cwd, 'verdict.json')), outside(path.join(builder.cwd, 'verdict.json')));
    // Hidden files, there or not, by name or through a link: one answer.
    fs.symlinkSync(path.join(s.svcHome, 'caller.key'), path.join(own, 'key.json'));
    fs.symlinkSync(path.join(s.svcHome, 'nothing.json'), path.join(own, 'nothing.json'));
    for (const f of [
      path.join(s.svcHome, 'caller.key'),
      path.join(s.svcHome, 'nothing.json'),
      path.join(own, 'key.json'),
      path.join(own, 'nothing.json'),
    ])
      refusedWith(await report(f), outside(f));
    const fifo = path.join(own, 'fifo.json');
    execFileSync('mkfifo', [fifo]);
    refusedWith(
      await report(fifo),
      `verdict file ${fifo} is not a regular file (a link, folder, FIFO or device is never read)`,
    );
    const big = path.join(own, 'big.json');
    fs.writeFileSync(big, `{"defects": ["${'x'.repeat(1_000_000)}"]}`);
    refusedWith(await report(big), `verdict file ${big} is larger than 1000000 bytes`);

    const good = path.join(own, 'verdict.json');
    fs.writeFileSync(good, '{"defects": []}');
    assert.equal(
      (await ok(report(good))).stdout,
      `Report 1 filed for ${critic.name}: done · verdict PASS (0 defects)\n`,
    );
    // Then the lane swaps it for a FIFO nobody writes: the export still finishes, and says why.
    fs.rmSync(good);
    execFileSync('mkfifo', [good]);
    const r = await ok(s.svc(['run', 'export', 'h', '--json', '--out', '-'], { timeoutMs: 30_000 }));
    const rec = JSON.parse(r.stdout) as RunRecord;
    assert.equal(
      rec.reports.find((x) => x.verdict)?.defectNote,
      `verdict file ${good.replace(s.home, '~')} is not a regular file (a link, folder, FIFO or device is never read): not read at export`,
    );
    await ok(s.svc(['lane', 'list', '--run', 'h']));
  });

  it('refuses a report over the limit in words, before the daemon', async () => {
    const r = await asLane(orch, ['lane', 'report', '--stdin', '--status', 'failed'], 'x'.repeat(17 * 1024 * 1024));
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      'svc lane report: the report body is 17825792 characters, more than the 1000000 a report may hold; put the detail in a file and name it in the report\nsee svc lane report --help\n',
    );
  });

  it('lets an agent --replace and --reuse only lanes it launched; the person’s lanes stay as they were', async () => {
    const sleeper = writeBrief(w.briefs, 'sleep.md', [{ sleep: 120_000 }]);
    const live = await startLane(w, {
      run: 'h',
      key: 'pk',
      role: 'builder',
      model: 'm',
      brief: sleeper,
      sandbox: 'off',
    });
    const stopped = await startLane(w, {
      run: 'h',
      key: 'ps',
      role: 'builder',
      model: 'm',
      prompt: 'x',
      sandbox: 'off',
    });
    await ok(s.svc(['lane', 'stop', stopped.name]));
    const start = (extra: { key: string; replace?: boolean; reuse?: boolean }) =>
      asLane(orch, laneStartArgs({ role: 'builder', model: 'm', prompt: 'mine now', ...extra }));
    refusedWith(
      await start({ key: 'pk', replace: true }),
      `--replace: lane #${live.id} (${live.name}) was not launched by #${orch.id} (${orch.name}) or its lanes; an agent may stop only its own lanes (the person may act on any)`,
    );
    assert.equal((await lane(live.name)).activity, 'working', 'the person’s lane still runs');
    refusedWith(
      await start({ key: 'ps', reuse: true }),
      `--reuse: lane #${stopped.id} (${stopped.name}) was not launched by #${orch.id} (${orch.name}) or its lanes; an agent may reuse the directory of only its own lanes (the person may act on any)`,
    );
    const lanes = JSON.parse((await ok(s.svc(['lane', 'list', '--run', 'h', '--json']))).stdout) as LaneRecord[];
    assert.deepEqual(
      lanes.filter((l) => l.key === 'pk' || l.key === 'ps').map((l) => l.name),
      [live.name, stopped.name],
    );
    // Its own lane it may replace.
    const mine = await ok(asLane(orch, laneStartArgs({ key: 'om', role: 'builder', model: 'm', prompt: 'a' })));
    assert.match(mine.stdout, /^Lane h\/om builder i1: /);
    await ok(start({ key: 'om', replace: true }));
    await ok(s.svc(['lane', 'stop', live.name]));
  });

  it('shows control characters of agent text escaped, and --json stays JSON', async () => {
    const body = 'failed: \x1b]0;owned\x07 \u009b31m red \x7f\n';
    assert.equal((await asLane(orch, ['lane', 'report', '--stdin', '--status', 'failed'], body)).code, 4);
    const waited = await s.svc(['lane', 'wait', orch.name, '--timeout', '5']);
    assert.equal(waited.code, 4);
    assert.equal(waited.stdout, 'failed: \\x1b]0;owned\\x07 \\x9b31m red \\x7f\n');
    const json = (await ok(s.svc(['lane', 'list', '--run', 'h', '--json']))).stdout;
    // eslint-disable-next-line no-control-regex
    assert.ok(!/[\x00-\x08\x0b-\x1f\x7f-\x9f]/.test(json), 'no raw control character');
    const record = (JSON.parse(json) as LaneRecord[]).find((l) => l.name === orch.name)!;
    assert.equal(record.report?.body, body, 'the JSON keeps the body as written');
  });
});

describe('hostile lane in the sandbox: no capability, no unconfined child, no hidden brief', function () {
  this.timeout(180_000);
  let s: Scratch;
  let w: LaneWorld;

  before(async function () {
    sandboxOrSkip(this);
    s = makeScratch('hostile-sandbox');
    w = await laneWorld(s);
  });
  after(async () => s?.dispose());

  it('as root or not: CapEff is 0, the hidden SVC_HOME stays mounted, its children are sandboxed', async () => {
    const brief = writeBrief(w.briefs, 'caps.md', [
      { run: "grep '^CapEff:' /proc/self/status" },
      { run: `umount '${s.svcHome}' 2>/dev/null; echo "umount exit $?"` },
      { run: `ls -A '${s.svcHome}' | grep -c caller.key || true` },
      {
        run: 'svc lane start --key weak --role builder --model m --sandbox off --prompt hi 2>&1; echo "weak exit $?"',
      },
      {
        run: `svc lane start --key bk --role builder --model m --brief '${s.svcHome}/caller.key' 2>&1; echo "key exit $?"`,
      },
      {
        run: `svc lane start --key bn --role builder --model m --brief '${s.svcHome}/nothing' 2>&1; echo "nothing exit $?"`,
      },
      { run: 'printf "BLOCKED: probed\\n" | svc lane report --stdin --status blocked' },
    ]);
    const o = await startLane(w, {
      run: 'sb',
      key: 'o',
      role: 'orchestrator',
      model: 'm',
      brief,
      sandbox: 'workspace',
    });
    assert.equal((await s.svc(['lane', 'wait', o.name, '--timeout', '60'])).code, 4);
    const log = (await ok(s.svc(['conv', 'log', o.name, '--lines', '200']))).stdout;
    assert.match(log, /^CapEff:\s+0000000000000000$/m, log);
    assert.match(log, /^umount exit [1-9]\d*$/m, log);
    assert.match(log, /^0$/m, 'caller.key is not there inside');
    assert.match(
      log,
      new RegExp(
        `^#${o.id} \\(${o.name}\\) runs in the workspace sandbox and may not launch an unconfined lane \\(--sandbox says off\\): a lane's sandbox is at least its launcher's; launch it with --sandbox workspace, or ask the person to launch it\\nweak exit 1$`,
        'm',
      ),
      log,
    );
    for (const [f, word] of [
      [`${s.svcHome}/caller.key`, 'key'],
      [`${s.svcHome}/nothing`, 'nothing'],
    ])
      assert.ok(
        log.includes(`svc lane start: brief ${f} cannot be read: ENOENT\nsee svc lane start --help\n${word} exit 1`),
        log,
      );
    const lanes = JSON.parse((await ok(s.svc(['lane', 'list', '--run', 'sb', '--json']))).stdout) as LaneRecord[];
    assert.deepEqual(
      lanes.map((l) => l.name),
      [o.name],
    );
  });
});

describe('hostile lane with a long SVC_HOME: the sockets outside it are hidden too', function () {
  this.timeout(180_000);
  let s: Scratch;
  let w: LaneWorld;
  let tmp: string;

  before(async function () {
    sandboxOrSkip(this);
    s = makeScratch('hostile-long-home');
    tmp = path.join(s.root, 'tmp');
    fs.mkdirSync(tmp, { mode: 0o1777 });
    // 91 bytes: svc.sock still fits beside it, an agent's socket (agent-<id>.sock) does
    // not and goes to <tmp>/svc-<uid>/, with every other agent's (server/sandbox/agentSocket.ts).
    const longHome = path.join(s.home, 'h'.repeat(91 - Buffer.byteLength(s.home) - 6), '.svc');
    assert.equal(Buffer.byteLength(longHome), 91);
    s.svcHome = longHome;
    Object.assign(s.env, { SVC_HOME: longHome, TMPDIR: tmp }); // the env s.svc and dispose use
    w = await laneWorld(s);
  });
  after(async () => s?.dispose());

  it('another agent’s socket is not there inside; its own still works', async () => {
    const idle = writeBrief(w.briefs, 'idle.md', [{ say: 'ready' }]);
    await startLane(w, { run: 'lh', key: 'sib', role: 'builder', model: 'm', brief: idle });
    const agents = path.join(tmp, `svc-${process.getuid!()}`);
    assert.equal(fs.readdirSync(agents).length, 1, 'the sibling’s socket is there outside');
    const brief = writeBrief(w.briefs, 'probe.md', [
      { run: `echo "agents: $(ls -A '${agents}' | wc -l)"` },
      { run: 'printf "BLOCKED: probed\\n" | svc lane report --stdin --status blocked; echo "report exit $?"' },
    ]);
    const p = await startLane(w, { run: 'lh', key: 'p', role: 'builder', model: 'm', brief });
    await s.svc(['lane', 'wait', p.name, '--timeout', '60']);
    const log = (await ok(s.svc(['conv', 'log', p.name, '--lines', '100']))).stdout;
    assert.match(log, /^agents: 1$/m, `only its own socket:\n${log}`);
    assert.match(log, /^report exit 4$/m, log);
    assert.equal((await lane(s, p.name)).report?.status, 'blocked');
  });
});

describe('hostile lane on a full disk: a park refuses before the agent stops', function () {
  this.timeout(180_000);
  let s: Scratch;
  let w: LaneWorld;

  before(async function () {
    if (process.getuid?.() !== 0) {
      console.log('      (not run: mounting a small tmpfs to fill needs root; CI runs as root)');
      this.skip();
    }
    s = makeScratch('hostile-full-disk');
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=96m,mode=0755', 'tmpfs', s.home]);
    w = await laneWorld(s);
  });
  after(async () => {
    if (!s) return;
    await s.svc(['daemon', 'stop', '--force']);
    // Lazily, as diskFull does: the facts keeper outlives the daemon (its socket is bound in
    // the home) and leaves once SVC_HOME is gone from its sight.
    spawnSync('umount', ['-l', s.home]);
    await s.dispose();
  });

  it('says so in words, and the agent still runs', async () => {
    const brief = writeBrief(w.briefs, 'big.md', [
      { run: 'head -c 8388608 /dev/urandom > work.bin' },
      { say: 'ready' },
    ]);
    const l = await startLane(w, { run: 'fd', key: 'k', role: 'builder', model: 'm', brief, sandbox: 'off' });
    await eventually(async () => (await lane(s, l.name)).git?.dirty === true, 20_000, 'the work is written');
    const fill = path.join(s.home, 'fill');
    spawnSync('sh', ['-c', `dd if=/dev/zero of='${fill}' bs=64k 2>/dev/null; truncate -s -8M '${fill}'`]);
    const r = await s.svc(['lane', 'reap', l.name, '--park']);
    assert.equal(r.code, 1, r.stdout);
    assert.match(
      r.stderr,
      new RegExp(
        `^cannot park ${l.cwd.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: the disk of \\S+ has [0-9.]+ MiB free and parking needs about 56\\.0 MiB; the agent was not stopped and nothing changed: free space there, then reap again\\n$`,
      ),
    );
    assert.equal((await lane(s, l.name)).activity, 'idle', 'the agent was not stopped');
    fs.rmSync(fill);
    await ok(s.svc(['lane', 'reap', l.name, '--park']));
  });
});

async function lane(s: Scratch, name: string): Promise<LaneRecord> {
  const lanes = JSON.parse((await ok(s.svc(['lane', 'list', '--json']))).stdout) as LaneRecord[];
  return lanes.find((l) => l.name === name)!;
}
