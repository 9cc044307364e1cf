// What a builder launch asks of git, now that it asks less: the branch's upstream is written
// while the worktree is checked out (and taken back when the worktree could not be made), the
// branch name is judged by git's rules without git where it plainly passes them, and origin's
// branch is read at origin's last URL alongside the read of the URL. None of that may change
// what a lane gets: its upstream, its start commit after origin moved, after origin's URL
// changed. Real daemon, real git, the script harness.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LaneRecord } from '../../shared/protocol/lanes';
import { laneWorld, startLane, tryStartLane } from '../helpers/lanes';
import type { LaneWorld } from '../helpers/lanes';
import { git, makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';

describe('lane start: the git it runs', function () {
  this.timeout(120_000);
  let s: Scratch;
  let w: LaneWorld;

  before(async () => {
    s = makeScratch('lane-start-git');
    w = await laneWorld(s);
  });
  after(async () => s.dispose());

  const launch = (key: string): Promise<LaneRecord> =>
    startLane(w, { run: 'g', key, role: 'builder', model: 'm', prompt: 'hi' });
  const config = (key: string) =>
    git(w.repo, s.env, 'config', '--get-regexp', `^branch\\.g/${key}\\.`).trim().split('\n');
  /** A new commit on origin's main, pushed from a clone of origin: the checkout's origin/main is now behind. */
  const moveOrigin = (origin: string, what: string) => {
    const clone = path.join(s.home, `mover-${what}`);
    git(s.home, s.env, 'clone', '-q', origin, clone);
    fs.writeFileSync(path.join(clone, `${what}.txt`), `${what}\n`);
    git(clone, s.env, 'add', '.');
    git(clone, s.env, 'commit', '-qm', what);
    git(clone, s.env, 'push', '-q', 'origin', 'HEAD:main');
    return git(clone, s.env, 'rev-parse', 'HEAD').trim();
  };

  it("writes the branch's upstream, and starts at origin's main as origin has it", async () => {
    const first = await launch('one');
    assert.deepEqual(config('one'), ['branch.g/one.remote origin', 'branch.g/one.merge refs/heads/g/one']);
    assert.equal(first.git?.branch, 'g/one');
    // Its upstream as git reads it (origin has no g/one yet: nothing pushed).
    assert.equal(
      git(first.cwd, s.env, 'for-each-ref', '--format=%(upstream:short)', 'refs/heads/g/one'),
      'origin/g/one',
    );
    const main = git(w.origin, s.env, 'rev-parse', 'main').trim();
    assert.equal(git(first.cwd, s.env, 'rev-parse', 'HEAD').trim(), main);

    // Origin moved since the last launch read it: the next lane starts at origin's new main.
    const moved = moveOrigin(w.origin, 'moved');
    const second = await launch('two');
    assert.equal(git(second.cwd, s.env, 'rev-parse', 'HEAD').trim(), moved);
    assert.equal(git(w.repo, s.env, 'rev-parse', 'origin/main').trim(), moved);
  });

  it('follows origin to a new URL: the branch read at the old one is not taken', async () => {
    const other = path.join(s.home, 'other-origin.git');
    git(s.home, s.env, 'clone', '-q', '--bare', w.origin, other);
    const there = moveOrigin(other, 'elsewhere');
    git(w.repo, s.env, 'remote', 'set-url', 'origin', other);
    try {
      const lane = await launch('three');
      assert.equal(git(lane.cwd, s.env, 'rev-parse', 'HEAD').trim(), there);
    } finally {
      git(w.repo, s.env, 'remote', 'set-url', 'origin', w.origin);
    }
  });

  it('takes the upstream back when the worktree could not be made, and says why', async () => {
    // A stale lock on the branch's ref: git cannot create the branch, so the worktree is not made.
    const lock = path.join(w.repo, '.git', 'refs', 'heads', 'g', 'four.lock');
    fs.mkdirSync(path.dirname(lock), { recursive: true });
    fs.writeFileSync(lock, '');
    try {
      const r = await tryStartLane(w, { run: 'g', key: 'four', role: 'builder', model: 'm', prompt: 'hi' });
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, /four\.lock/);
      const left = spawnSync('git', ['config', '--get-regexp', '^branch\\.g/four\\.'], { cwd: w.repo, env: s.env });
      assert.equal(left.status, 1, `left behind: ${String(left.stdout)}`); // 1: no such key
    } finally {
      fs.rmSync(lock);
    }
  });

  it('refuses a --branch git refuses, before anything is made', async () => {
    const r = await tryStartLane(w, {
      run: 'g',
      key: 'five',
      role: 'builder',
      model: 'm',
      prompt: 'hi',
      branch: 'a..b',
    });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /a\.\.b/);
    assert.equal(fs.existsSync(path.join(`${w.repo}-lanes`, 'g-five')), false);
  });
});
