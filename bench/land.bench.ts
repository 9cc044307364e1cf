// `svc lane land --wait` of a small change (one new file on a builder's branch, its done
// report filed, untimed) on a small project with one project check, timed from the command
// to its answer: fetch of the base, the combination, the check in a fresh worktree (in the
// lane sandbox when the lane ran in one), the push, the row recorded. Its floor, measured
// in the same run and interleaved round by round, is what a person types for the same
// landing in their own checkout: `git merge --no-ff --no-edit <branch>`, the same check run
// directly, and `git push` of the base. Target ≤ 1.2× (issue 44). The check is a small
// `node` test script (what `npm test` runs in a small project), so svc's own overhead is
// not hidden under a long check. Also printed, not part of the ratio: the shim's own round
// trip (`svc daemon status`) in the same rounds, the node start every svc command pays and
// the floor has no counterpart of (its one node start is the check's, which svc runs too).
// Run: npm run bench -- land
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildAndReport, laneWorld, ok, startLane } from '../test/helpers/lanes';
import { git, makeScratch } from '../test/helpers/scratch';
import { writeBrief } from '../test/helpers/scriptBrief';
import { median } from './acpFloor';
import { loadAverage } from './loadAverage';
import { runBench } from './runBench';

const ROUNDS = Number(process.env.SVC_BENCH_RUNS ?? 5);
const TARGET = 1.2;
const CHECK = `const assert = require('node:assert'); const fs = require('node:fs');
for (const f of fs.readdirSync('.').filter((f) => f.endsWith('.txt'))) assert.ok(fs.readFileSync(f, 'utf8').length > 0, f);
console.log('green');
`;

function timed(fn: () => void): number {
  const t = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
}

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): void {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${r.stderr}${r.stdout}`);
}

async function main(): Promise<void> {
  const s = makeScratch('bench-land');
  try {
    const w = await laneWorld(s);
    fs.writeFileSync(path.join(w.repo, 'check.js'), CHECK);
    git(w.repo, s.env, 'add', 'check.js');
    git(w.repo, s.env, 'commit', '-q', '-m', 'the project check');
    git(w.repo, s.env, 'push', '-q', 'origin', 'HEAD:main');
    fs.appendFileSync(
      path.join(s.svcHome, 'projects.yaml'),
      `    gauntlet:\n      checks:\n        - { name: test, run: 'node check.js', timeout: 60 }\n`,
    );
    // The person's own checkout for the floor: a clone of the same origin.
    const mine = path.join(s.home, 'mine');
    git(s.home, s.env, 'clone', '-q', w.origin, mine);
    const svcJs = path.join(__dirname, '..', 'dist', 'svc.js');
    const lands: number[] = [];
    const floors: number[] = [];
    const shims: number[] = [];
    let sandbox = '';
    for (let round = 0; round < ROUNDS; round++) {
      const brief = writeBrief(w.briefs, `land${round}.md`, [
        { run: buildAndReport(`svc${round}.txt`, `landed by svc ${round}`), check: true },
      ]);
      const lane = await startLane(w, { run: 'bench', key: `k${round}`, role: 'builder', model: 'm', brief });
      sandbox = lane.sandbox;
      await ok(s.svc(['lane', 'wait', lane.name, '--timeout', '60']));
      lands.push(timed(() => run(process.execPath, [svcJs, 'lane', 'land', lane.name, '--wait'], w.repo, s.env)));
      shims.push(timed(() => run(process.execPath, [svcJs, 'daemon', 'status'], w.repo, s.env)));

      // The same landing by hand: a branch with one new file, merged, checked, pushed.
      run('git', ['fetch', '-q', 'origin'], mine, s.env);
      run('git', ['checkout', '-q', '-B', 'main', 'origin/main'], mine, s.env);
      run('git', ['checkout', '-q', '-b', `floor${round}`], mine, s.env);
      fs.writeFileSync(path.join(mine, `floor${round}.txt`), `landed by hand ${round}\n`);
      run('git', ['add', `floor${round}.txt`], mine, s.env);
      run('git', ['commit', '-q', '-m', `floor ${round}`], mine, s.env);
      run('git', ['checkout', '-q', 'main'], mine, s.env);
      floors.push(
        timed(() => {
          run('git', ['merge', '--no-ff', '--no-edit', '-q', `floor${round}`], mine, s.env);
          run('node', ['check.js'], mine, s.env);
          run('git', ['push', '-q', 'origin', 'HEAD:main'], mine, s.env);
        }),
      );
    }
    const ratio = median(lands) / median(floors);
    console.log(
      `lane land --wait of a small change (checks in sandbox ${sandbox}): ${median(lands).toFixed(0)} ms (median of ${ROUNDS}; runs ${lands.map((x) => x.toFixed(0)).join(' ')}); ratio ${ratio.toFixed(2)} to git merge + the check + git push ${median(floors).toFixed(0)} ms (runs ${floors.map((x) => x.toFixed(0)).join(' ')}; target ≤ ${TARGET}: ${ratio <= TARGET ? 'met' : 'MISSED'}); the shim's round trip alone ${median(shims).toFixed(0)} ms; ${loadAverage()}`,
    );
  } finally {
    await s.dispose();
  }
}

runBench(main);
