// The fault test: SIGKILL the daemon at random moments while 150 `svc lane report` and
// 20 `svc lane start` commands run against it (the shims start a new daemon each time).
// No command may exit 0 unless its effect is in the store, no report may be stored twice,
// every failure must say what happened, and the store must pass `PRAGMA integrity_check`.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import type { LaneRecord } from '../../shared/protocol/lanes';
import { alive, daemonPids, discoveryOf } from '../helpers/daemonProcs';
import { laneWorld, ok, startLane, tryStartLane } from '../helpers/lanes';
import type { LaneWorld } from '../helpers/lanes';
import { laneEnv } from '../helpers/laneEnv';
import { makeScratch, sleep } from '../helpers/scratch';
import type { RunResult, Scratch } from '../helpers/scratch';
import { writeBrief } from '../helpers/scriptBrief';

const REPORTS = 150;
const LAUNCHES = 20;
const PARALLEL = 8;
const KILLS = 12;

/** A small seeded generator, so a failing run can be replayed with SVC_FAULT_SEED. */
function mulberry32(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// What a command cut off by the kill may say; anything else is a bug.
const CUT_OFF = [
  /^svc: the connection to the daemon closed before it answered lanes\/(report|start) \(the daemon stopped or died\); the action may or may not have happened: check with `svc lane (show \d+|list --run ft)` before trying again\.\n$/,
  /^svc daemon did not come up within \d+ s/,
  /^svc daemon failed to start/,
];

describe('fault: SIGKILL of the daemon during reports and launches', function () {
  this.timeout(600_000);
  let s: Scratch;
  let w: LaneWorld;
  let orch: LaneRecord;

  before(async () => {
    s = makeScratch('daemonKillFault');
    w = await laneWorld(s);
    await startLane(w, {
      run: 'ft',
      key: 'lead',
      role: 'orchestrator',
      model: 'm',
      brief: writeBrief(w.briefs, 'idle.md', [{ say: 'ready' }]),
    });
    orch = (JSON.parse((await ok(s.svc(['lane', 'list', '--json']))).stdout) as LaneRecord[]).find(
      (l) => l.name === 'ft-lead-orchestrator-i1',
    )!;
  });
  after(async () => s.dispose());

  it('no command exits 0 unless its effect is stored; the store passes integrity_check', async () => {
    const seed = Number(process.env.SVC_FAULT_SEED ?? Date.now() % 1_000_000);
    const random = mulberry32(seed);
    const env = laneEnv(s, orch);
    type Job = { kind: 'report' | 'launch'; n: number; result?: RunResult };
    const jobs: Job[] = [
      ...Array.from({ length: REPORTS }, (_, n) => ({ kind: 'report' as const, n })),
      ...Array.from({ length: LAUNCHES }, (_, n) => ({ kind: 'launch' as const, n })),
    ].sort(() => random() - 0.5);

    // Each kill lands at a random moment of a daemon's life (after it wrote server.json),
    // a bounded number of times, so the run stays moderate on a loaded machine.
    let done = false;
    let kills = 0;
    const killer = (async () => {
      let last = 0;
      while (!done && kills < KILLS) {
        await sleep(100);
        let pid: number;
        try {
          pid = discoveryOf(s).pid;
        } catch {
          continue; // between daemons: no server.json yet
        }
        if (pid === last || !alive(pid)) continue;
        await sleep(100 + random() * 1500);
        if (done) break;
        process.kill(pid, 'SIGKILL');
        last = pid;
        kills++;
      }
    })();

    const queue = [...jobs];
    const worker = async () => {
      for (let job = queue.shift(); job; job = queue.shift()) {
        job.result =
          job.kind === 'report'
            ? await s.svc(['lane', 'report', '--stdin'], {
                env,
                cwd: orch.cwd,
                input: `fault report ${job.n}\n`,
                timeoutMs: 120_000,
              })
            : await tryStartLane(w, {
                run: 'ft',
                key: `p${job.n}`,
                role: 'play',
                model: 'm',
                noWait: true,
                prompt: 'x',
              });
      }
    };
    const t0 = Date.now();
    await Promise.all(Array.from({ length: PARALLEL }, worker));
    done = true;
    await killer;
    const seconds = (Date.now() - t0) / 1000;

    // Read the store with the daemon stopped: exactly what is on disk.
    await s.svc(['daemon', 'stop', '--force']);
    for (const pid of daemonPids(s.svcHome)) process.kill(pid, 'SIGKILL');
    const db = new Database(path.join(s.svcHome, 'svc.db'), { readonly: true });
    try {
      assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
      const bodies = db.prepare('SELECT body FROM reports WHERE conv_id = ?').pluck().all(orch.id) as string[];
      const keys = new Set(
        db.prepare("SELECT lane_key FROM lanes WHERE run_key = 'ft' AND role = 'play'").pluck().all() as string[],
      );
      const counts = new Map<string, number>();
      for (const b of bodies) counts.set(b, (counts.get(b) ?? 0) + 1);

      const problems: string[] = [];
      let succeeded = 0;
      for (const job of jobs) {
        const r = job.result!;
        const what = `${job.kind} ${job.n} (exit ${r.code}) stdout=${JSON.stringify(r.stdout)} stderr=${JSON.stringify(r.stderr)}`;
        if (job.kind === 'report') {
          const stored = counts.get(`fault report ${job.n}\n`) ?? 0;
          if (stored > 1) problems.push(`stored ${stored} times: ${what}`);
          if (r.code === 0) {
            succeeded++;
            if (stored !== 1) problems.push(`exit 0 but not stored: ${what}`);
            if (!/^Report \d+ filed for ft-lead-orchestrator-i1: done\n$/.test(r.stdout))
              problems.push(`exit 0 without its line: ${what}`);
          } else if (r.code !== 1 || !CUT_OFF.some((re) => re.test(r.stderr)))
            problems.push(`unexplained failure: ${what}`);
        } else if (r.code === 0) {
          succeeded++;
          if (!keys.has(`p${job.n}`)) problems.push(`exit 0 but no lane stored: ${what}`);
          if (!new RegExp(`^Lane ft/p${job.n} play i1: conv \\d+ `).test(r.stdout))
            problems.push(`exit 0 without its line: ${what}`);
        } else if (r.code !== 1 || !CUT_OFF.some((re) => re.test(r.stderr)))
          problems.push(`unexplained failure: ${what}`);
      }
      process.stdout.write(
        `      seed ${seed}: ${kills} kills in ${seconds.toFixed(1)} s; ${succeeded}/${jobs.length} commands succeeded; ${bodies.length} reports stored\n`,
      );
      assert.deepEqual(problems, [], `seed ${seed}`);
      assert.ok(kills >= 3, `the daemon was killed only ${kills} times (seed ${seed})`);
    } finally {
      db.close();
    }
  });
});
