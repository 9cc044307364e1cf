// What one `svc lane start` asks git, once a project already has live lanes with repositories
// of their own (config.yaml `lanes.git: own`): every git the daemon runs for the launch runs in
// the project's checkout, the new lane's directory or the new lane's repository — never in
// another lane's. Before, the launch's answer read every live builder's facts for its overlap
// forecast (a `git status` of each lane's 20,000-file worktree in bench/launch.bench.ts), so
// each launch took ~0.45 s longer than the one before (docs/decisions/performance.md). And the
// launch runs the same eleven gits whatever came before (each spawn holds the daemon's thread).
// A `git` first on the daemon's PATH logs the folder and arguments of each run.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { laneWorld, startLane } from '../helpers/lanes';
import type { LaneWorld } from '../helpers/lanes';
import { makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import { writeBrief } from '../helpers/scriptBrief';
import { laneRepoPath } from '../../server/lanes/laneGitRepo';

describe('lane start under lanes.git own: git runs only where the new lane is', function () {
  this.timeout(120_000);
  let s: Scratch;
  let w: LaneWorld;
  let log: string;

  before(async () => {
    s = makeScratch('launchreach');
    fs.mkdirSync(s.svcHome, { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(s.svcHome, 'config.yaml'), 'lanes:\n  git: own\n', { mode: 0o600 });
    const realGit = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8', env: s.env }).stdout.trim();
    const bin = path.join(s.root, 'logging-git');
    log = path.join(s.root, 'git.log');
    fs.mkdirSync(bin);
    // A write that fails (a sandboxed agent's git) is left out: only the daemon's are counted.
    fs.writeFileSync(
      path.join(bin, 'git'),
      `#!/bin/sh\nprintf '%s\\t%s\\n' "$PWD" "$*" >> '${log}' 2>/dev/null\nexec '${realGit}' "$@"\n`,
      { mode: 0o755 },
    );
    s.env.PATH = `${bin}${path.delimiter}${s.env.PATH}`;
    w = await laneWorld(s);
  });
  after(async () => s?.dispose());

  /** The folder and arguments of each git run while `step` ran. */
  const gitsDuring = async (step: () => Promise<unknown>): Promise<{ cwd: string; args: string }[]> => {
    const from = fs.statSync(log).size;
    await step();
    return fs
      .readFileSync(log, 'utf8')
      .slice(from)
      .split('\n')
      .filter(Boolean)
      .map((l) => ({ cwd: l.slice(0, l.indexOf('\t')), args: l.slice(l.indexOf('\t') + 1) }));
  };

  it('the fourth live builder launched runs git in no earlier lane: the same eleven gits as any launch', async () => {
    const idle = writeBrief(w.briefs, 'idle.md', [{ say: 'ready' }]);
    const lanes = `${w.repo}-lanes`;
    const launch = (key: string) => startLane(w, { run: 'r', key, role: 'builder', model: 'm', brief: idle });
    // Live (working on their first prompt or idle after it): what the forecast of a launch read before.
    for (const key of ['a', 'b', 'c']) await launch(key);
    const runs = await gitsDuring(() => launch('d'));
    const others = ['a', 'b', 'c'].flatMap((k) => [
      path.join(lanes, `r-${k}`),
      laneRepoPath(path.join(lanes, `r-${k}`)),
    ]);
    const elsewhere = runs.filter((r) => others.some((o) => r.cwd === o || r.cwd.startsWith(`${o}${path.sep}`)));
    assert.deepEqual(elsewhere, []);
    // The new lane's own facts are known as it is made: its worktree is not read either.
    assert.deepEqual(
      runs.filter((r) => / status( |$)/.test(r.args)),
      [],
    );
    // And exactly these, whatever came before: the base's check (no fetch: origin has not
    // moved), the branch's, two reads of the project for the lane repository (its config and
    // refs, laneGitRepo.ts), the add, the project's branch and upstream, the checkout.
    const mine = path.join(lanes, 'r-d');
    const where = new Map([
      [w.repo, 'checkout'],
      [w.origin, 'origin'],
      [mine, 'lane'],
      [laneRepoPath(mine), 'lane repository'],
    ]);
    const named = runs.map((r) => {
      const args = r.args.replaceAll(lanes, '<lanes>').replace(/\b[0-9a-f]{40}\b/g, '<sha>');
      return `${where.get(r.cwd) ?? r.cwd}: ${args}`;
    });
    assert.deepEqual(named.sort(), [
      'checkout: branch --no-track -- r/d <sha>',
      'checkout: config --local --list -z',
      'checkout: config branch.r/d.merge refs/heads/r/d',
      'checkout: config branch.r/d.remote origin',
      'checkout: for-each-ref --format=%(objectname) %(refname) refs/heads/ refs/remotes/ refs/tags/',
      'checkout: for-each-ref --format=%(refname) refs/heads/r/d refs/remotes/origin/r/d',
      'checkout: remote get-url origin',
      'checkout: rev-parse --verify --quiet refs/remotes/origin/main^{commit}',
      'lane repository: worktree add --quiet --no-checkout -b r/d <lanes>/r-d <sha>',
      'lane: reset --hard --no-recurse-submodules --quiet',
      'origin: rev-parse --verify --quiet refs/heads/main^{commit}',
    ]);
  });
});
