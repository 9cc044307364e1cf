// `svc lane list --json` over 200 git-backed lanes, against the floor of running
// `git status --porcelain=v2 --branch` in each of those worktrees one after another.
// Target ratio ≤ 0.5. Also `svc lane start --no-wait` of a builder in a 20,000-file
// repository against a bare `git worktree add` of the same: target ≤ 1.3×.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { laneWorld } from '../test/helpers/lanes';
import { git, makeScratch, sleep } from '../test/helpers/scratch';
import { scriptBlock } from '../test/helpers/scriptBrief';

const LANES = Number(process.env.SVC_BENCH_LANES ?? 200);
const RUNS = 10;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function time(fn: () => void): number {
  const t = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
}

async function main(): Promise<void> {
  const s = makeScratch('bench-lanes');
  try {
    const w = await laneWorld(s);
    const brief = scriptBlock([{ exit: 0 }]);
    for (let i = 0; i < LANES; i++) {
      const r = await s.svc(['lane', 'start', '--parent', String(w.rootId), '--harness', 'script', '--run', 'bench', '--key', `k${i}`, '--role', 'builder', '--model', 'm', '--prompt', brief, '--no-wait']);
      if (r.code !== 0) throw new Error(r.stderr);
    }
    // --no-wait answers before the worktrees exist: wait for all of them.
    const root = `${w.repo}-lanes`;
    while (!fs.existsSync(root) || fs.readdirSync(root).filter((d) => fs.existsSync(path.join(root, d, 'README.md'))).length < LANES) await sleep(100);
    const dirs = fs.readdirSync(root).map((d) => path.join(root, d));
    const svcJs = path.join(__dirname, '..', 'dist', 'svc.js');
    const list = () => spawnSync(process.execPath, [svcJs, 'lane', 'list', '--run', 'bench', '--json'], { env: s.env, encoding: 'utf8' });
    const floor = () => dirs.forEach((d) => spawnSync('git', ['status', '--porcelain=v2', '--branch'], { cwd: d, env: s.env }));
    list(); // warm: the daemon has watched every worktree once
    const warm: number[] = [];
    const floorTimes: number[] = [];
    for (let i = 0; i < RUNS; i++) warm.push(time(() => list()));
    for (let i = 0; i < RUNS; i++) floorTimes.push(time(floor));
    // Interleaved, each list follows the floor, whose `git status` refreshes every index
    // and so invalidates every kept dirty flag: the worst case, a full recount.
    const cold: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      floor();
      cold.push(time(() => list()));
    }
    const f = median(floorTimes);
    console.log(`sequential git status --porcelain=v2 --branch in ${dirs.length} worktrees (floor): ${f.toFixed(0)} ms`);
    console.log(`lane list --json, repeated (views re-reading): ${median(warm).toFixed(0)} ms; ratio ${(median(warm) / f).toFixed(2)} (target ≤ 0.5)`);
    console.log(`lane list --json, every index just refreshed: ${median(cold).toFixed(0)} ms; ratio ${(median(cold) / f).toFixed(2)}`);

    // A 20,000-file repository.
    const big = path.join(s.home, 'big');
    fs.mkdirSync(big);
    git(big, s.env, 'init', '-q', '--initial-branch=main');
    for (let d = 0; d < 200; d++) {
      const dir = path.join(big, `d${d}`);
      fs.mkdirSync(dir);
      for (let f2 = 0; f2 < 100; f2++) fs.writeFileSync(path.join(dir, `f${f2}.txt`), `${d}/${f2}\n`);
    }
    git(big, s.env, 'add', '.');
    git(big, s.env, 'commit', '-q', '-m', 'big');
    await s.svc(['project', 'add', 'big', big]);
    const startTimes: number[] = [];
    const addTimes: number[] = [];
    for (let i = 0; i < 5; i++) {
      startTimes.push(
        time(() => {
          const r = spawnSync(process.execPath, [svcJs, 'lane', 'start', '--parent', String(w.rootId), '--project', 'big', '--harness', 'script', '--run', 'big', '--key', `k${i}`, '--role', 'builder', '--model', 'm', '--prompt', brief, '--no-wait'], { env: s.env, encoding: 'utf8' });
          if (r.status !== 0) throw new Error(r.stderr);
        }),
      );
      // The lane's worktree is made behind the answer; let it finish before the next timing
      // (its agent starts once the worktree is complete, so wait until it is no longer `starting`).
      const started = () => {
        const r = spawnSync(process.execPath, [svcJs, 'lane', 'list', '--run', 'big', '--json'], { env: s.env, encoding: 'utf8' });
        return (JSON.parse(r.stdout) as { name: string; activity: string }[]).find((l) => l.name === `big-k${i}-builder-i1`)?.activity !== 'starting';
      };
      while (!started()) await sleep(50);
      addTimes.push(time(() => spawnSync('git', ['worktree', 'add', '-q', '-b', `plain-${i}`, path.join(s.home, `big-plain-${i}`), 'HEAD'], { cwd: big, env: s.env })));
    }
    const st = median(startTimes);
    const ad = median(addTimes);
    console.log(`lane start --no-wait in a 20,000-file repo: ${st.toFixed(0)} ms; bare git worktree add: ${ad.toFixed(0)} ms; ratio ${(st / ad).toFixed(2)} (target ≤ 1.3)`);
  } finally {
    await s.dispose();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
