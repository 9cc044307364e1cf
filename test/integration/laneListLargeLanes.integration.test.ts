// The first `svc lane list` after a daemon restart over many lanes of a large repository
// (issue 43's defect): it re-checks each lane by its tracked files' stat data, work that
// grows with the repository. Done on the daemon's own thread, a list of 35 lanes of a
// 38,000-file repository held every other request for seconds, starved the timers bounding
// git (which then gave up on commands that had answered: `?` on every lane), and did the
// same on every list after. This pins the fix: a small request is answered within 1 s while
// such a list runs, and the lists after a restart show facts on every lane.
// The lanes take the default layout (`lanes.git: own`, a repository of their own each),
// whose facts come from a `git status` per lane kept by the facts keeper
// (server/git/keeperDirtyFlags.ts), a process that outlives the daemon: after a restart the
// untouched lanes are answered from it. The daemon runs under each git.dirty_flags setting
// (plain, and kept, the default for shared lanes), which must not change that.
// The repository is made here: many files at deep paths and a few binaries, checked out in
// every lane (sizes chosen so the re-checks take seconds of work, the test well under a minute).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { daemonStatus } from '../../shared/protocol/daemon';
import { lanesStart } from '../../shared/protocol/lanes';
import type { LaneRecord } from '../../shared/protocol/lanes';
import { laneWorld, ok } from '../helpers/lanes';
import type { LaneWorld } from '../helpers/lanes';
import { rpcRequest } from '../helpers/rpc';
import { eventually, git, makeScratch, sleep } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import { scriptBlock } from '../helpers/scriptBrief';

const LANES = 30;
const FILES = 5000;
const BINARIES = 8;
/** The bound of the issue: a small request answered within 1 s while the list runs. */
const ANSWER_MS = 1000;

describe('lane list over many large lanes after a daemon restart', function () {
  this.timeout(300_000);
  let s: Scratch;
  let w: LaneWorld;
  let big: string;
  /** config.yaml as laneWorld wrote it. */
  let baseConfig = '';

  const list = async (): Promise<LaneRecord[]> =>
    JSON.parse((await ok(s.svc(['lane', 'list', '--run', 'big', '--json']))).stdout) as LaneRecord[];
  /** Restarts the daemon on `kind`'s dirty flags (read at its start). */
  const restart = async (kind: string) => {
    await ok(s.svc(['daemon', 'stop', '--force']));
    fs.writeFileSync(path.join(s.svcHome, 'config.yaml'), `${baseConfig}git:\n  dirty_flags: ${kind}\n`);
    await ok(s.svc(['daemon', 'status'])); // starts it: the daemon's own start is not the list's
  };

  before(async () => {
    s = makeScratch('large-lanes');
    w = await laneWorld(s);
    const config = path.join(s.svcHome, 'config.yaml');
    baseConfig = fs.existsSync(config) ? fs.readFileSync(config, 'utf8') : '';
    big = path.join(s.home, 'big');
    fs.mkdirSync(big);
    git(big, s.env, 'init', '-q', '--initial-branch=main');
    for (let i = 0; i < FILES; i++) {
      const dir = path.join(big, 'src', `m${i % 8}`, `p${i % 5}`, `q${i % 7}`, `r${i % 3}`);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, `file${i}.ts`), `export const v${i} = ${i};\n`);
    }
    for (let i = 0; i < BINARIES; i++)
      fs.writeFileSync(path.join(big, `asset${i}.bin`), Buffer.alloc(64 * 1024, i * 31 + 7));
    fs.writeFileSync(path.join(big, 'README.md'), 'big\n');
    git(big, s.env, 'add', '.');
    git(big, s.env, 'commit', '-q', '-m', 'big');
    await ok(s.svc(['project', 'add', 'big', big]));
    const brief = scriptBlock([{ exit: 0 }]);
    for (let made = 0; made < LANES; made += 3) {
      await Promise.all(
        [0, 1, 2].map((j) =>
          rpcRequest(s.svcHome, lanesStart, {
            parent: String(w.rootId),
            project: 'big',
            harness: 'script',
            run: 'big',
            key: `k${made + j}`,
            role: 'builder',
            model: 'm',
            prompt: brief,
            noWait: true,
          }),
        ),
      );
    }
    // Every lane checked out, its agent gone, and counted clean once, as a running daemon would have.
    await eventually(
      async () => {
        const lanes = await list();
        return lanes.length === LANES && lanes.every((l) => l.endedAt !== null && l.git?.dirty === false);
      },
      240_000,
      `${LANES} lanes checked out, exited and clean`,
    );
  });
  after(async () => s.dispose());

  for (const kind of ['plain', 'kept']) {
    it(`${kind}: answers a small request within 1 s while the first list re-checks every lane`, async () => {
      await restart(kind);
      let listed = false;
      const first = s.svc(['lane', 'list', '--run', 'big', '--json']).finally(() => {
        listed = true;
      });
      const waits: number[] = [];
      while (!listed) {
        const t = Date.now();
        const info = await rpcRequest(s.svcHome, daemonStatus, {});
        if (listed) break; // answered after the list: says nothing about a list in progress
        waits.push(Date.now() - t);
        assert.equal(typeof info.pid, 'number');
        await sleep(50);
      }
      const r = await ok(first);
      assert.equal((JSON.parse(r.stdout) as LaneRecord[]).length, LANES);
      assert.ok(
        waits.length >= 2,
        `the list ended before two requests could be timed during it (${waits.join(' ')} ms)`,
      );
      assert.ok(
        Math.max(...waits) < ANSWER_MS,
        `daemon/status during the first list: ${waits.join(' ')} ms (bound ${ANSWER_MS} ms)`,
      );
    });

    it(`${kind}: shows facts on every lane from the second list after a restart on, ten lists in a row`, async () => {
      await restart(kind);
      for (let i = 1; i <= 10; i++) {
        const lanes = await list();
        assert.equal(lanes.length, LANES);
        if (i === 1) continue; // the first may still learn (the bound is from the second on)
        assert.equal(new Set(lanes.map((l) => l.git?.branch)).size, LANES, `list ${i}: a branch of its own per lane`);
        for (const l of lanes) {
          assert.equal(l.gitUnavailable, null, `list ${i}, ${l.name}`);
          assert.ok(l.git?.branch, `list ${i}, ${l.name}: a branch`);
          assert.equal(l.git?.dirty, false, `list ${i}, ${l.name}`);
          assert.equal(l.git?.headSha, git(big, s.env, 'rev-parse', 'main'), `list ${i}, ${l.name}`);
        }
      }
    });
  }
});
