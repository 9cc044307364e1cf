// `svc lane list --json` over git-backed lanes, against the floor of running
// `git status --porcelain=v2 --branch` in each of those worktrees one after another,
// measured in the same run. Two cases: repeated (views re-reading an untouched set), and
// cold — right after the floor's `git status` refreshed every index, as views and agents
// do all the time. Target ≤ 0.5× at 200 lanes in both. Then the same at 50, 200 and 1,000
// lanes, to show how the list grows with the lanes (it should grow no faster than linearly).
// Run: npm run bench -- laneList
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { lanesStart } from '../shared/protocol/lanes';
import { laneWorld } from '../test/helpers/lanes';
import { rpcRequest } from '../test/helpers/rpc';
import { makeScratch, sleep } from '../test/helpers/scratch';
import { scriptBlock } from '../test/helpers/scriptBrief';
import { median } from './acpFloor';

const SIZES = (process.env.SVC_BENCH_LANE_SIZES ?? '50,200,1000').split(',').map(Number);
const TARGET_SIZE = 200;
const TARGET = 0.5;

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
    const svcJs = path.join(__dirname, '..', 'dist', 'svc.js');
    const root = `${w.repo}-lanes`;
    const list = () => {
      const r = spawnSync(process.execPath, [svcJs, 'lane', 'list', '--run', 'bench', '--json'], { env: s.env, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(r.stderr);
    };
    const rows: { n: number; floor: number; warm: number; cold: number }[] = [];
    let made = 0;
    for (const n of SIZES) {
      // Launch up to n lanes, four at a time (each answers once its worktree exists).
      while (made < n) {
        const batch = Array.from({ length: Math.min(4, n - made) }, (_, j) => made + j);
        await Promise.all(
          batch.map((i) =>
            rpcRequest(s.svcHome, lanesStart, {
              parent: String(w.rootId),
              harness: 'script',
              run: 'bench',
              key: `k${i}`,
              role: 'builder',
              model: 'm',
              prompt: brief,
              noWait: true,
            }),
          ),
        );
        made += batch.length;
      }
      while (fs.readdirSync(root).filter((d) => fs.existsSync(path.join(root, d, 'README.md'))).length < n) await sleep(100);
      const dirs = fs.readdirSync(root).map((d) => path.join(root, d));
      const floor = () => dirs.forEach((d) => spawnSync('git', ['status', '--porcelain=v2', '--branch'], { cwd: d, env: s.env }));
      const runs = n >= 1000 ? 3 : n > TARGET_SIZE ? 5 : 9;
      list(); // the daemon watches every worktree once
      const warm: number[] = [];
      const floors: number[] = [];
      const cold: number[] = [];
      for (let i = 0; i < runs; i++) {
        warm.push(time(list));
        // Each cold list follows the floor, whose `git status` refreshes every index.
        floors.push(time(floor));
        cold.push(time(list));
      }
      rows.push({ n, floor: median(floors), warm: median(warm), cold: median(cold) });
    }
    for (const r of rows) {
      const mark = r.n === TARGET_SIZE ? ` (target ≤ ${TARGET}: ${r.warm / r.floor <= TARGET && r.cold / r.floor <= TARGET ? 'met' : 'MISSED'})` : '';
      console.log(
        `${r.n} lanes: sequential git status floor ${r.floor.toFixed(0)} ms; lane list --json repeated ${r.warm.toFixed(0)} ms, ratio ${(r.warm / r.floor).toFixed(2)}; every index just refreshed ${r.cold.toFixed(0)} ms, ratio ${(r.cold / r.floor).toFixed(2)}${mark}`,
      );
    }
    if (rows.length < 2) return;
    const [first, last] = [rows[0], rows[rows.length - 1]];
    const grow = (a: number, b: number) => (b / a / (last.n / first.n)).toFixed(2);
    console.log(
      `lane list growth ${first.n} → ${last.n} lanes (×${last.n / first.n}): repeated ×${(last.warm / first.warm).toFixed(1)}, cold ×${(last.cold / first.cold).toFixed(1)}, floor ×${(last.floor / first.floor).toFixed(1)}; ` +
        `per lane, ${last.n} against ${first.n}: repeated ${grow(first.warm, last.warm)}, cold ${grow(first.cold, last.cold)} (1.00 is linear; above it grows faster)`,
    );
  } finally {
    await s.dispose();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
