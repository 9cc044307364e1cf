// `svc lane reap` and POST /api/lanes/:name/reap: steps 1–7, every refusal leaving the
// lane untouched (nothing archived, removed or cleaned), parking with a restore command
// that really restores, unpushed commits warned about, branches kept.
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import type { LaneRecord } from '../../shared/protocol/lanes';
import { buildAndReport, laneWorld, ok, startLane, tryStartLane } from '../helpers/lanes';
import type { LaneStartOptions, LaneWorld } from '../helpers/lanes';
import { git, makeScratch, SVC_JS } from '../helpers/scratch';
import type { RunResult, Scratch } from '../helpers/scratch';
import { writeBrief } from '../helpers/scriptBrief';
import { laneEnv } from '../helpers/laneEnv';

describe('lanes: reap', function () {
  this.timeout(180_000);
  let s: Scratch;
  let w: LaneWorld;

  before(async () => {
    s = makeScratch('reap');
    w = await laneWorld(s);
  });
  after(async () => s.dispose());

  const lane = async (name: string): Promise<LaneRecord> =>
    (JSON.parse((await ok(s.svc(['lane', 'list', '--json']))).stdout) as LaneRecord[]).find((l) => l.name === name)!;
  const built = async (run: string, key: string, extra: LaneStartOptions = {}) => {
    const b = writeBrief(w.briefs, `${run}-${key}.md`, [
      { run: buildAndReport('work.txt', `${run} ${key}`), check: true },
    ]);
    await startLane(w, { run, key, role: 'builder', model: 'm', brief: b, ...extra });
    assert.equal((await s.svc(['lane', 'wait', `${run}-${key}-builder-i1`, '--timeout', '60'])).code, 0);
    return lane(`${run}-${key}-builder-i1`);
  };
  /** The lane is as it was: listed, not archived, its directory and files in place. */
  const untouched = async (l: LaneRecord, files: Record<string, string>) => {
    const now = await lane(l.name);
    assert.equal(now.archived, false);
    assert.equal(now.reaped, false);
    for (const [f, content] of Object.entries(files))
      assert.equal(fs.readFileSync(path.join(l.cwd, f), 'utf8'), content, f);
  };
  const refused = (r: RunResult, pattern: RegExp) => {
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stderr, pattern);
  };

  it('reaps a clean, pushed builder: worktree removed, branch kept, archived but still listed', async () => {
    const l = await built('clean', 'k');
    const head = git(l.cwd, s.env, 'rev-parse', 'HEAD');
    const r = await ok(s.svc(['lane', 'reap', l.name]));
    assert.equal(
      r.stdout,
      [
        `reaped conv ${l.id} (${l.name})`,
        `removed worktree ${l.cwd}`,
        `kept branch clean/k at ${head.slice(0, 7)}`,
        `archived conv ${l.id}`,
        '',
      ].join('\n'),
    );
    assert.ok(!fs.existsSync(l.cwd));
    assert.equal(git(w.repo, s.env, 'rev-parse', 'refs/heads/clean/k'), head);
    assert.ok(!git(w.repo, s.env, 'worktree', 'list').includes(l.cwd));
    const after = await lane(l.name);
    assert.equal(after.activity, 'stopped');
    assert.equal(after.archived, true);
    assert.equal(after.report?.status, 'done', 'reports survive');
    assert.ok(fs.existsSync(path.join(s.svcHome, 'agents', `conv-${l.name}`, 'lane-brief.md')), 'the brief survives');
    const list = (await ok(s.svc(['lane', 'list', '--run', 'clean']))).stdout;
    assert.match(list, new RegExp(`#${l.id}\\s+clean/k\\s+builder\\s+i1\\s+stopped \\(archived\\)\\s+done`));
    const deck = (await ok(s.svc(['conv', 'list']))).stdout;
    assert.ok(!deck.includes(l.name), 'an archived lane leaves the Command Deck');
  });

  it('reaps a lane whose worktree was deleted by hand, pruning its entry', async () => {
    const l = await built('gone', 'k');
    await ok(s.svc(['lane', 'stop', l.name]));
    fs.rmSync(l.cwd, { recursive: true, force: true });
    const r = await ok(s.svc(['lane', 'reap', l.name]));
    assert.match(r.stdout, new RegExp(`^${l.cwd.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} was already gone$`, 'm'));
    assert.ok(
      !git(w.repo, s.env, 'worktree', 'list', '--porcelain').includes(l.cwd),
      'the stale worktree entry is pruned',
    );
    assert.equal(git(w.repo, s.env, 'rev-parse', '--verify', 'refs/heads/gone/k').length, 40, 'the branch is kept');
  });

  it('refuses a dirty tree without --park, changing nothing', async () => {
    const l = await built('dirty', 'k');
    fs.writeFileSync(path.join(l.cwd, 'work.txt'), 'edited but not committed\n');
    fs.writeFileSync(path.join(l.cwd, 'new.txt'), 'untracked\n');
    refused(await s.svc(['lane', 'reap', l.name]), /uncommitted|dirty/);
    await untouched(l, { 'work.txt': 'edited but not committed\n', 'new.txt': 'untracked\n' });
  });

  it('parks a dirty tree in a verified patch whose printed command restores the work', async () => {
    const l = await lane('dirty-k-builder-i1');
    const r = await ok(s.svc(['lane', 'reap', l.name, '--park']));
    const patch = /^parked 2 paths in (\S+parked-\d{8}T\d{6}Z\.patch)$/m.exec(r.stdout)?.[1];
    assert.ok(patch, r.stdout);
    assert.equal(path.dirname(patch), path.join(s.svcHome, 'agents', `conv-${l.name}`));
    const restore = /^ {2}restore with: (.+)$/m.exec(r.stdout)![1];
    assert.ok(!fs.existsSync(l.cwd));
    const res = spawnSync('sh', ['-c', restore], { env: s.env, cwd: s.home, encoding: 'utf8' });
    assert.equal(res.status, 0, res.stderr);
    assert.equal(fs.readFileSync(path.join(l.cwd, 'work.txt'), 'utf8'), 'edited but not committed\n');
    assert.equal(fs.readFileSync(path.join(l.cwd, 'new.txt'), 'utf8'), 'untracked\n');
    assert.ok(fs.existsSync(patch), 'the patch survives');
  });

  it('refuses a park over reap.park_max_mb, changing nothing, and warns over reap.park_warn_mb', async () => {
    const config = path.join(s.svcHome, 'config.yaml');
    const kept = fs.existsSync(config) ? fs.readFileSync(config, 'utf8') : null;
    try {
      fs.writeFileSync(config, 'reap:\n  park_warn_mb: 1\n  park_max_mb: 2\n');
      while ((await s.svc(['config', 'get', 'reap.park_max_mb'])).stdout.trim() !== '2')
        await new Promise((r) => setTimeout(r, 100));
      const l = await built('big', 'k');
      fs.writeFileSync(path.join(l.cwd, 'data.bin'), Buffer.alloc(3 * 1024 * 1024, 7));
      fs.writeFileSync(path.join(l.cwd, 'work.txt'), 'a small edit\n');
      const esc = (x: string) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const r = await s.svc(['lane', 'reap', l.name, '--park']);
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.match(
        r.stderr,
        new RegExp(
          `^${esc(l.cwd)} holds 3\\.0 MiB of uncommitted files, over reap\\.park_max_mb \\(2 MiB\\): a park would copy them into SVC_HOME; commit, move or delete the large files, or raise the limit \\(svc config set reap\\.park_max_mb <MiB>\\), then reap again; nothing was changed\nlargest:\n {2}3\\.0 MiB data\\.bin\n {2}0\\.0 MiB work\\.txt$`,
          'm',
        ),
      );
      await untouched(l, { 'work.txt': 'a small edit\n' });
      assert.equal(fs.statSync(path.join(l.cwd, 'data.bin')).size, 3 * 1024 * 1024);
      fs.truncateSync(path.join(l.cwd, 'data.bin'), 1.5 * 1024 * 1024);
      const parked = await ok(s.svc(['lane', 'reap', l.name, '--park']));
      const patch = /^parked 2 paths in (\S+\.patch)$/m.exec(parked.stdout)?.[1];
      assert.ok(patch, parked.stdout);
      assert.match(
        parked.stdout,
        new RegExp(
          `^warning: parked 1\\.5 MiB of files into ${esc(patch)}, over reap\\.park_warn_mb \\(1 MiB\\); largest: data\\.bin 1\\.5 MiB, work\\.txt 0\\.0 MiB$`,
          'm',
        ),
      );
    } finally {
      if (kept === null) fs.rmSync(config, { force: true });
      else fs.writeFileSync(config, kept);
    }
  });

  it('warns about commits absent from upstream and keeps the branch', async () => {
    const l = await built('ahead', 'k');
    git(l.cwd, s.env, 'commit', '-q', '--allow-empty', '-m', 'local only');
    const sha = git(l.cwd, s.env, 'rev-parse', 'HEAD');
    const r = await ok(s.svc(['lane', 'reap', l.name]));
    assert.match(
      r.stdout,
      new RegExp(`^warning: 1 commit on ahead/k is not on origin/ahead/k:\\n {2}${sha.slice(0, 7)} local only$`, 'm'),
    );
    assert.equal(git(w.repo, s.env, 'rev-parse', 'refs/heads/ahead/k'), sha);
  });

  it('refuses while a process works inside the lane directory, listing it', async () => {
    const l = await built('proc', 'k');
    const sleeper = spawn('sleep', ['300'], { cwd: l.cwd, stdio: 'ignore', detached: true });
    try {
      await new Promise((r) => setTimeout(r, 200));
      refused(await s.svc(['lane', 'reap', l.name]), new RegExp(`^ {2}${sleeper.pid} sleep 300$`, 'm'));
      await untouched(l, { 'work.txt': 'proc k\n' });
    } finally {
      process.kill(-sleeper.pid!, 'SIGKILL');
    }
  });

  it('refuses a lane directory that resolves outside the lanes root through a symlink', async () => {
    const l = await built('link', 'k');
    const outside = path.join(s.home, 'elsewhere');
    // Moved by the repository it is a worktree of: its own (lanes.git: own), else the project's.
    const common = git(l.cwd, s.env, 'rev-parse', '--path-format=absolute', '--git-common-dir');
    git(common, s.env, 'worktree', 'move', l.cwd, outside);
    fs.symlinkSync(outside, l.cwd);
    refused(await s.svc(['lane', 'reap', l.name]), new RegExp(`is outside the lanes root`));
    assert.ok(fs.existsSync(path.join(outside, 'work.txt')));
    assert.equal((await lane(l.name)).archived, false);
  });

  it('removes a play directory only when it holds no .git', async () => {
    const idle = writeBrief(w.briefs, 'play.md', [{ say: 'toy' }]);
    await startLane(w, { run: 'pl', key: 'a', role: 'play', model: 'm', brief: idle });
    const a = await lane('pl-a-play-i1');
    fs.writeFileSync(path.join(a.cwd, 'scratch.txt'), 'x');
    assert.match(
      (await ok(s.svc(['lane', 'reap', a.name]))).stdout,
      new RegExp(`^removed play directory ${a.cwd}$`, 'm'),
    );
    assert.ok(!fs.existsSync(a.cwd));
    await startLane(w, { run: 'pl', key: 'b', role: 'play', model: 'm', brief: idle });
    const b = await lane('pl-b-play-i1');
    git(b.cwd, s.env, 'init', '-q', 'inner');
    refused(await s.svc(['lane', 'reap', b.name]), /\.git/);
    assert.ok(fs.existsSync(path.join(b.cwd, 'inner', '.git')));
    assert.equal((await lane(b.name)).archived, false);
  });

  it('warns that reaping an orchestrator first orphans its builders; --keep leaves it listed', async () => {
    const idle = writeBrief(w.briefs, 'orch.md', [{ say: 'leading' }]);
    await startLane(w, { run: 'orc', key: 'lead', role: 'orchestrator', model: 'm', brief: idle });
    const o = await lane('orc-lead-orchestrator-i1');
    for (const key of ['b1', 'b2']) {
      const b = await tryStartLane(
        s,
        { key, role: 'builder', model: 'm', harness: 'script', brief: idle },
        {
          env: laneEnv(s, { id: o.id }),
          cwd: o.cwd,
        },
      );
      assert.equal(b.code, 0, b.stderr);
    }
    const b1 = await lane('orc-b1-builder-i1');
    const kept = await ok(s.svc(['lane', 'reap', b1.name, '--keep']));
    assert.match(kept.stdout, new RegExp(`^kept conv ${b1.id} in the Command Deck \\(--keep\\)$`, 'm'));
    const b1After = await lane(b1.name);
    assert.equal(b1After.archived, false);
    assert.equal(b1After.reaped, true);
    assert.ok((await ok(s.svc(['conv', 'list']))).stdout.includes(b1.name), '--keep leaves it in the Command Deck');
    const r = await ok(s.svc(['lane', 'reap', o.name]));
    assert.match(
      r.stdout,
      /^warning: the builder launched by this lane is not reaped and is now orphaned: orc-b2-builder-i1$/m,
    );
    assert.equal((await lane(o.name)).archived, true);
  });

  it('reaps over HTTP with {park, keep}, answering refusals with 409 and bad bodies with 400', async () => {
    const l = await built('http', 'k');
    fs.writeFileSync(path.join(l.cwd, 'wip.txt'), 'wip\n');
    const d = JSON.parse(fs.readFileSync(path.join(s.svcHome, 'server.json'), 'utf8')) as {
      httpPort: number;
      token: string;
    };
    const post = async (body: unknown) => {
      const res = await fetch(`http://127.0.0.1:${d.httpPort}/api/lanes/${l.name}/reap`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${d.token}` },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const no = await post({ park: false, keep: false });
    assert.equal(no.status, 409);
    assert.equal(no.body.reason, 'dirty');
    assert.equal((await post({ park: 'yes' })).status, 400);
    assert.ok(fs.existsSync(path.join(l.cwd, 'wip.txt')));
    const yes = await post({ park: true, keep: true });
    assert.equal(yes.status, 200, JSON.stringify(yes.body));
    assert.equal(yes.body.removed, 'worktree');
    assert.deepEqual(yes.body.archive, { state: 'kept' });
    assert.equal((yes.body.park as { files: number }).files, 1);
  });

  it('refuses, archiving nothing, while the harness is still alive 30 s after the stop request', async function () {
    this.timeout(120_000);
    // A harness that ignores SIGTERM and keeps its stdout open after the agent exits. Unsandboxed:
    // in the sandbox the stop's SIGTERM ends bubblewrap, and with it everything in its PID namespace.
    const agent = path.join(path.dirname(SVC_JS), 'scriptAgent.js');
    fs.writeFileSync(
      path.join(s.svcHome, 'config.yaml'),
      `harnesses:\n  stubborn:\n    command: sh\n    args: ["-c", "trap '' TERM; ${process.execPath} ${agent}; sleep 3600"]\n`,
    );
    const idle = writeBrief(w.briefs, 'stubborn.md', [{ say: 'I will not stop' }]);
    await startLane(s, {
      parent: w.rootId,
      run: 'alive',
      key: 'k',
      role: 'builder',
      model: 'm',
      harness: 'stubborn',
      brief: idle,
      sandbox: 'off',
    });
    const l = await lane('alive-k-builder-i1');
    const t0 = Date.now();
    // The refusal names what still runs: the harness's shell and the sleep it went on to.
    const sh =
      '(?:\\S*/)?' +
      `sh -c trap '' TERM; ${process.execPath} ${agent}; sleep 3600`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    refused(
      await s.svc(['lane', 'reap', l.name], { timeoutMs: 90_000 }),
      new RegExp(
        `^2 processes of the harness of conv ${l.id} still run 30 s after the stop request; reap never kills a process: end them with svc conv stop --kill ${l.id}, then reap again\n  \\d+ ${sh}\n  \\d+ sleep 3600\n$`,
      ),
    );
    assert.ok(Date.now() - t0 >= 29_000, 'waited the full 30 s');
    await untouched(l, {});
    assert.ok(fs.existsSync(l.cwd));
    await ok(s.svc(['conv', 'stop', l.name, '--kill']));
  });

  it('prints the archive-failed line when archiving fails, and the reap still succeeds', async () => {
    const l = await built('arch', 'k');
    const db = new Database(path.join(s.svcHome, 'svc.db'));
    db.exec(
      `CREATE TRIGGER test_refuse_archive BEFORE UPDATE OF archived_at ON conversations WHEN OLD.name = '${l.name}' BEGIN SELECT RAISE(ABORT, 'disk full (injected)'); END`,
    );
    db.close();
    const r = await ok(s.svc(['lane', 'reap', l.name]));
    assert.match(
      r.stdout,
      new RegExp(
        `^reaped, but archiving failed: disk full \\(injected\\); archive conv ${l.id} from the Command Deck$`,
        'm',
      ),
    );
    assert.ok(!fs.existsSync(l.cwd));
  });
});
