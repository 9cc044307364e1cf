// `svc lane list --json` over git-backed lanes, against the floor of running
// `git status --porcelain=v2 --branch` in each of those worktrees one after another,
// measured in the same run. Two cases: repeated (views re-reading an untouched set), and
// cold — right after the floor's `git status` refreshed every index, as views and agents
// do all the time. Target ≤ 0.5× at 200 lanes in both. Then the same at 50, 200 and 1,000
// lanes, to show how the list grows with the lanes (it should grow no faster than linearly).
// And the slow one a person meets when VS Code opens after a reboot: the FIRST list after a
// daemon restart (the daemon stopped and started, untimed; the list timed), at each size and
// at 100 lanes of a 3,000-file repository; median of 3 restarts, each followed by the floor.
// Target ≤ 0.2× the sequential floor at 200 and 1,000 lanes. And the first list after N new
// lanes (each size step adds lanes to a running daemon): it must grow with N at the cost of
// their `git status` run 2 × cores at once, printed against those lanes' sequential floor
// (target from 200 new lanes on: within 2 × that parallel cost).
// Then the real-repository cases of issue 43, first list after a restart ≤ 0.3× the
// sequential floor: 100 lanes of a 3,000-file repository, and 30 lanes of a 30,000-file one
// made here (many files at deep paths, and binaries), the sizes set by SVC_BENCH_BIG_LANES,
// SVC_BENCH_HUGE_LANES and SVC_BENCH_HUGE_FILES (0 lanes leaves a case out). The lanes are made
// as users get them (`lanes.git: own`, a repository of their own each), whose facts the daemon
// reads with plain statuses kept by the facts keeper (server/git/keeperDirtyFlags.ts); each
// case runs once for each daemon in SVC_BENCH_KEEPER (default on; `off` starts the daemon with
// SVC_FACTS_KEEPER=0, plain statuses alone), and for each implementation of the shared-repository
// dirty flags in SVC_BENCH_DIRTY_FLAGS (default: the configured default only; plain,kept to
// compare them, which matters only under `lanes.git: shared`).
// Every ratio line carries the load average it was measured under.
// Run: npm run bench -- laneList
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { lanesStart } from '../shared/protocol/lanes';
import { laneWorld } from '../test/helpers/lanes';
import { rpcRequest } from '../test/helpers/rpc';
import { git, makeScratch, sleep } from '../test/helpers/scratch';
import { scriptBlock } from '../test/helpers/scriptBrief';
import { median } from './acpFloor';
import { runBench } from './runBench';

const SIZES = (process.env.SVC_BENCH_LANE_SIZES ?? '50,200,1000').split(',').map(Number);
const TARGET_SIZE = 200;
const TARGET = 0.5;
const FIRST_TARGET = 0.2;
const RESTARTS = 3;
const BIG_FILES = 3000;
const BIG_LANES = Number(process.env.SVC_BENCH_BIG_LANES ?? 100);
const HUGE_FILES = Number(process.env.SVC_BENCH_HUGE_FILES ?? 30000);
const HUGE_LANES = Number(process.env.SVC_BENCH_HUGE_LANES ?? 30);
/** The dirty flags' implementations the real-repository cases run, each in the same minutes. */
const DIRTY_FLAGS = (process.env.SVC_BENCH_DIRTY_FLAGS ?? 'default').split(',');
/** With and without the facts keeper (its daemon started with SVC_FACTS_KEEPER=0). */
const KEEPER = (process.env.SVC_BENCH_KEEPER ?? 'on').split(',');
/** Issue 43: the first list after a restart over lanes of a real-sized repository. */
const REAL_TARGET = 0.3;
/** The first list after new lanes: within this many times their parallel cost (1 / PARALLEL). */
const NEW_TARGET_TIMES = 2;
/** The daemon's `git status` runs at once (WorktreeFacts: 2 × cores, at least 4). */
const PARALLEL = Math.max(4, 2 * os.availableParallelism());

