// A hostile lane against the person's repository when each lane has git state of its own
// (config.yaml `lanes.git: own`, server/lanes/laneGitRepo.ts): from inside an ordinary
// default-sandboxed builder it tries to delete the person's branches, refs/heads/main and
// objects, and plants links in every place of its own git state it can write. Afterwards
// the person's `git commit` in their checkout, the daemon's next `svc lane start` and reap
// all work, nothing outside the lane changed, and the same lane's commit, push and report
// reached the person's repository through svc only.
//
// Shown to fail on today's layout: with `lanes.git: shared` (what main does) the probes that
// write the person's repository exit 0 (its refs/, logs/ and objects/ are bound writable),
// main is deleted and the first assertion below fails; set SVC_TEST_LANES_GIT=shared to see it.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LaneRecord } from '../../shared/protocol/lanes';
import { buildAndReport, laneWorld, ok, startLane, tryStartLane } from '../helpers/lanes';
import type { LaneWorld } from '../helpers/lanes';
import { git, makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import { writeBrief } from '../helpers/scriptBrief';
import { SANDBOX_CONFIG_DIR, SVC_CONFIG_DIR } from '../../server/sandbox/privateGitConfig';

/** Runs `cmd` without stopping the script and prints `PROBE <name>: exit <code>` after its output. */
const probe = (name: string, cmd: string) => ({ run: `${cmd} >/dev/null 2>&1; echo "PROBE ${name}: exit $?"` });

function bwrapWorks(): boolean {
  return spawnSync('bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', 'true']).status === 0;
}

/** Every file under `dir` with its size and mode (links as their target), for a before/after comparison. */
function snapshot(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(d, e.name);
      const st = fs.lstatSync(p);
      if (e.isSymbolicLink()) out.push(`${p} -> ${fs.readlinkSync(p)}`);
      else if (e.isDirectory()) walk(p);
      else out.push(`${p} ${st.size} ${st.mode.toString(8)}`);
    }
  };
  walk(dir);
  return out;
}

/** Files the hostile lane's links point at, if any git followed one. */
const plantedIn = (home: string) => fs.readdirSync(home).filter((f) => f.startsWith('planted'));

