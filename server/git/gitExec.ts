// The one git runner of the daemon: every git call (lanes, issues, review, reap) spawns
// git here, so every call gets the same cleaned environment. Parking needs a per-call
// GIT_INDEX_FILE, byte-exact binary output streamed to a file, NUL-separated output read
// as bytes, and an explicit environment (tests run reap in-process against scratch homes).
// Nothing here takes a user value where git reads options.
import { execFileSync, spawn } from 'node:child_process';
import type { SvcError } from '../../shared/errors';
import { gitCouldNotStartError, gitFailedError } from './gitRefusals';

/** Options shared by every reap helper that runs git. */
export interface GitEnv {
  /** Environment for git (HOME, GIT_CONFIG_*, author); default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

export interface GitCall extends GitEnv {
  /** Extra variables for this call only (e.g. GIT_INDEX_FILE). */
  extra?: Record<string, string>;
  /** A file descriptor that receives stdout instead of a buffer (large patches). */
  stdoutFd?: number;
  /** Bytes for stdin (e.g. a NUL-separated path list). */
  input?: Buffer;
  /** Exit codes that are answers, not failures (e.g. 1 for `symbolic-ref -q`). */
  okCodes?: number[];
  /**
   * Give up after this many milliseconds: the call rejects with GitTimeout at once and git
   * is killed. For reads a caller must not wait on forever (a git blocked on a network
   * filesystem, or on a file that never answers): background facts, probes.
   */
  timeoutMs?: number;
  /**
   * Git runs in a process group of its own, and a timeout kills the whole group: for a git
   * that starts other gits (`for-each-repo`), whose stuck child would outlive its parent.
   */
  ownGroup?: boolean;
}

/**
 * How long a background read of git facts for a list waits for git before it answers
 * without them: a git blocked on a network filesystem or a file that never answers must
 * not hold a list forever.
 */
export const FACTS_TIMEOUT_MS = 5000;

/**
 * The same bound for what an agent's start reads (its git identity and places). Longer:
 * an agent started without them commits as nobody, so a slow git on a loaded machine is
 * waited for; only a git that truly hangs is given up on.
 */
export const AGENT_PROBE_TIMEOUT_MS = 30_000;

/** Git did not answer within the time its caller allowed (GitCall.timeoutMs). */
export class GitTimeout extends Error {
  /** What git wrote to stdout before it was given up on (a batch keeps the answers it holds). */
  partial: Buffer = Buffer.alloc(0);

  constructor(
    readonly args: string[],
    readonly cwd: string,
    readonly timeoutMs: number,
  ) {
    super(`git did not answer within ${seconds(timeoutMs)} (git ${args.join(' ')} in ${cwd})`);
    this.name = 'GitTimeout';
  }

  /** What a reader shows instead of the facts: `git did not answer within 5 s`. */
  get short(): string {
    return `git did not answer within ${seconds(this.timeoutMs)}`;
  }
}

