// The project's checks (`gauntlet.checks` in projects.yaml) run on one commit: a fresh
// detached worktree of their own (never the person's checkout, never a lane's), each check
// in turn inside the lane sandbox when asked, each one's whole output kept in a file. A
// pick's worktree is new and removed afterwards; a landing's is its base's kept one, made
// fresh (checksTree.ts). Used by `svc lane land` (server/land/) and `svc lane pick`.
//
// The API is one function, runChecks, and its two types: what to run, what came of it.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { GauntletCheck, SandboxMode } from '../../shared/config';
import { git, serialized } from '../git/git';
import { SandboxProbe } from '../sandbox/sandboxProbe';
import { sandboxWrap } from '../sandbox/sandboxWrap';
import { commonDirOf, freshChecksTree } from './checksTree';
import { checksSandboxError } from './landRefusals';

/** How many bytes of a check's output its result carries (the whole output is in its file). */
export const TAIL_BYTES = 2048;
/** After a timeout's SIGTERM, how long a check has before SIGKILL. */
const KILL_GRACE_MS = 5_000;

export interface ChecksRequest {
  /** The project checkout whose object store holds `sha` (the worktree is one of its worktrees). */
  repo: string;
  sha: string;
  /**
   * Where the fresh worktree goes, under the project's lanes root: a new one (it must not
   * exist), or with `kept` the kept one of checksTree.ts.
   */
  worktree: string;
  /**
   * `worktree` is a kept checks worktree: made fresh at `sha` here (unless `ready`: made so
   * already, nothing run in it since) and left in place afterwards for the next landing.
   */
  kept?: { ready: boolean };
  /** The folder the output files go in (made when missing); under SVC_HOME. */
  outputDir: string;
  checks: readonly GauntletCheck[];
  /** `workspace`: each check confined to the worktree as a lane's agent is (server/sandbox/). */
  sandbox: SandboxMode;
  svcHome: string;
  /** Stop at the first failing check (a landing needs no more); the rest are left out of the results. */
  stopOnFailure?: boolean;
  /** Extra environment for the checks (SVC_CHECK_SHA and SVC_CHECK_NAME are always set). */
  env?: Record<string, string>;
  /** Ends the run early: the check running is killed and no other starts (the results so far are returned). */
  signal?: AbortSignal;
}

export interface CheckResult {
  name: string;
  ok: boolean;
  /** The exit code; null when it was ended by a signal (or its timeout). */
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
  /** The file holding the check's whole output (stdout and stderr as they came). */
  outputPath: string;
  /** The end of that output, at most TAIL_BYTES. */
  tail: string;
}

const probe = new SandboxProbe();
/** Checks in flight (their process groups), ended when the daemon stops. */
const inFlight = new Set<number>();

export function stopAllChecks(): void {
  for (const pid of inFlight) killGroup(pid, 'SIGKILL');
}

/**
 * Runs `checks` in order on `sha` in a fresh worktree at `worktree`, removed afterwards
 * whatever happened unless it is a kept one. Throws only when the checks could not run at
 * all (the worktree cannot be made, the sandbox cannot start: a typed refusal); a check
 * that fails is a result.
 */
export async function runChecks(req: ChecksRequest): Promise<CheckResult[]> {
  fs.mkdirSync(req.outputDir, { recursive: true, mode: 0o700 });
  fs.mkdirSync(path.dirname(req.worktree), { recursive: true });
  if (req.kept) {
    if (!req.kept.ready) await freshChecksTree(req.repo, req.worktree, req.sha);
  } else
    await serialized(req.repo, () => git(req.repo, ['worktree', 'add', '--quiet', '--detach', req.worktree, req.sha]));
  try {
    const results: CheckResult[] = [];
    for (const check of req.checks) {
      if (req.signal?.aborted) break;
      const r = await runOne(req, check);
      results.push(r);
      if (!r.ok && req.stopOnFailure) break;
    }
    return results;
  } finally {
    if (!req.kept)
      await serialized(req.repo, () => git(req.repo, ['worktree', 'remove', '--force', req.worktree])).catch(() =>
        fs.rmSync(req.worktree, { recursive: true, force: true }),
      );
  }
}

async function commandLine(req: ChecksRequest, env: NodeJS.ProcessEnv, run: string) {
  if (req.sandbox === 'off') return { command: 'sh', args: ['-c', run] };
  // The project's, read once per daemon: a worktree's common dir is its repository's.
  const commonDir = await commonDirOf(req.repo);
  const wrap = sandboxWrap(probe, {
    cwd: req.worktree,
    svcHome: req.svcHome,
    env,
    home: env.HOME ?? os.homedir(),
    commonDir,
    localRemotes: [],
    state: [],
    readable: [],
  });
  const wrapped = await wrap('sh', ['-c', run]);
  if (!wrapped.ok) throw checksSandboxError(wrapped.reason, wrapped.fix);
  return { command: wrapped.command, args: wrapped.args };
}

async function runOne(req: ChecksRequest, check: GauntletCheck): Promise<CheckResult> {
  const outputPath = path.join(req.outputDir, `${check.name}.log`);
  const env: NodeJS.ProcessEnv = { ...process.env, ...req.env, SVC_CHECK_SHA: req.sha, SVC_CHECK_NAME: check.name };
  // The daemon's own credentials never reach a check.
  for (const k of Object.keys(env)) if (k.startsWith('SVC_CALLER') || k === 'GITHUB_TOKEN') delete env[k];
  const { command, args } = await commandLine(req, env, check.run);
  const out = fs.openSync(outputPath, 'w', 0o600);
  const started = Date.now();
  let tail = '';
  try {
    return await new Promise<CheckResult>((resolve) => {
      const child = spawn(command, args, { cwd: req.worktree, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
      let timedOut = false;
      if (child.pid) inFlight.add(child.pid);
      const stop = () => killGroup(child.pid, 'SIGKILL');
      req.signal?.addEventListener('abort', stop, { once: true });
      if (req.signal?.aborted) stop();
      const keep = (d: Buffer) => {
        fs.writeSync(out, d);
        tail = (tail + d.toString('utf8')).slice(-TAIL_BYTES);
      };
      child.stdout.on('data', keep);
      child.stderr.on('data', keep);
      let grace: NodeJS.Timeout | undefined;
      const timer = setTimeout(() => {
        timedOut = true;
        killGroup(child.pid, 'SIGTERM');
        grace = setTimeout(() => killGroup(child.pid, 'SIGKILL'), KILL_GRACE_MS);
      }, check.timeout * 1000);
      const done = (exitCode: number | null) => {
        clearTimeout(timer);
        clearTimeout(grace);
        if (child.pid) inFlight.delete(child.pid);
        req.signal?.removeEventListener('abort', stop);
        const durationMs = Date.now() - started;
        resolve({
          name: check.name,
          ok: exitCode === 0 && !timedOut,
          exitCode,
          timedOut,
          durationMs,
          outputPath,
          tail,
        });
      };
      child.on('error', (e) => {
        keep(Buffer.from(`svc: could not start the check: ${e.message}\n`));
        done(127);
      });
      child.on('close', (code) => done(code));
    });
  } finally {
    fs.closeSync(out);
  }
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (!pid) return;
  try {
    process.kill(-pid, signal);
  } catch {
    /* already gone */
  }
}
