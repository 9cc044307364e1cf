// A lane launch as a user feels it: `svc lane start` (no --no-wait) of a builder in a
// 20,000-file repository with a local origin, timed until it answers — the lane's worktree
// made and its agent started. Two floors, measured in the same run and interleaved: what any
// launch must do at least — `git worktree add` of the same size and the same agent started
// directly over ACP, one after another (no fetch: svc skips a fetch whose remote ref has not
// moved, as here) — and the same with the `git fetch` of the base branch before it (what a
// launch costs when the remote moved). Target ≤ 1.1× the no-fetch floor. And a launch after
// the remote moved (a commit pushed to origin, untimed), which must fetch, against the fetch
// floor after the remote moved the same way: target ≤ 1.1× too. Also printed:
// `svc lane start --no-wait` (answers once the worktree exists, before the agent starts)
// against the bare `git worktree add`.
// Run: npm run bench -- launch
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { laneWorld } from '../test/helpers/lanes';
import { git, makeScratch } from '../test/helpers/scratch';
import { directAcp, median, ms } from './acpFloor';
import { runBench } from './runBench';

const RUNS = Number(process.env.SVC_BENCH_RUNS ?? 7);
const FILES = Number(process.env.SVC_BENCH_FILES ?? 20_000);
const TARGET = 1.1;

async function main(): Promise<void> {
  const s = makeScratch('bench-launch');
  try {
    const w = await laneWorld(s);
    const svcJs = path.join(__dirname, '..', 'dist', 'svc.js');
    // A FILES-file repository with a local bare origin, as a project.
    const origin = path.join(s.home, 'big-origin.git');
    const big = path.join(s.home, 'big');
    git(s.home, s.env, 'init', '-q', '--bare', '--initial-branch=main', origin);
    git(s.home, s.env, 'clone', '-q', origin, big);
    for (let d = 0; d < FILES / 100; d++) {
      const dir = path.join(big, `d${d}`);
      fs.mkdirSync(dir);
      for (let f = 0; f < 100; f++) fs.writeFileSync(path.join(dir, `f${f}.txt`), `${d}/${f}\n`);
    }
    git(big, s.env, 'add', '.');
    git(big, s.env, 'commit', '-q', '-m', 'big');
    git(big, s.env, 'push', '-q', 'origin', 'HEAD:main');
    await s.svc(['project', 'add', 'big', big]);

    const launch = (i: number, noWait: boolean): number => {
      const t0 = ms();
      const r = spawnSync(
        process.execPath,
        [
          svcJs,
          'lane',
          'start',
          '--parent',
          String(w.rootId),
          '--project',
          'big',
          '--harness',
          'script',
          '--run',
          noWait ? 'nw' : 'big',
          '--key',
          `k${i}`,
          '--role',
          'builder',
          '--model',
          'm',
          '--prompt',
          'hi',
          '--json',
          ...(noWait ? ['--no-wait'] : []),
        ],
        { env: s.env, encoding: 'utf8' },
      );
      const t = ms() - t0;
      if (r.status !== 0) throw new Error(r.stderr);
      return t;
    };
    const fetchBase = () =>
      spawnSync('git', ['fetch', '--quiet', '--no-tags', 'origin', '+refs/heads/main:refs/remotes/origin/main'], {
        cwd: big,
        env: s.env,
      });
    const addWorktree = (name: string) => {
      const dir = path.join(s.home, name);
      spawnSync('git', ['worktree', 'add', '-q', '-b', name, dir, 'origin/main'], { cwd: big, env: s.env });
      return dir;
    };
    const floor = async (i: number): Promise<{ all: number; add: number; fetch: number }> => {
      const t0 = ms();
      fetchBase();
      const a0 = ms();
      const dir = addWorktree(`plain-${i}`);
      const add = ms() - a0;
      await directAcp(dir, 'started');
      return { all: ms() - t0, add, fetch: a0 - t0 };
    };
    // The remote moving: a commit pushed to origin from a clone of it (untimed), so the next
    // launch, and the next floor, have something to fetch.
    const mover = path.join(s.home, 'mover');
    git(s.home, s.env, 'clone', '-q', origin, mover);
    const moveOrigin = (i: number) => {
      git(mover, s.env, 'commit', '-q', '--allow-empty', '-m', `moved ${i}`);
      git(mover, s.env, 'push', '-q', 'origin', 'HEAD:main');
    };
    // Warm the disk cache and the daemon's first launch in this project.
    launch(-1, false);
    await floor(-1);

    const launches: number[] = [];
    const floors: number[] = [];
    const adds: number[] = [];
    const noFetch: number[] = [];
    const noWaits: number[] = [];
    const movedLaunches: number[] = [];
    const movedFloors: number[] = [];
    // Each timed step starts with the disk's write-back done (`sync`, not timed): a 20,000-file
    // checkout leaves ~80 MB to write, and flushing the previous step's files during the next
    // one made single `git worktree add`s take 2–12 s here, whichever side was timed.
    const settled = <T>(step: () => T): T => (spawnSync('sync'), step());
    for (let i = 0; i < RUNS; i++) {
      launches.push(settled(() => launch(i, false)));
      const f = await settled(() => floor(i));
      floors.push(f.all);
      adds.push(f.add);
      noFetch.push(f.all - f.fetch);
      noWaits.push(settled(() => launch(i, true)));
      // The remote moved: the launch must fetch, as the floor does.
      moveOrigin(2 * i);
      movedLaunches.push(settled(() => launch(i + RUNS, false)));
      moveOrigin(2 * i + 1);
      movedFloors.push((await settled(() => floor(i + RUNS))).all);
    }
    const ml = median(movedLaunches);
    const mf = median(movedFloors);
    const l = median(launches);
    const f = median(floors);
    const nw = median(noWaits);
    const ad = median(adds);
    const nf = median(noFetch);
    console.log(
      `floors (${FILES} files, median of ${RUNS}): git worktree add + the agent started over ACP ${nf.toFixed(0)} ms (runs ${noFetch.map((x) => x.toFixed(0)).join(' ')}); with git fetch first ${f.toFixed(0)} ms (runs ${floors.map((x) => x.toFixed(0)).join(' ')})`,
    );
    console.log(
      `lane start → worktree made and agent started: ${l.toFixed(0)} ms (runs ${launches.map((x) => x.toFixed(0)).join(' ')})`,
    );
    console.log(
      `lane start (remote unmoved, no fetch): ratio ${(l / nf).toFixed(2)} to the no-fetch floor ${nf.toFixed(0)} ms (target ≤ ${TARGET}: ${l / nf <= TARGET ? 'met' : 'MISSED'}); ratio ${(l / f).toFixed(2)} to the fetch floor ${f.toFixed(0)} ms; load ${os
        .loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')}`,
    );
    console.log(
      `lane start (remote moved, fetched): ${ml.toFixed(0)} ms (runs ${movedLaunches.map((x) => x.toFixed(0)).join(' ')}); ratio ${(ml / mf).toFixed(2)} to the fetch floor (remote moved too) ${mf.toFixed(0)} ms (runs ${movedFloors.map((x) => x.toFixed(0)).join(' ')}) (target ≤ ${TARGET}: ${ml / mf <= TARGET ? 'met' : 'MISSED'}); load ${os
        .loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')}`,
    );
    console.log(
      `lane start --no-wait → worktree made: ${nw.toFixed(0)} ms; ratio ${(nw / ad).toFixed(2)} to the floor, bare git worktree add ${ad.toFixed(0)} ms`,
    );
  } finally {
    await s.dispose();
  }
}

runBench(main);
