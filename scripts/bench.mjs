// `npm run bench`: builds, then runs every bench/*.bench.ts (or those named on the command
// line, e.g. `npm run bench -- shimRoundTrip`) one after another with tsx, and ends with
// the ratio lines of all of them. A benchmark prints; it does not assert: the exit code is
// non-zero only when a benchmark crashed.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
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
  console.error(`unknown bench: ${wanted.filter((w) => !all.includes(`${w}.bench.ts`)).join(', ')} (have: ${all.join(', ')})`);
  process.exit(1);
}

const build = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
const summary = [];
let crashed = 0;
for (const f of files) {
  console.log(`\n== ${f}`);
  const t = Date.now();
  const r = spawnSync(tsx, [path.join(benchDir, f)], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  process.stdout.write(r.stdout ?? '');
  const secs = ((Date.now() - t) / 1000).toFixed(0);
  if (r.status !== 0) {
    crashed++;
    summary.push(`${f}: CRASHED (exit ${r.status ?? r.signal}) after ${secs} s`);
    continue;
  }
  const ratios = (r.stdout ?? '').split('\n').filter((l) => /\bratio\b/.test(l));
  summary.push(...(ratios.length ? ratios.map((l) => `${f}: ${l.trim()}`) : [`${f}: (no ratio printed) ${secs} s`]));
}

console.log(`\n== ratios\n${summary.join('\n')}`);
process.exit(crashed ? 1 : 0);
