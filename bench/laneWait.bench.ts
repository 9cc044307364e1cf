// `svc lane wait` wake-up: a lane files a report while W waiters wait on it (`lanes/wait`
// requests, as `svc lane wait <lane>` sends them); the time from the report's own timestamp
// until the last waiter has its answer, with 1 and with 200 waiters. The floor is the
// single waiter of the same run; the ratio says how the wake-up grows with the waiters
// (linear would be ×200). Then what a person or an agent sees: a real `svc lane wait <lane>`
// process, from the report's timestamp until that process has exited, against the same
// in-process single waiter. Run: npm run bench -- laneWait
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { lanesStart, lanesWait } from '../shared/protocol/lanes';
import { laneWorld } from '../test/helpers/lanes';
import { makeScratch, sleep, SVC_JS } from '../test/helpers/scratch';
import { scriptBlock } from '../test/helpers/scriptBrief';
import { rpc } from '../test/integration/convSupport';
import { median } from './acpFloor';
import { loadAverage } from './loadAverage';
import { runBench } from './runBench';

const WAITERS = [1, 200];
const RUNS = Number(process.env.SVC_BENCH_RUNS ?? 5);

async function main(): Promise<void> {
  const s = makeScratch('bench-wait');
  try {
    const w = await laneWorld(s);
    const c = await rpc(s);
    const results = new Map<number, number[]>();
    let k = 0;
    for (let run = 0; run < RUNS; run++) {
      for (const n of WAITERS) {
        // The lane reports once the bench creates `go` in its directory (all waiters in place).
        const brief = scriptBlock([
          { run: "while [ ! -f go ]; do sleep 0.02; done; printf 'woke\\n' | svc lane report --stdin --status failed" },
        ]);
        const lane = await c.sendRequest<{ name: string; cwd: string }>(lanesStart.method, {
          parent: String(w.rootId),
          harness: 'script',
          run: 'wait',
          key: `k${k++}`,
          role: 'builder',
          model: 'm',
          prompt: brief,
        });
        const answered: number[] = [];
        const waits = Array.from({ length: n }, () =>
          c
            .sendRequest<{ outcome: string; report: { at: number } | null }>(lanesWait.method, {
              lane: lane.name,
              timeoutS: 120,
            })
            .then((r) => {
              if (r.outcome !== 'report') throw new Error(`waiter woke with ${r.outcome}`);
              answered.push(Date.now());
              return r.report!.at;
            }),
        );
        await sleep(1000 + n * 5); // every request has reached the daemon and waits
        fs.writeFileSync(path.join(lane.cwd, 'go'), '');
        const at = (await Promise.all(waits))[0];
        results.set(n, [...(results.get(n) ?? []), Math.max(...answered) - at]);
      }
      // One real `svc lane wait` process: its exit is what the waiting shell or agent sees.
      const brief = scriptBlock([
        { run: "while [ ! -f go ]; do sleep 0.02; done; printf 'woke\\n' | svc lane report --stdin --status failed" },
      ]);
      const lane = await c.sendRequest<{ name: string; cwd: string }>(lanesStart.method, {
        parent: String(w.rootId),
        harness: 'script',
        run: 'wait',
        key: `k${k++}`,
        role: 'builder',
        model: 'm',
        prompt: brief,
      });
      const waiter = spawn(process.execPath, [SVC_JS, 'lane', 'wait', lane.name], {
        env: s.env,
        stdio: ['ignore', 'pipe', 'ignore'], // its `next: …` line is no part of the measure
      });
      let out = '';
      waiter.stdout.on('data', (d: Buffer) => (out += d.toString()));
      const exited = new Promise<number>((resolve) => waiter.on('exit', () => resolve(Date.now())));
      // An in-process waiter alongside, only for the report's timestamp.
      const report = c.sendRequest<{ report: { at: number } | null }>(lanesWait.method, {
        lane: lane.name,
        timeoutS: 120,
      });
      await sleep(1500); // the process has started, connected and waits
      fs.writeFileSync(path.join(lane.cwd, 'go'), '');
      const end = await exited;
      const at = (await report).report!.at;
      if (!out.includes('woke')) throw new Error(`svc lane wait printed no report: ${out}`);
      results.set(0, [...(results.get(0) ?? []), end - at]);
    }
    c.end();
    const one = median(results.get(1)!);
    const proc = median(results.get(0)!);
    console.log(
      `svc lane wait process: ${proc.toFixed(0)} ms from the report to its exit (median of ${RUNS}; runs ${results
        .get(0)!
        .map((x) => x.toFixed(0))
        .join(
          ' ',
        )}); ratio ${(proc / Math.max(one, 1)).toFixed(2)} to the floor, one in-process waiter ${one.toFixed(0)} ms; ${loadAverage()}`,
    );
    for (const n of WAITERS) {
      const m = median(results.get(n)!);
      console.log(
        `lane wait wake-up, ${n} waiter${n === 1 ? '' : 's'}: ${m.toFixed(0)} ms from the report to the last answer (median of ${RUNS}; runs ${results
          .get(n)!
          .map((x) => x.toFixed(0))
          .join(
            ' ',
          )})${n === 1 ? '' : `; ratio ${(m / Math.max(one, 1)).toFixed(2)} to one waiter (×${n} would be linear)`}`,
      );
    }
  } finally {
    await s.dispose();
  }
}

runBench(main);