/** The load average now (1, 5, 15 minutes), for the line a ratio is printed on. */
function load(): string {
  return `load ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`;
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
    const svcJs = path.join(__dirname, '..', 'dist', 'svc.js');
    const root = `${w.repo}-lanes`;
    const listOf = (run: string) => () => {
      const r = spawnSync(process.execPath, [svcJs, 'lane', 'list', '--run', run, '--json'], {
        env: s.env,
        encoding: 'utf8',
        maxBuffer: 1 << 28, // 1,000 lanes' JSON is past spawnSync's 1 MB default, which ended the bench there
      });
      if (r.status !== 0) throw new Error(`svc lane list: ${r.error?.message ?? r.stderr}`);
    };
    const list = listOf('bench');
    const svcOk = (args: string[], env: NodeJS.ProcessEnv = s.env) => {
      const r = spawnSync(process.execPath, [svcJs, ...args], { env, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`svc ${args.join(' ')}: ${r.stderr}`);
    };
    /** Launches lanes `from`…`to - 1` of `run`, four at a time (each answers once its worktree exists). */
    const launch = async (run: string, project: string | undefined, from: number, to: number) => {
      for (let made = from; made < to;) {
        const batch = Array.from({ length: Math.min(4, to - made) }, (_, j) => made + j);
        await Promise.all(
          batch.map((i) =>
            rpcRequest(s.svcHome, lanesStart, {
              parent: String(w.rootId),
              ...(project ? { project } : {}),
              harness: 'script',
              run,
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
    };
    const sequentialStatus = (dirs: string[]) => () =>
      dirs.forEach((d) => spawnSync('git', ['status', '--porcelain=v2', '--branch'], { cwd: d, env: s.env }));
    /** config.yaml's git.dirty_flags for the next daemon start (undefined: the default). */
    const useDirtyFlags = (kind: string | undefined) => {
      const file = path.join(s.svcHome, 'config.yaml');
      const kept = (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '').replace(
        /^git:\n {2}dirty_flags: \w+\n/m,
        '',
      );
      fs.writeFileSync(file, kind ? `${kept}git:\n  dirty_flags: ${kind}\n` : kept);
    };
    /** The first list after each of RESTARTS daemon restarts, each followed by the floor. */
    const firstAfterRestart = (listRun: () => void, floor: () => void, daemonEnv: NodeJS.ProcessEnv = s.env) => {
      const first: number[] = [];
      const floors: number[] = [];
      for (let i = 0; i < RESTARTS; i++) {
        svcOk(['daemon', 'stop', '--force']);
        svcOk(['daemon', 'status'], daemonEnv); // starts it: the daemon's own start is not the list's
        first.push(time(listRun));
        floors.push(time(floor));
      }
      return { first: median(first), floor: median(floors), runs: first, load: load() };
    };
    const rows: {
      n: number;
      floor: number;
      warm: number;
      cold: number;
      first: number;
      firstFloor: number;
      firstRuns: number[];
      firstLoad: string;
      added: number;
      afterNew: number;
      newFloor: number;
      newLoad: string;
      load: string;
    }[] = [];
    let made = 0;
    let had: string[] = [];
    for (const n of SIZES) {
      await launch('bench', undefined, made, n);
      const added = n - made;
      made = n;
      while (fs.readdirSync(root).filter((d) => fs.existsSync(path.join(root, d, 'README.md'))).length < n)
        await sleep(100);
      const dirs = fs.readdirSync(root).map((d) => path.join(root, d));
      const floor = sequentialStatus(dirs);
      const runs = n >= 1000 ? 3 : n > TARGET_SIZE ? 5 : 9;
      // The first list after `added` new lanes (the others counted before), then the new lanes' own floor.
      const afterNew = time(list);
      const newLoad = load();
      const newFloor = time(sequentialStatus(dirs.filter((d) => !had.includes(d))));
      had = dirs;
      const warm: number[] = [];
      const floors: number[] = [];
      const cold: number[] = [];
      for (let i = 0; i < runs; i++) {
        warm.push(time(list));
        // Each cold list follows the floor, whose `git status` refreshes every index.
        floors.push(time(floor));
        cold.push(time(list));
      }
      const warmLoad = load();
      const f = firstAfterRestart(list, floor);
      // Printed as soon as measured, and again with the others at the end.
      console.log(
        `  (${n} lanes measured: first list after a restart ${f.first.toFixed(0)} ms against ${f.floor.toFixed(0)} ms sequential)`,
      );
      rows.push({
        n,
        floor: median(floors),
        warm: median(warm),
        cold: median(cold),
        first: f.first,
        firstFloor: f.floor,
        firstRuns: f.runs,
        firstLoad: f.load,
        added,
        afterNew,
        newFloor,
        newLoad,
        load: warmLoad,
      });
    }
    for (const r of rows) {
      const mark =
        r.n === TARGET_SIZE
          ? ` (target ≤ ${TARGET}: ${r.warm / r.floor <= TARGET && r.cold / r.floor <= TARGET ? 'met' : 'MISSED'})`
          : '';
      console.log(
        `${r.n} lanes: sequential git status floor ${r.floor.toFixed(0)} ms; lane list --json repeated ${r.warm.toFixed(0)} ms, ratio ${(r.warm / r.floor).toFixed(2)}; every index just refreshed ${r.cold.toFixed(0)} ms, ratio ${(r.cold / r.floor).toFixed(2)}${mark}; ${r.load}`,
      );
    }
    for (const r of rows) {
      const mark =
        r.n >= TARGET_SIZE
          ? ` (target ≤ ${FIRST_TARGET}: ${r.first / r.firstFloor <= FIRST_TARGET ? 'met' : 'MISSED'})`
          : '';
      console.log(
        `${r.n} lanes, first lane list after a daemon restart: ${r.first.toFixed(0)} ms (median of ${RESTARTS}; runs ${r.firstRuns.map((x) => x.toFixed(0)).join(' ')}); ratio ${(r.first / r.firstFloor).toFixed(2)} to the sequential git status floor ${r.firstFloor.toFixed(0)} ms${mark}; ${r.firstLoad}`,
      );
    }
    for (const r of rows) {
      const ratio = r.afterNew / r.newFloor;
      const bound = NEW_TARGET_TIMES / PARALLEL;
      // Below TARGET_SIZE new lanes the shim's start and the listing dominate: no target there.
      const mark = r.added >= TARGET_SIZE ? `; target ≤ ${bound.toFixed(2)}: ${ratio <= bound ? 'met' : 'MISSED'}` : '';
      console.log(
        `${r.n} lanes, first lane list after ${r.added} new lanes: ${r.afterNew.toFixed(0)} ms (${(r.afterNew / r.added).toFixed(1)} ms a new lane); ratio ${ratio.toFixed(2)} to the new lanes' sequential git status floor ${r.newFloor.toFixed(0)} ms (their git status runs ${PARALLEL} at once: ${(1 / PARALLEL).toFixed(2)} is the parallel cost${mark}); ${r.newLoad}`,
      );
    }
    /**
     * Lanes of a repository made here, whose agents exited, each counted once as a running
     * daemon would have; then the first list after each restart against the sequential floor.
     * `write` fills the repository's folder.
     */
    const realCase = async (name: string, lanes: number, files: number, write: (dir: string) => void) => {
      const repo = path.join(s.home, name);
      fs.mkdirSync(repo);
      git(repo, s.env, 'init', '-q', '--initial-branch=main');
      write(repo);
      fs.writeFileSync(path.join(repo, 'README.md'), `${name}\n`);
      git(repo, s.env, 'add', '.');
      git(repo, s.env, 'commit', '-q', '-m', name);
      svcOk(['project', 'add', name, repo]);
      await launch(name, name, 0, lanes);
      const laneRoot = `${repo}-lanes`;
      while (fs.readdirSync(laneRoot).filter((d) => fs.existsSync(path.join(laneRoot, d, 'README.md'))).length < lanes)
        await sleep(100);
      const caseList = listOf(name);
      // Counted as a running daemon would have: once its agents are gone, and once more.
      caseList();
      await sleep(2000);
      caseList();
      const dirs = fs.readdirSync(laneRoot).map((d) => path.join(laneRoot, d));
      // Each implementation of the dirty flags (server/git/dirtyFlags.ts) in the same minutes.
      const layout = fs.existsSync(path.join(laneRoot, '.git-lanes')) ? 'own' : 'shared';
      for (const keeper of KEEPER)
        for (const kind of DIRTY_FLAGS) {
          useDirtyFlags(kind === 'default' ? undefined : kind);
          const daemonEnv = keeper === 'off' ? { ...s.env, SVC_FACTS_KEEPER: '0' } : s.env;
          const f = firstAfterRestart(caseList, sequentialStatus(dirs), daemonEnv);
          const ratio = f.first / f.floor;
          const again = time(caseList); // the daemon's second list: what a view's refresh costs
          console.log(
            `${lanes} lanes of a ${files}-file repository, lanes.git ${layout}, facts keeper ${keeper}, git.dirty_flags ${kind}, first lane list after a daemon restart: ${f.first.toFixed(0)} ms (median of ${RESTARTS}; runs ${f.runs.map((x) => x.toFixed(0)).join(' ')}); ratio ${ratio.toFixed(2)} to the sequential git status floor ${f.floor.toFixed(0)} ms (target ≤ ${REAL_TARGET}: ${ratio <= REAL_TARGET ? 'met' : 'MISSED'}); the list after it ${again.toFixed(0)} ms, ratio ${(again / f.floor).toFixed(2)}; ${f.load}`,
          );
        }
      useDirtyFlags(undefined);
      if (KEEPER.includes('off')) {
        svcOk(['daemon', 'stop', '--force']); // the next case's daemon runs with the keeper
        svcOk(['daemon', 'status']);
      }
    };
    if (BIG_LANES > 0)
      await realCase('big', BIG_LANES, BIG_FILES, (dir) => {
        for (let d = 0; d < BIG_FILES / 100; d++) {
          fs.mkdirSync(path.join(dir, `d${d}`));
          for (let f = 0; f < 100; f++) fs.writeFileSync(path.join(dir, `d${d}`, `f${f}.txt`), `${d}/${f}\n`);
        }
      });
    // A real repository's shape: deep paths (five levels, ~1,700 folders), sources of a few
    // hundred bytes, and a few binaries of 64 KiB to 1 MiB.
    if (HUGE_LANES > 0)
      await realCase('huge', HUGE_LANES, HUGE_FILES, (dir) => {
        for (let i = 0; i < HUGE_FILES; i++) {
          const sub = path.join(dir, 'src', `a${i % 6}`, `b${i % 7}`, `c${i % 5}`, `d${i % 8}`);
          fs.mkdirSync(sub, { recursive: true });
          fs.writeFileSync(
            path.join(sub, `module${i}.ts`),
            `// module ${i}\nexport const value${i} = ${i};\n`.repeat(4),
          );
        }
        for (let i = 0; i < 16; i++)
          fs.writeFileSync(path.join(dir, `asset${i}.bin`), Buffer.alloc(64 * 1024 * (1 + (i % 16)), (i * 37) & 0xff));
      });
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

runBench(main);
