// A scratch home per test suite, inside the checkout (never /tmp, never the real home):
// lanes roots must be under HOME and outside /tmp, and tests must not touch the user.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { processesInside } from '../../server/reap/processesInside';

export const REPO = path.resolve(__dirname, '..', '..');
/** The package under test: this checkout, or a snapshot of its dist/ and bin/ (SVC_PKG_DIR). */
const PKG = process.env.SVC_PKG_DIR ? path.resolve(process.env.SVC_PKG_DIR) : REPO;
export const SVC_JS = path.join(PKG, 'dist', 'svc.js');
export const BIN_DIR = path.join(PKG, 'bin');

export interface Scratch {
  root: string;
  home: string;
  svcHome: string;
  env: NodeJS.ProcessEnv;
  /** Runs the real shim (`node dist/svc.js …`). */
  svc(args: string[], opts?: RunOptions): Promise<RunResult>;
  /** Stops the daemon of this home and removes the folder. */
  dispose(): Promise<void>;
}

export interface RunOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  input?: string;
  timeoutMs?: number;
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

let counter = 0;

export function makeScratch(name: string): Scratch {
  const root = path.join(REPO, '.scratch', `${name}-${process.pid}-${Date.now().toString(36)}-${counter++}`);
  const home = path.join(root, 'home');
  const svcHome = path.join(home, '.svc');
  fs.mkdirSync(home, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    SVC_HOME: svcHome,
    PATH: `${BIN_DIR}${path.delimiter}${process.env.PATH ?? ''}`,
    GIT_CONFIG_NOSYSTEM: '1',
    // The scratch lives inside this checkout; git must not find the checkout from a plain
    // folder of the scratch, as it would not from a folder of a real home.
    GIT_CEILING_DIRECTORIES: root,
    // Test daemons accept daemon/advanceClock, so time rules are tested without waiting.
    SVC_TEST_CLOCK: '1',
    GIT_AUTHOR_NAME: 'svc test',
    GIT_AUTHOR_EMAIL: 'test@svc.invalid',
    GIT_COMMITTER_NAME: 'svc test',
    GIT_COMMITTER_EMAIL: 'test@svc.invalid',
  };
  delete env.SVC_CONVERSATION;
  const scratch: Scratch = {
    root,
    home,
    svcHome,
    env,
    svc: (args, opts = {}) =>
      run(process.execPath, [SVC_JS, ...args], { ...opts, env: { ...env, ...opts.env }, cwd: opts.cwd ?? home }),
    async dispose() {
      const stopDaemon = () =>
        run(process.execPath, [SVC_JS, 'daemon', 'stop', '--force'], { env, cwd: home, timeoutMs: 90_000 }).catch(
          () => undefined,
        );
      await stopDaemon();
      if (process.env.SVC_KEEP_SCRATCH) return;
      // A daemon stopped in the middle of a dispatch leaves its git children to finish (a
      // `git worktree add` still writing), and an agent's last `svc` call can start a new
      // daemon after the stop: wait for the first, stop the second, end what still runs
      // inside the scratch, then remove it.
      if (!(await settled(root, 10_000))) {
        await stopDaemon();
        if (!(await settled(root, 10_000))) for (const p of await processesInside(root)) killQuietly(p.pid);
      }
      fs.rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    },
  };
  return scratch;
}

/** Whether no process works inside `dir` any more, waiting for that at most `timeoutMs`. */
async function settled(dir: string, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if ((await processesInside(dir)).length === 0) return true;
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 200));
  }
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // gone already
  }
}

export function run(
  cmd: string,
  args: string[],
  opts: RunOptions & { env: NodeJS.ProcessEnv; cwd: string },
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env: opts.env, cwd: opts.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`timed out: ${cmd} ${args.join(' ')}\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, opts.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
    child.stdin.end(opts.input ?? '');
  });
}

/** Synchronous git for test fixtures; throws with git's stderr on failure. */
export function git(cwd: string, env: NodeJS.ProcessEnv, ...args: string[]): string {
  const r = spawnSync('git', args, { cwd, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed in ${cwd}: ${r.stderr}`);
  return r.stdout.trim();
}

/** A project checkout with a local bare `origin` holding one commit on `main`. */
export function makeRepo(s: Scratch, name = 'proj'): { dir: string; origin: string } {
  const origin = path.join(s.home, `${name}-origin.git`);
  const dir = path.join(s.home, name);
  git(s.home, s.env, 'init', '--bare', '--initial-branch=main', origin);
  git(s.home, s.env, 'clone', '--quiet', origin, dir);
  fs.writeFileSync(path.join(dir, 'README.md'), `# ${name}\n`);
  git(dir, s.env, 'add', '.');
  git(dir, s.env, 'commit', '--quiet', '-m', 'initial');
  git(dir, s.env, 'push', '--quiet', 'origin', 'HEAD:main');
  git(dir, s.env, 'remote', 'set-head', 'origin', 'main');
  return { dir, origin };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `fn` until it returns a truthy value; for tests only (product code waits on events). */
export async function eventually<T>(
  fn: () => Promise<T> | T,
  timeoutMs = 15_000,
  what = 'condition',
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
    await sleep(50);
  }
}
