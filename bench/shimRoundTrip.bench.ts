// The shim round trip: wall time of `svc daemon status` against a warm daemon, as a
// ratio to the floor `node -e 0` measured in the same run (so the machine's speed and
// load cancel out). Median of RUNS each, interleaved. Target ≤ 1.15×. Prints; never asserts.
// Run: npm run bench (all benches) or: npm run build && npx tsx bench/shimRoundTrip.bench.ts
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { makeScratch, REPO } from '../test/helpers/scratch';
import { loadAverage } from './loadAverage';
import { runBench } from './runBench';

const RUNS = Number(process.env.SVC_BENCH_RUNS ?? 15);
const TARGET = 1.15;
// bin/svc, as users run it: it turns on Node's compile cache where Node has one (22.1+).
const SVC_BIN = path.join(REPO, 'bin', 'svc');

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** Wall milliseconds of one process run to its exit; throws if it fails. */
function timed(args: string[], env: NodeJS.ProcessEnv): number {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

async function main(): Promise<void> {
  const s = makeScratch('bench-shim');
  try {
    const status = [SVC_BIN, 'daemon', 'status'];
    const floorArgs = ['-e', '0'];
    // Start the daemon and warm both paths (disk cache, the daemon's first requests).
    for (let i = 0; i < 3; i++) {
      timed(status, s.env);
      timed(floorArgs, s.env);
    }
    const shim: number[] = [];
    const floor: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      shim.push(timed(status, s.env));
      floor.push(timed(floorArgs, s.env));
    }
    const sm = median(shim);
    const fm = median(floor);
    const ratio = sm / fm;
    console.log(
      `svc daemon status, warm daemon (median of ${RUNS}): ${sm.toFixed(1)} ms; floor node -e 0: ${fm.toFixed(1)} ms; ` +
        `ratio ${ratio.toFixed(2)} (target ≤ ${TARGET}: ${ratio <= TARGET ? 'met' : 'MISSED'}); ${loadAverage()}`,
    );
    console.log(`  svc  runs: ${shim.map((x) => x.toFixed(0)).join(' ')} ms`);
    console.log(`  node runs: ${floor.map((x) => x.toFixed(0)).join(' ')} ms`);
  } finally {
    await s.dispose();
  }
}

runBench(main);
