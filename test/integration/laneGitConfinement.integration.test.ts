// A hostile lane against the person's repository, from inside an ordinary sandboxed
// builder: its pushes go through svc (bin/git-remote-svc → lanes/push), which refuses a
// force-push over the base branch, a delete of it and a push of a sibling lane's branch;
// the project's bare remote is read-only inside, so a push that goes around svc writes
// nothing. The same lane still commits, pushes its own branch, reports and is reaped
// without losing work. On a build without the ref policy every refused push here lands.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LaneRecord } from '../../shared/protocol/lanes';
import { buildAndReport, laneWorld, ok, startLane, tryStartLane } from '../helpers/lanes';
import type { LaneWorld } from '../helpers/lanes';
import { git, makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import { writeBrief } from '../helpers/scriptBrief';

/** The layout under test: `own` (the default) unless SVC_TEST_LANES_GIT=shared. */
const SHARED = process.env.SVC_TEST_LANES_GIT === 'shared';

/** Runs `cmd` without stopping the script and prints `PROBE <name>: exit <code>` after its output. */
const probe = (name: string, cmd: string) => ({ run: `${cmd} 2>&1; echo "PROBE ${name}: exit $?"` });

describe('lane git confinement: a lane moves only its own branches, through svc', function () {
  this.timeout(180_000);
  let s: Scratch;
  let w: LaneWorld;

  before(async () => {
    s = makeScratch('lanegit');
    fs.mkdirSync(s.svcHome, { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(s.svcHome, 'config.yaml'), `lanes:\n  git: ${SHARED ? 'shared' : 'own'}\n`, {
      mode: 0o600,
    });
    w = await laneWorld(s);
  });
  after(async () => s.dispose());

  it('refuses a force-push over the base and a sibling branch, and still pushes, reports and reaps', async () => {
    const idle = writeBrief(w.briefs, 'idle.md', [{ say: 'idle' }]);
    await startLane(w, { run: 'gc', key: 'sib', role: 'builder', model: 'm', brief: idle });
    const mainBefore = git(w.origin, s.env, 'rev-parse', 'refs/heads/main');
    const orphan = `$(git commit-tree 'HEAD^{tree}' -m rewritten)`;
    const brief = writeBrief(w.briefs, 'hostile.md', [
      probe('force-base', `git push --force origin ${orphan}:refs/heads/main`),
      probe('delete-base', 'git push origin :refs/heads/main'),
      probe('sibling', `git push origin HEAD:refs/heads/gc/sib`),
      // Around svc: the lane's own git writing the remote directly.
      probe('direct', 'env -u GIT_CONFIG_COUNT git push origin HEAD:refs/heads/gc/around'),
      // Broken refs (naming no object) planted where the reap's own git reads every ref.
      {
        run: `for r in heads/zz-broken remotes/origin/zz-broken; do f="$(git rev-parse --git-common-dir)/refs/$r" && mkdir -p "$(dirname "$f")" && echo ${'1'.repeat(40)} > "$f"; done`,
        check: true,
      },
      // Links where the daemon's git writes the next lane's branch: its reflog, a folder of refs.
      {
        run: `c="$(git rev-parse --git-common-dir)" && mkdir -p "$c/logs/refs/heads/gc" && ln -s '${s.home}/planted-log' "$c/logs/refs/heads/gc/next" && ln -s '${s.home}' "$c/refs/heads/gx"`,
        check: true,
      },
      { run: buildAndReport('work.txt', 'work'), check: true },
    ]);
    const r = await ok(
      tryStartLane(w, { run: 'gc', key: 'hostile', role: 'builder', model: 'm', brief, sandbox: 'workspace' }),
    );
    assert.match(r.stdout, /^Lane gc\/hostile builder i1: conv \d+ \(gc-hostile-builder-i1\)/);
    await ok(s.svc(['lane', 'wait', 'gc-hostile-builder-i1', '--timeout', '60']));
    const log = (await ok(s.svc(['conv', 'log', 'gc-hostile-builder-i1', '--lines', '400']))).stdout;

    const base =
      'no lane moves the base branch main (lane gc-hostile-builder-i1 is a builder lane); it changes only by a merged PR';
    assert.match(log, new RegExp(`^ ! \\[remote rejected\\] +[0-9a-f]+ -> main \\(${esc(base)}\\)$`, 'm'), log);
    assert.match(log, new RegExp(`^ ! \\[remote rejected\\] +main \\(${esc(base)}\\)$`, 'm'), log);
    assert.match(
      log,
      new RegExp(
        `^ ! \\[remote rejected\\] +HEAD -> gc/sib \\(${esc("gc/sib is lane gc-sib-builder-i1's branch; a builder lane pushes only its own branch gc/hostile")}\\)$`,
        'm',
      ),
      log,
    );
    for (const p of ['force-base', 'delete-base', 'sibling', 'direct'])
      assert.match(log, new RegExp(`^PROBE ${p}: exit 1$`, 'm'));

    // The remote: the base where it was, no sibling branch, nothing from around svc; the lane's own branch at its head.
    assert.equal(git(w.origin, s.env, 'rev-parse', 'refs/heads/main'), mainBefore);
    const heads = git(w.origin, s.env, 'for-each-ref', '--format=%(refname)', 'refs/heads/').split('\n');
    assert.deepEqual(heads, ['refs/heads/gc/hostile', 'refs/heads/main']);
    const lanes = JSON.parse((await ok(s.svc(['lane', 'list', '--run', 'gc', '--json']))).stdout) as LaneRecord[];
    const l = lanes.find((x) => x.name === 'gc-hostile-builder-i1')!;
    assert.equal(l.report?.status, 'done');
    assert.equal(git(w.origin, s.env, 'rev-parse', 'refs/heads/gc/hostile'), l.git?.headSha);

    // The daemon's git makes no branch through a planted link, and nothing is written outside.
    // A lane of its own git (lanes.git: own, the default) planted them in its own repository,
    // which no other lane's start reads: the next lanes start. A lane of the shared layout
    // planted them in the person's repository: the next lanes are refused, naming the link.
    for (const [run, what] of [
      ['gc', 'logs/refs/heads/gc/next is a symbolic link'],
      ['gx', 'refs/heads/gx is a symbolic link'],
    ]) {
      const next = await tryStartLane(w, { run, key: 'next', role: 'builder', model: 'm', brief: idle });
      if (SHARED) {
        assert.equal(next.code, 1, next.stderr);
        assert.equal(
          next.stderr,
          `${what} in ${fs.realpathSync(path.join(w.repo, '.git'))}: git never makes one there and a lane may have planted it, so svc writes nothing through it; look at it, remove it and try again\n`,
        );
      } else {
        assert.equal(next.code, 0, next.stderr);
        assert.equal(
          git(w.repo, s.env, 'rev-parse', `refs/heads/${run}/next`),
          git(w.repo, s.env, 'rev-parse', 'origin/main'),
        );
      }
    }
    assert.deepEqual(
      fs.readdirSync(s.home).filter((f) => f === 'planted-log' || f === 'next'),
      [],
    );

    // Reaped without losing work (its commit is on the remote, so nothing is unpushed),
    // whatever broken refs it left behind.
    await ok(s.svc(['lane', 'stop', l.name]));
    const reaped = await ok(s.svc(['lane', 'reap', l.name]));
    // The sibling never pushed: its reap reads every remote-tracking ref, the broken one too.
    await ok(s.svc(['lane', 'stop', 'gc-sib-builder-i1']));
    const sibReaped = await ok(s.svc(['lane', 'reap', 'gc-sib-builder-i1']));
    assert.match(sibReaped.stdout, /^removed worktree .*\/gc-sib$/m);
    assert.equal(
      reaped.stdout,
      `reaped conv ${l.id} (${l.name})\nremoved worktree ${l.cwd}\nkept branch gc/hostile at ${l.git?.headSha?.slice(0, 7)}\narchived conv ${l.id}\n`,
    );
  });
});

const esc = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