const seconds = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`);

export interface GitOut {
  code: number;
  stdout: Buffer;
  stderr: string;
}

/** What git did, whatever its exit: the callers judge the code. */
export interface GitExit extends GitOut {
  signal: NodeJS.Signals | null;
}

// Variables that point git at another repository, index or object store. A daemon
// started from inside a git hook would inherit them and park the wrong tree.
const LOCATING_VARS = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_COMMON_DIR',
  'GIT_NAMESPACE',
  'GIT_PREFIX',
  'GIT_IMPLICIT_WORK_TREE',
  'GIT_GRAFT_FILE',
  'GIT_SHALLOW_FILE',
  'GIT_REPLACE_REF_BASE',
  'GIT_NO_REPLACE_OBJECTS',
];

/** Environments already cleaned by cleanGitEnvironment: frozen, so used as they are. */
const cleaned = new WeakSet<NodeJS.ProcessEnv>();

/**
 * The environment git gets, built once for a caller that runs git many times (a list's
 * `git status` in every lane): building it copies every variable, on each call otherwise.
 * Frozen, so it stays what it was when made; pass it as GitCall.env.
 */
export function cleanGitEnvironment(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env = Object.freeze(cleanEnvironment(base, undefined));
  cleaned.add(env);
  return env;
}

function gitEnvironment(base: NodeJS.ProcessEnv, extra: Record<string, string> | undefined): NodeJS.ProcessEnv {
  return extra === undefined && cleaned.has(base) ? base : cleanEnvironment(base, extra);
}

function cleanEnvironment(base: NodeJS.ProcessEnv, extra: Record<string, string> | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base, GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', PAGER: 'cat' };
  for (const name of LOCATING_VARS) delete env[name];
  return { ...env, ...extra };
}

/**
 * Runs git in `cwd` and resolves with its exit, whatever the code; rejects only when git
 * cannot start, or with GitTimeout when it outlives `call.timeoutMs`.
 */
export function spawnGit(cwd: string, args: string[], call: GitCall = {}): Promise<GitExit> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, {
      cwd,
      env: gitEnvironment(call.env ?? process.env, call.extra),
      stdio: [call.input ? 'pipe' : 'ignore', call.stdoutFd ?? 'pipe', 'pipe'],
      detached: call.ownGroup === true,
    });
    child.stdin?.on('error', () => undefined); // git may exit before reading all of it
    child.stdin?.end(call.input);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout?.on('data', (d: Buffer) => out.push(d));
    child.stderr?.on('data', (d: Buffer) => err.push(d));
    // A git that does not answer is not waited for: the caller hears at once, and git is
    // killed (one stuck in the kernel goes when it can; its pipes are not waited on).
    const timer =
      call.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            if (call.ownGroup && child.pid !== undefined) killGroup(child.pid);
            else child.kill('SIGKILL');
            child.stdout?.destroy();
            child.stderr?.destroy();
            const e = new GitTimeout(args, cwd, call.timeoutMs!);
            e.partial = Buffer.concat(out);
            reject(e);
          }, call.timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, signal, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') });
    });
  });
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** Runs git in `cwd`; throws SvcError('internal', 'gitFailed') on an unexpected exit code. */
export async function runGit(cwd: string, args: string[], call: GitCall = {}): Promise<GitOut> {
  let r: GitExit;
  try {
    r = await spawnGit(cwd, args, call);
  } catch (e) {
    if (e instanceof GitTimeout) throw e;
    throw gitCouldNotStartError(args, (e as Error).message);
  }
  if (r.code === 0 || call.okCodes?.includes(r.code)) return { code: r.code, stdout: r.stdout, stderr: r.stderr };
  throw gitFailure(args, cwd, r, r.signal);
}

export function gitFailure(args: string[], cwd: string, r: GitOut, signal: NodeJS.Signals | null): SvcError {
  const why = signal ? `killed by ${signal}` : `exit ${r.code}`;
  const detail = r.stderr.trim() || why;
  return gitFailedError(args, cwd, why, detail);
}

/**
 * Runs git synchronously (for the few callers that cannot wait: launch-time probes) and
 * returns stdout trimmed, or undefined when git fails, is missing or outlives `timeoutMs`.
 */
export function gitTextSync(
  cwd: string,
  args: string[],
  call: GitEnv & { timeoutMs?: number } = {},
): string | undefined {
  try {
    const env = gitEnvironment(call.env ?? process.env, undefined);
    return execFileSync('git', args, {
      cwd,
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: call.timeoutMs,
    }).trim();
  } catch {
    return undefined;
  }
}

/** Runs git and returns stdout as trimmed UTF-8 text. */
export async function gitText(cwd: string, args: string[], call: GitCall = {}): Promise<string> {
  return (await runGit(cwd, args, call)).stdout.toString('utf8').trim();
}

/** The inverse of splitNul: paths as git's `-z --stdin` reads them, each NUL-terminated. */
export function joinNul(paths: readonly Buffer[]): Buffer {
  return Buffer.concat(paths.flatMap((p) => [p, Buffer.from([0])]));
}

/**
 * Splits NUL-terminated git output (`-z`) into raw byte fields, dropping the final empty
 * one. Paths stay bytes: a file name need not be UTF-8, and decoding it would make the
 * cleaner miss (or worse, hit) the wrong file.
 */
export function splitNul(buf: Buffer): Buffer[] {
  const parts: Buffer[] = [];
  let start = 0;
  for (let i = buf.indexOf(0); i !== -1; i = buf.indexOf(0, start)) {
    parts.push(buf.subarray(start, i));
    start = i + 1;
  }
  if (start < buf.length) parts.push(buf.subarray(start));
  return parts;
}
