// `svc review wait`: the review parent waits for its four lanes. Returns when every lane
// has a report or has died without one, listing each report path and verdict. Event
// driven (conversation changes and the run folder's file events), with a slow re-check
// because file events can be dropped.
import * as fs from 'node:fs';
import type { LaneResult } from '../../shared/protocol/review';
import type { IssueRow } from '../issues/issueStore';
import type { ReviewCtx } from './context';
import { LANES, reportPath, runDir } from './paths';
import { parseVerdict } from './reportShape';
import { reviewersOf, running } from './reviewers';
import { readReviewFile } from './reviewFiles';

export const DEFAULT_WAIT_S = 300;

export function laneResults(ctx: ReviewCtx, issue: IssueRow, runId: string): LaneResult[] {
  const reviewers = reviewersOf(ctx, issue.id, runId).filter((r) => r.row.archivedAt === null);
  return LANES.map((lane) => {
    const r = reviewers.filter((x) => x.role === lane).pop();
    const row = r ? ctx.conv.get(r.row.id)! : undefined;
    const alive = row ? running(row) || ctx.conv.facts(row.id).alive : false;
    const file = reportPath(issue.workspace, runId, lane);
    const name = row?.name ?? `(no ${lane} reviewer)`;
    const text = readReviewFile(issue.workspace, file);
    if (text !== null) {
      const v = parseVerdict(text, `${lane}.md`);
      if (v.ok) return { lane, name, path: file, state: 'report' as const, verdict: v.verdict, note: null };
      if (!alive) return { lane, name, path: file, state: 'invalid' as const, verdict: null, note: v.why };
    }
    if (alive) return { lane, name, path: file, state: 'pending' as const, verdict: null, note: null };
    // One line: a spawn error can carry the agent's stderr.
    const why = row
      ? row.spawnError
        ? `failed to start: ${row.spawnError.split('\n')[0]}`
        : `ended (${row.exitStatus ?? 'stopped'}) without a report`
      : 'never started';
    return { lane, name, path: file, state: 'died' as const, verdict: null, note: why };
  });
}

export function waitForLanes(
  ctx: ReviewCtx,
  issue: IssueRow,
  runId: string,
  timeoutS: number,
  signal: AbortSignal,
): Promise<{ outcome: 'complete' | 'incomplete' | 'timeout'; lanes: LaneResult[] }> {
  const settle = () => {
    const lanes = laneResults(ctx, issue, runId);
    if (lanes.some((l) => l.state === 'pending')) return undefined;
    return {
      outcome: lanes.every((l) => l.state === 'report') ? ('complete' as const) : ('incomplete' as const),
      lanes,
    };
  };
  const now = settle();
  if (now) return Promise.resolve(now);
  return new Promise((resolve) => {
    const dir = runDir(issue.workspace, runId);
    fs.mkdirSync(dir, { recursive: true });
    let watcher: fs.FSWatcher | undefined;
    const check = (changedId?: number) => {
      // Only this run's reviewers decide it: a change of any other conversation (the issue's
      // earlier runs stopping, the new run's agents starting) is not read over.
      if (typeof changedId === 'number') {
        const row = ctx.conv.get(changedId);
        if (row?.issueId !== issue.id || row.extraEnv?.SVC_REVIEW_RUN !== runId) return;
      }
      const r = settle();
      if (r) done(r);
    };
    const done = (r: { outcome: 'complete' | 'incomplete' | 'timeout'; lanes: LaneResult[] }) => {
      clearTimeout(timer);
      clearInterval(poll);
      watcher?.close();
      ctx.conv.events.off('changed', check);
      signal.removeEventListener('abort', onAbort);
      resolve(r);
    };
    const onAbort = () => done({ outcome: 'timeout', lanes: laneResults(ctx, issue, runId) });
    try {
      watcher = fs.watch(dir, () => setTimeout(() => check(), 50));
      watcher.on('error', () => undefined);
    } catch {
      /* the slow re-check covers it */
    }
    const timer = setTimeout(
      () => done({ outcome: 'timeout', lanes: laneResults(ctx, issue, runId) }),
      timeoutS * 1000,
    );
    const poll = setInterval(() => check(), 2000);
    ctx.conv.events.on('changed', check);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
