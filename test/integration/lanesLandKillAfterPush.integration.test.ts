// kill -9 of the daemon in the window between moving the base and recording it: the push
// has reached origin, the row still says running. The daemon's test pause
// (SVC_TEST_PAUSE_AFTER_LAND_PUSH) holds it there; while it waits the queue shows in
// `svc lane runs`. The restarted daemon marks the landing landed without a second push
// (origin's post-receive hook counts them) and runs the one queued behind it on top.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import type { RunCard } from '../../shared/protocol/lanes';
import { alive, daemonPids } from '../helpers/daemonProcs';
import { buildAndReport, laneWorld, ok, startLane } from '../helpers/lanes';
import type { LaneWorld } from '../helpers/lanes';
import { eventually, git, makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import { writeBrief } from '../helpers/scriptBrief';

describe('fault: kill -9 of the daemon after the base moved, before the landing is recorded', function () {
  this.timeout(180_000);
  let s: Scratch;
  let w: LaneWorld;
  let marker: string;
  let pushes: string;

  before(async () => {
    s = makeScratch('land-kill-push');
    marker = path.join(s.root, 'paused-after-land-push');
    s.env.SVC_TEST_PAUSE_AFTER_LAND_PUSH = marker;
    w = await laneWorld(s);
    fs.appendFileSync(
      path.join(s.svcHome, 'projects.yaml'),
      `    gauntlet:\n      checks:\n        - { name: test, run: 'echo green', timeout: 60 }\n`,
    );
    // Every ref update origin takes, one line each: `<old> <new> <ref>`.
    pushes = path.join(s.root, 'origin-pushes.log');
    const hook = path.join(w.origin, 'hooks', 'post-receive');
    fs.writeFileSync(hook, `#!/bin/sh\ncat >> '${pushes}'\n`, { mode: 0o755 });
  });
  after(async () => s.dispose());

  const originMain = () => git(w.repo, s.env, '--git-dir', w.origin, 'rev-parse', 'refs/heads/main');
  const mainPushes = () =>
    fs
      .readFileSync(pushes, 'utf8')
      .split('\n')
      .filter((l) => l.endsWith(' refs/heads/main'))
      .map((l) => l.split(' ')[1]);
  const rows = () => {
    const db = new Database(path.join(s.svcHome, 'svc.db'), { readonly: true });
    try {
      return db.prepare(`SELECT id, state, landed_sha AS sha FROM landings ORDER BY id`).all() as {
        id: number;
        state: string;
        sha: string | null;
      }[];
    } finally {
      db.close();
    }
  };

  async function builder(key: string, file: string, content: string) {
    const brief = writeBrief(w.briefs, `${key}.md`, [{ run: buildAndReport(file, content), check: true }]);
    const lane = await startLane(w, { run: 'r1', key, role: 'builder', model: 'm', brief });
    assert.equal((await s.svc(['lane', 'wait', lane.name, '--timeout', '60'])).code, 0);
    return lane;
  }

  it('shows the queue while held, and the restart records the landing without pushing again', async () => {
    const a = await builder('ka', 'ka.txt', 'pushed before the kill');
    const b = await builder('kb', 'kb.txt', 'queued behind it');
    const before = originMain();
    await ok(s.svc(['lane', 'land', a.name]));
    const pid = Number(
      (
        await eventually(
          () => (fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8') : undefined),
          60_000,
          'the landing to pause after its push',
        )
      ).trim(),
    );
    assert.deepEqual(daemonPids(s.svcHome), [pid], 'the paused process is the daemon of this home');
    await ok(s.svc(['lane', 'land', b.name]));

    // The base moved; the row does not say so yet.
    const pushed = originMain();
    assert.notEqual(pushed, before);
    assert.deepEqual(mainPushes(), [pushed]);
    assert.deepEqual(rows(), [
      { id: 1, state: 'running', sha: pushed },
      { id: 2, state: 'queued', sha: null },
    ]);

    // The queue, as `svc lane runs` shows it (the paused daemon still answers).
    const text = await ok(s.svc(['lane', 'runs']));
    assert.ok(
      text.stdout.endsWith(
        `\nBASE       PLACE  LANDING  ${'LANE'.padEnd(a.name.length)}  STATE\n` +
          `proj/main  0      #1       ${a.name}  running\n` +
          `proj/main  1      #2       ${b.name}  queued, next\n`,
      ),
      text.stdout,
    );
    const cards = JSON.parse((await ok(s.svc(['lane', 'runs', '--json']))).stdout) as RunCard[];
    assert.deepEqual(cards.find((c) => c.run === 'r1')!.landings, [
      { id: 1, lane: a.name, laneId: a.id, base: 'main', state: 'running', position: 0, pr: null },
      { id: 2, lane: b.name, laneId: b.id, base: 'main', state: 'queued', position: 1, pr: null },
    ]);

    process.kill(pid, 'SIGKILL');
    await eventually(() => !alive(pid), 10_000, 'the daemon to die');

    // The next command starts a daemon, which resumes the queue.
    await ok(s.svc(['lane', 'runs']));
    const ended = await eventually(
      () => {
        const r = rows();
        return r.every((x) => x.state === 'landed') ? r : undefined;
      },
      60_000,
      'both landings landed',
    );
    assert.equal(ended[0].sha, pushed, 'landing 1 is recorded at the commit pushed before the kill');
    // One push per landing: none repeated for landing 1; landing 2 on top of it.
    assert.deepEqual(mainPushes(), [pushed, ended[1].sha]);
    assert.equal(originMain(), ended[1].sha);
    assert.equal(git(w.repo, s.env, '--git-dir', w.origin, 'rev-parse', `${ended[1].sha}^1`), pushed);
    assert.equal(git(w.repo, s.env, '--git-dir', w.origin, 'show', 'main:ka.txt'), 'pushed before the kill');
    assert.equal(git(w.repo, s.env, '--git-dir', w.origin, 'show', 'main:kb.txt'), 'queued behind it');
    const runs = await ok(s.svc(['lane', 'runs']));
    assert.ok(!runs.stdout.includes('BASE'), runs.stdout);
  });
});