describe('lane git of its own: the person repository is never writable from a lane', function () {
  this.timeout(180_000);
  let s: Scratch;
  let w: LaneWorld;

  before(async function () {
    if (!bwrapWorks()) {
      console.log('      (not run: bubblewrap cannot start a sandbox here; the sandbox tests need it)');
      this.skip();
    }
    s = makeScratch('laneown');
    fs.mkdirSync(s.svcHome, { recursive: true, mode: 0o700 });
    fs.writeFileSync(
      path.join(s.svcHome, 'config.yaml'),
      `lanes:\n  git: ${process.env.SVC_TEST_LANES_GIT ?? 'own'}\n`,
      { mode: 0o600 },
    );
    w = await laneWorld(s);
  });
  after(async () => s?.dispose());
  const planted = () => plantedIn(s.home);

  it('a lane wrecks only its own git state; the person, the daemon and reap see nothing of it', async () => {
    const person = fs.realpathSync(path.join(w.repo, '.git'));
    git(w.repo, s.env, 'branch', 'person-unpushed');
    const mainBefore = git(w.repo, s.env, 'rev-parse', 'refs/heads/main');
    const personBefore = snapshot(person).filter((l) => !l.includes('/worktrees/') && !l.includes('/logs/'));
    const idle = writeBrief(w.briefs, 'idle.md', [{ say: 'idle' }]);
    const c = '"$(git rev-parse --git-common-dir)"';
    const brief = writeBrief(w.briefs, 'hostile.md', [
      // The person's repository, by its path: every write refused (read-only inside).
      probe('delete-main', `git --git-dir='${person}' update-ref -d refs/heads/main`),
      probe('delete-branch', `rm -f '${person}/refs/heads/person-unpushed'`),
      probe('wreck-objects', `rm -rf '${person}/objects/pack' '${person}/objects/info'`),
      probe('plant-person', `ln -s '${s.home}/planted-person' '${person}/logs/refs/heads/next'`),
      probe('write-person-ref', `echo ${'1'.repeat(40)} > '${person}/refs/heads/zz'`),
      // Its own repository's parts svc wrote: read-only.
      probe('alternates', `echo /etc > ${c}/objects/info/alternates`),
      probe('config-link', `ln -sfn /etc/gitconfig ${c}/config`),
      // Its config as its own git writes it: a copy of its own (privateGitConfig.ts), never
      // read outside. A program named there would run as the person if the daemon's git read it.
      {
        run: `git config core.fsmonitor 'touch ${s.home}/planted-fsmonitor; false' && git config core.hooksPath /nowhere && echo "CONFIG $(git config core.fsmonitor)"`,
        check: true,
      },
      { run: `git config --unset core.fsmonitor && git config --unset core.hooksPath`, check: true },
      // `git push -u` records the upstream in that copy: no "could not lock config file".
      { run: 'git push -u origin HEAD 2>&1; echo "PROBE push-u: exit $?"' },
      // Links everywhere it can write in its own git state (all of them its own to lose).
      {
        run: [
          `mkdir -p ${c}/logs/refs/heads/gc ${c}/refs/heads`,
          `ln -s '${s.home}/planted-log' ${c}/logs/refs/heads/gc/next`,
          `ln -s '${s.home}' ${c}/refs/heads/gx`,
          `ln -s '${s.home}/planted-obj' ${c}/objects/zz`,
          `ln -s '${s.home}/planted-gitdir' "$(git rev-parse --git-dir)/planted"`,
        ].join(' && '),
        check: true,
      },
      // Left in its config for the daemon's git to find (its facts, the mirror), if it read the lane's copy.
      { run: `git config core.fsmonitor 'touch ${s.home}/planted-fsmonitor; false'`, check: true },
      { run: buildAndReport('work.txt', 'work'), check: true },
    ]);
    await ok(tryStartLane(w, { run: 'gc', key: 'hostile', role: 'builder', model: 'm', brief, sandbox: 'workspace' }));
    await ok(s.svc(['lane', 'wait', 'gc-hostile-builder-i1', '--timeout', '60']));
    const log = (await ok(s.svc(['conv', 'log', 'gc-hostile-builder-i1', '--lines', '400']))).stdout;
    for (const p of [
      'delete-main',
      'delete-branch',
      'wreck-objects',
      'plant-person',
      'write-person-ref',
      'alternates',
      'config-link',
    ])
      assert.match(log, new RegExp(`^PROBE ${p}: exit [1-9]\\d*$`, 'm'), log);
    assert.match(
      log,
      new RegExp(`^CONFIG touch ${s.home.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/planted-fsmonitor; false$`, 'm'),
      log,
    );
    assert.match(log, /^PROBE push-u: exit 0$/m, log);
    assert.doesNotMatch(log, /could not lock config file|unable to write upstream/, log);

    // The person's repository: main and their unpushed branch where they were, nothing planted.
    assert.equal(git(w.repo, s.env, 'rev-parse', 'refs/heads/main'), mainBefore);
    assert.equal(git(w.repo, s.env, 'rev-parse', 'refs/heads/person-unpushed'), mainBefore);
    const lanes = JSON.parse((await ok(s.svc(['lane', 'list', '--run', 'gc', '--json']))).stdout) as LaneRecord[];
    const l = lanes.find((x) => x.name === 'gc-hostile-builder-i1')!;
    assert.equal(l.report?.status, 'done');
    const head = l.report.headSha!;
    // The lane's branch reached the person's repository through svc (mirrored on report and push).
    assert.equal(git(w.repo, s.env, 'rev-parse', 'refs/heads/gc/hostile'), head);
    assert.equal(git(w.repo, s.env, 'rev-parse', 'refs/svc/lanes/gc-hostile/heads/gc/hostile'), head);
    assert.equal(git(w.origin, s.env, 'rev-parse', 'refs/heads/gc/hostile'), head);
    const laneRepo = path.join(path.dirname(l.cwd), '.git-lanes', 'gc-hostile.git');
    assert.equal(fs.statSync(laneRepo).mode & 0o777, 0o700);
    assert.equal(fs.readFileSync(path.join(laneRepo, 'objects/info/alternates'), 'utf8'), `${person}/objects\n`);
    // The config svc wrote, which every git outside reads, is as svc wrote it: the lane wrote only its copy.
    assert.equal(fs.readlinkSync(path.join(laneRepo, 'config')), `${SVC_CONFIG_DIR}/config`);
    const svcConfig = fs.readFileSync(path.join(laneRepo, SVC_CONFIG_DIR, 'config'), 'utf8');
    assert.doesNotMatch(svcConfig, /fsmonitor|nowhere/);
    assert.match(
      svcConfig,
      /^\[branch "gc\/hostile"\]\n\tremote = "origin"\n\[branch "gc\/hostile"\]\n\tmerge = "refs\/heads\/gc\/hostile"$/m,
    );
    assert.match(fs.readFileSync(path.join(laneRepo, SANDBOX_CONFIG_DIR, 'config'), 'utf8'), /fsmonitor/);
    // The daemon's git in the lane (its facts: a `git status`) runs nothing the lane's copy names.
    assert.equal((await ok(s.svc(['lane', 'list', '--run', 'gc', '--json']))).code, 0);

    // The person's own git in their checkout: a commit works, and writes nowhere outside.
    git(w.repo, s.env, 'commit', '-q', '--allow-empty', '-m', 'the person commits');
    git(w.repo, s.env, 'fsck', '--no-progress');
    const personAfter = snapshot(person).filter((l) => !l.includes('/worktrees/') && !l.includes('/logs/'));
    // Only what the person's commit and svc's mirror wrote changed (new objects, main, the lane's refs).
    const unexpected = personAfter.filter(
      (x) =>
        !personBefore.includes(x) &&
        !/\/objects\/([0-9a-f]{2}\/[0-9a-f]{38}|pack\/pack-[0-9a-f]{40}\.(idx|pack)) /.test(x) &&
        !/\/refs\/(heads\/main|heads\/gc\/hostile|svc\/lanes\/gc-hostile\/.*) /.test(x) &&
        !/\/(ORIG_HEAD|COMMIT_EDITMSG|index|config) /.test(x),
    );
    assert.deepEqual(unexpected, []);
    assert.deepEqual(planted(), []);

    // The daemon's next lane starts, whatever the hostile lane planted in its own state.
    for (const run of ['gc', 'gx']) await startLane(w, { run, key: 'next', role: 'builder', model: 'm', brief: idle });

    // Reaped without losing work: its branch kept in the person's repository, its own repository gone.
    await ok(s.svc(['lane', 'stop', l.name]));
    const reaped = await ok(s.svc(['lane', 'reap', l.name]));
    assert.equal(
      reaped.stdout,
      `reaped conv ${l.id} (${l.name})\nremoved worktree ${l.cwd}\nkept branch gc/hostile at ${head.slice(0, 7)}\narchived conv ${l.id}\n`,
    );
    assert.equal(fs.existsSync(laneRepo), false);
    assert.equal(git(w.repo, s.env, 'rev-parse', 'refs/heads/gc/hostile'), head);
    assert.equal(git(w.repo, s.env, 'cat-file', '-t', head), 'commit');
    assert.deepEqual(planted(), []);
  });
});
