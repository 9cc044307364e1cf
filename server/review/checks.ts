// The project's verification gates (`check_commands` in projects.yaml): run on the PR head
// in a detached worktree of their own and recorded as commit statuses on the code host, so
// merge readiness sees them. They run for every review (in `none` mode they are all there
// is). Each command gets `pending` first, then `success` or `failure`.
import { spawn } from 'node:child_process';
import { checkContext } from '../codehost/configuredChecks';
import type { IssueRow } from '../issues/issueStore';
import { createDetachedWorktree, ensureCommit, removeWorktree } from '../issues/workspace';
import { lanesRootOf } from '../lanes/lanesRoot';
import { logger } from '../util/log';
import type { ReviewCtx } from './context';
import { checksWorktree } from './paths';

const log = logger('review');
const TIMEOUT_MS = 30 * 60_000;
/** Check commands in flight (their process groups), ended when the daemon stops. */
const inFlight = new Set<number>();

export function stopChecks(): void {
  for (const pid of inFlight) {
    try {
      process.kill(-pid, 'SIGTERM');
    } catch {
      /* already gone */
    }
  }
}

export async function runChecks(ctx: ReviewCtx, issue: IssueRow, runId: string, sha: string): Promise<void> {
  const project = ctx.app.config.project(issue.project);
  const commands = project.check_commands ?? [];
  if (commands.length === 0) return;
  const host = ctx.hosts.forProject(issue.project);
  for (const c of commands)
    await host.setStatus(sha, { context: checkContext(c), state: 'pending', description: 'queued by svc' });
  ctx.app.notify({ topic: 'reviews', id: issue.id });
  const dir = checksWorktree(lanesRootOf(project), issue.id, runId);
  try {
    await ensureCommit(project, issue.branch, sha);
    await createDetachedWorktree(project.path, dir, sha);
    for (const c of commands) {
      const started = Date.now();
      const r = await runOne(c, dir, { SVC_ISSUE: issue.id, SVC_CHECK_SHA: sha });
      const secs = ((Date.now() - started) / 1000).toFixed(1);
      const last = r.output.trim().split('\n').pop()?.trim() ?? '';
      const description = (
        r.code === 0
          ? `passed in ${secs}s`
          : `${r.timedOut ? 'timed out' : `exit ${r.code}`} after ${secs}s${last ? `: ${last}` : ''}`
      ).slice(0, 140);
      await host.setStatus(sha, { context: checkContext(c), state: r.code === 0 ? 'success' : 'failure', description });
      log.info(`${issue.id} ${runId} check '${c}' at ${sha.slice(0, 7)}: ${description}`);
      ctx.app.notify({ topic: 'reviews', id: issue.id });
    }
  } catch (e) {
    log.error(`${issue.id} ${runId}: checks at ${sha.slice(0, 7)} could not run`, e);
    for (const c of commands) {
      await host
        .setStatus(sha, {
          context: checkContext(c),
          state: 'error',
          description: `could not run: ${(e as Error).message}`.slice(0, 140),
        })
        .catch(() => undefined);
    }
  } finally {
    await removeWorktree(project.path, dir).catch(() => undefined);
  }
}

function runOne(
  command: string,
  cwd: string,
  extra: Record<string, string>,
): Promise<{ code: number; output: string; timedOut: boolean }> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', command], {
      cwd,
      env: { ...process.env, ...extra },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    let timedOut = false;
    if (child.pid) inFlight.add(child.pid);
    const keep = (d: Buffer) => {
      output = (output + d.toString('utf8')).slice(-8192);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        /* already gone */
      }
    }, TIMEOUT_MS);
    child.on('error', (e) => {
      clearTimeout(timer);
      resolve({ code: 127, output: e.message, timedOut });
    });
    child.on('close', (code) => {
      if (child.pid) inFlight.delete(child.pid);
      clearTimeout(timer);
      resolve({ code: code ?? 1, output, timedOut });
    });
  });
}
