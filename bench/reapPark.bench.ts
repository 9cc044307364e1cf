// `svc lane reap --park` of a lane holding thousands of dirty paths (edits, renames, new
// binaries, deletions) in a repository of a real size (deep paths, binaries), against the
// floor of what a person would type for the same tree: `git stash -u` and
// `git worktree remove`. Each round parks one lane and stashes one worktree made the same
// way, one after the other; the median of ROUNDS is printed. Target ≤ 1.3× (issue 43),
// with the park's verification kept (the patch applied to a scratch index, the restore
// rehearsed against the disk).
// Sizes: SVC_BENCH_PARK_FILES (default 30,000 files) and SVC_BENCH_PARK_DIRTY (3,600 paths).
// Run: npm run bench -- reapPark
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { newScriptConversation, ok, startLane } from '../test/helpers/lanes';
import { git, makeScratch } from '../test/helpers/scratch';
import { writeBrief } from '../test/helpers/scriptBrief';
import { median } from './acpFloor';
import { loadAverage } from './loadAverage';
import { runBench } from './runBench';

const FILES = Number(process.env.SVC_BENCH_PARK_FILES ?? 30000);
const DIRTY = Number(process.env.SVC_BENCH_PARK_DIRTY ?? 3600);
const ROUNDS = 3;
const TARGET = 1.3;

function timed(fn: () => void): number {
  const t = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
}

/** A repository's shape: five folder levels (~1,700 folders), small sources, some binaries. */
function writeRepository(dir: string): void {
  for (let i = 0; i < FILES; i++) {
    const sub = path.join(dir, 'src', `a${i % 6}`, `b${i % 7}`, `c${i % 5}`, `d${i % 8}`);
    fs.mkdirSync(sub, { recursive: true });
    if (i % 200 === 0) fs.writeFileSync(path.join(sub, `asset${i}.bin`), Buffer.alloc(16 * 1024, i & 0xff));
    else
      fs.writeFileSync(path.join(sub, `module${i}.ts`), `// module ${i}\nexport const value${i} = ${i};\n`.repeat(4));
  }
}

/** The same DIRTY changes in any worktree of the repository: edits, renames, new binaries, deletions. */
function makeDirty(dir: string, tracked: string[]): void {
  for (let n = 0; n < DIRTY; n++) {
    const file = path.join(dir, tracked[(n * 7) % tracked.length]);
    switch (n % 6) {
      case 3:
        fs.renameSync(file, `${file}.moved`);
        break;
      case 4:
        fs.writeFileSync(path.join(path.dirname(file), `new${n}.bin`), Buffer.alloc(4096, n & 0xff));
        break;
      case 5:
        fs.rmSync(file);
        break;
      default:
        fs.appendFileSync(file, `// edit ${n}\n`);
    }
  }
}

async function main(): Promise<void> {
  const s = makeScratch('bench-park');
  try {
    const repo = path.join(s.home, 'park');
    fs.mkdirSync(repo);
    git(repo, s.env, 'init', '-q', '--initial-branch=main');
    writeRepository(repo);
    git(repo, s.env, 'add', '.');
    git(repo, s.env, 'commit', '-q', '-m', 'a repository of a real size');
    const tracked = git(repo, s.env, 'ls-files').split('\n').filter(Boolean);
    await ok(s.svc(['project', 'add', 'proj', repo]));
    const parent = await newScriptConversation(s, { prompt: 'I orchestrate.' });
    const brief = writeBrief(path.join(s.home, 'briefs'), 'report.md', [
      { run: "printf 'nothing to build\\n' | svc lane report --stdin --allow-unpushed", check: true },
    ]);
    const parks: number[] = [];
    const floors: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const lane = await startLane(s, {
        parent,
        project: 'proj',
        run: 'park',
        key: `k${round}`,
        role: 'builder',
        model: 'm',
        brief,
      });
      await ok(s.svc(['lane', 'wait', lane.name, '--timeout', '170'], { timeoutMs: 180_000 }));
      makeDirty(lane.cwd, tracked);
      parks.push(
        timed(() => {
          const r = spawnSync(
            process.execPath,
            [path.join(__dirname, '..', 'dist', 'svc.js'), 'lane', 'reap', lane.name, '--park'],
            {
              env: s.env,
              encoding: 'utf8',
            },
          );
          if (r.status !== 0) throw new Error(`svc lane reap --park: ${r.stderr}`);
        }),
      );
      const floorDir = path.join(s.home, `floor-${round}`);
      git(repo, s.env, 'worktree', 'add', '-q', '-b', `floor/${round}`, floorDir);
      makeDirty(floorDir, tracked);
      floors.push(
        timed(() => {
          for (const args of [
            ['stash', '-u', '-q'],
            ['worktree', 'remove', floorDir],
          ]) {
            const r = spawnSync('git', args, {
              cwd: args[0] === 'stash' ? floorDir : repo,
              env: s.env,
              encoding: 'utf8',
            });
            if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
          }
        }),
      );
    }
    const ratio = median(parks) / median(floors);
    console.log(
      `reap --park of ${DIRTY} dirty paths in a ${FILES}-file tree: ${median(parks).toFixed(0)} ms (median of ${ROUNDS}; runs ${parks.map((x) => x.toFixed(0)).join(' ')}); ratio ${ratio.toFixed(2)} to git stash -u + git worktree remove ${median(floors).toFixed(0)} ms (runs ${floors.map((x) => x.toFixed(0)).join(' ')}; target ≤ ${TARGET}: ${ratio <= TARGET ? 'met' : 'MISSED'}); ${loadAverage()}`,
    );
  } finally {
    await s.dispose();
  }
}

runBench(main);
