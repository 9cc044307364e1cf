// Finding and reaping the daemon processes of one scratch SVC_HOME, for the daemon's
// lifecycle tests: "exactly one daemon" is counted from /proc, not from server.json,
// so a second daemon that never wrote its file would still be seen.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SVC_JS, run, sleep } from './scratch';
import type { RunOptions, RunResult, Scratch } from './scratch';

/** Pids of live (not zombie) `node …/daemon.js` processes whose SVC_HOME is `svcHome`. */
export function daemonPids(svcHome: string): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (!cmdline.some((a) => path.basename(a) === 'daemon.js')) continue;
      const env = fs.readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0');
      if (!env.includes(`SVC_HOME=${svcHome}`)) continue;
      if (!alive(Number(entry))) continue;
      pids.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return pids.sort((a, b) => a - b);
}

/** True while any thread of `pid` runs: a zombie counts as ended, but not a zombie main
 *  thread whose other threads are still exiting (they still hold the process's files). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return fs.readdirSync(`/proc/${pid}/task`).some((t) => {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/task/${t}/stat`, 'utf8');
        return !stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

/** server.json of a scratch home, parsed. */
export function discoveryOf(s: Scratch): {
  pid: number;
  build: string;
  socketPath: string;
  httpPort: number;
  token: string;
  version: string;
  home?: string;
} {
  return JSON.parse(fs.readFileSync(path.join(s.svcHome, 'server.json'), 'utf8'));
}

export type Svc = (args: string[], opts?: RunOptions) => Promise<RunResult>;

/**
 * A private copy of the built bundles (dist/*.js and the SQLite binaries of dist/native/)
 * in the scratch folder, and a runner for its shim. Other people rebuild dist/ while tests
 * run; a rebuilt shim is another build and would replace the daemon under test. The copy
 * is the same bytes, so it tests the real build.
 */
export function frozenDist(s: Scratch, name = 'dist'): { dir: string; svc: Svc; build: string } {
  const dir = path.join(s.root, name);
  const from = path.dirname(SVC_JS);
  fs.mkdirSync(path.join(dir, 'native'), { recursive: true });
  for (const f of fs.readdirSync(from)) {
    if (f.endsWith('.js') || f === 'build.json') fs.copyFileSync(path.join(from, f), path.join(dir, f));
  }
  for (const f of fs.readdirSync(path.join(from, 'native')))
    fs.copyFileSync(path.join(from, 'native', f), path.join(dir, 'native', f));
  const build = (JSON.parse(fs.readFileSync(path.join(dir, 'build.json'), 'utf8')) as { build: string }).build;
  const svc: Svc = (args, opts = {}) =>
    run(process.execPath, [path.join(dir, 'svc.js'), ...args], {
      ...opts,
      env: { ...s.env, ...opts.env },
      cwd: opts.cwd ?? s.home,
    });
  return { dir, svc, build };
}

/**
 * Stops the scratch daemon the polite way (`svc daemon stop` with the given shim, then
 * scratch.dispose), then ends any daemon of that home still running (a test may have
 * left server.json unusable on purpose): by pid, SIGTERM first, SIGKILL if it will not go.
 */
export async function disposeAll(s: Scratch, svc?: Svc): Promise<void> {
  const before = daemonPids(s.svcHome);
  if (svc) await svc(['daemon', 'stop', '--force'], { timeoutMs: 90_000 }).catch(() => undefined);
  const left = [...new Set([...before, ...daemonPids(s.svcHome)])].filter(alive);
  for (const pid of left) process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + 5000;
  while (left.some(alive) && Date.now() < deadline) await sleep(50);
  for (const pid of left.filter(alive)) process.kill(pid, 'SIGKILL');
  await s.dispose();
}

/**
 * Asserts that `pid` is, once things settle, the only daemon of `svcHome`. A shim that
 * found no usable server.json may have started daemons that lose the lock and exit; they
 * need a moment (up to a node start-up under load) to be gone.
 */
export async function assertOnlyDaemon(svcHome: string, pid: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let pids = daemonPids(svcHome);
  while (!(pids.length === 1 && pids[0] === pid) && Date.now() < deadline) {
    await sleep(50);
    pids = daemonPids(svcHome);
  }
  if (!(pids.length === 1 && pids[0] === pid))
    throw new Error(`expected only daemon ${pid} for ${svcHome}, found [${pids.join(', ')}]`);
}
