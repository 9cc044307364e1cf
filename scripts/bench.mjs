// `npm run bench`: builds, then runs every bench/*.bench.ts (or those named on the command
// line, e.g. `npm run bench -- shimRoundTrip`) one after another with tsx, and ends with
// the ratio lines of all of them, each with the load average it ran under. A benchmark
// prints; it does not assert: the exit code is non-zero only when a benchmark crashed or hung.
// A bench is done when its own process exits, not when its output pipe closes: a daemon or
// agent it started that outlives it (and holds the pipe) must not keep the run waiting, and
// one that does not exit within SVC_BENCH_TIMEOUT_S (default 1800) is ended and reported.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const benchDir = path.join(root, 'bench');
const wanted = process.argv.slice(2).map((a) => a.replace(/\.bench\.ts$/, '').replace(/^bench\//, ''));
const all = fs
  .readdirSync(benchDir)
  .filter((f) => f.endsWith('.bench.ts'))
  .sort();
const files = wanted.length ? all.filter((f) => wanted.includes(f.replace(/\.bench\.ts$/, ''))) : all;
if (wanted.length && files.length !== wanted.length) {
  console.error(
    `unknown bench: ${wanted.filter((w) => !all.includes(`${w}.bench.ts`)).join(', ')} (have: ${all.join(', ')})`,
  );
  process.exit(1);
}

const build = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
const timeoutMs = Number(process.env.SVC_BENCH_TIMEOUT_S ?? 1800) * 1000;
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
const cpus = os.cpus();
const machine = `${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${os.type()} ${os.release()} ${os.arch()}, Node ${process.versions.node}, ${spawnSync('git', ['--version'], { encoding: 'utf8' }).stdout.trim()}`;

/** Runs one bench; resolves when its process exits (or it is ended after timeoutMs). */
function runBench(file) {
  return new Promise((resolve) => {
    // Its own process group, so a hung bench is ended with everything it started.
    const child = spawn(tsx, [path.join(benchDir, file)], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
      detached: true,
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d.toString();
      process.stdout.write(d);
    });
    let hung = false;
    const timer = setTimeout(() => {
      hung = true;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }, timeoutMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      child.stdout.destroy(); // a leftover holder of the pipe no longer matters
      resolve({ out, code, signal, hung });
    });
  });
}

console.log(`machine: ${machine}`);
const summary = [];
let crashed = 0;
for (const f of files) {
  const before = load();
  console.log(`\n== ${f} (load average ${before})`);
  const t = Date.now();
  const r = await runBench(f);
  const secs = ((Date.now() - t) / 1000).toFixed(0);
  const under = `load ${before} → ${load()}`;
  if (r.code !== 0) {
    crashed++;
    summary.push(
      `${f}: ${r.hung ? `HUNG (ended after ${secs} s)` : `CRASHED (exit ${r.code ?? r.signal}) after ${secs} s`}; ${under}`,
    );
    continue;
  }
  const ratios = r.out.split('\n').filter((l) => /\bratio\b/.test(l));
  summary.push(
    ...(ratios.length
      ? ratios.map((l) => `${f}: ${l.trim()} [${under}]`)
      : [`${f}: (no ratio printed) ${secs} s; ${under}`]),
  );
}

console.log(`\n== ratios (${machine}; load average now ${load()})\n${summary.join('\n')}`);
process.exit(crashed ? 1 : 0);
