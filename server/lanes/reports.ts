// `svc lane report`: the Report rules and the critic/verifier verdict rules, then the
// report recorded in the worker report store under `conv-<name>` with head and branch.
import { SvcError } from '../../shared/errors';
import { BLOCKED_KINDS, blockedKindOf } from '../../shared/keys';
import type { Verdict } from '../../shared/keys';
import { laneReported } from '../../shared/protocol/lanes';
import type { LaneReport } from '../../shared/protocol/lanes';
import type { z } from 'zod';
import type { ReportParams } from '../../shared/protocol/lanes';
import type { ReportFacts } from '../git/reportFacts';
import type { LanesContext } from './lanesContext';
import type { LaneRow } from './laneStore';
import { LaneFileError } from '../util/laneFileRead';
import { siteOf } from './laneSite';
import type { LaneSite } from './laneSite';
import { mirrorLaneRefs } from './laneGitMirror';
import { ownLaneRepo } from './laneGitRepo';
import { isHere } from './laneWhere';
import {
  badVerdictFile,
  blockedBodyError,
  detachedBuilderError,
  dirtyTreeError,
  iterationHasVerdictError,
  notInsideALaneError,
  noWorktreeError,
  secondVerdictError,
  unpushedError,
  verdictOnBlockedError,
  verdictOnRoleError,
  verdictRequiredError,
} from './reportRefusals';

type Params = z.output<typeof ReportParams>;

export function callerLane(ctx: LanesContext, caller: string | undefined): LaneRow {
  if (!caller) throw notInsideALaneError();
  let conv;
  try {
    conv = ctx.conversations.resolve(caller);
  } catch {
    throw notInsideALaneError();
  }
  const lane = conv.kind === 'lane' ? ctx.store.byId(conv.id) : undefined;
  if (!lane) throw notInsideALaneError();
  return lane;
}

/** The most a verdict file may hold: a defect list, not a data set. */
export const VERDICT_FILE_MAX = 1_000_000;

/**
 * Reads a verdict file: JSON with a `defects` array. Returns the array's length. The file
 * must be in the lane's own folders and is read as a lane file where the lane lives
 * (laneSite.ts, server/util/laneFileRead.ts): a critic cannot name the builder's worktree,
 * a hidden file or a FIFO, here or on a host.
 */
export async function readVerdictFile(site: LaneSite, file: string): Promise<number> {
  let text: string;
  try {
    text = await site.readLaneFile(file, VERDICT_FILE_MAX);
  } catch (e) {
    if (e instanceof LaneFileError) throw badVerdictFile.notLanes(file, e.problem, site.folders);
    throw badVerdictFile.unreadable(file, (e as NodeJS.ErrnoException).code ?? (e as Error).message);
  }
  return verdictDefects(file, text).length;
}

/** A verdict file's `defects`, refused when its text is not JSON with a `defects` array. */
export function verdictDefects(file: string, text: string): unknown[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw badVerdictFile.notJson(file);
  }
  const defects = (json as { defects?: unknown } | null)?.defects;
  if (!Array.isArray(defects)) throw badVerdictFile.noDefects(file);
  return defects;
}

export async function fileReport(ctx: LanesContext, p: Params): Promise<{ lane: LaneRow; report: LaneReport }> {
  const lane = callerLane(ctx, p.caller);
  const site = siteOf(ctx, lane);
  // A retry of a report that was stored (its answer was lost with the connection).
  const filed = p.requestId === undefined ? undefined : ctx.store.reportByRequest(lane.id, p.requestId);
  if (filed) return { lane, report: filed };
  const judge = lane.role === 'critic' || lane.role === 'verifier';
  if (p.status === 'blocked' && blockedKindOf(p.body) === undefined) {
    throw blockedBodyError(BLOCKED_KINDS);
  }
  let verdict: Verdict | null = null;
  let defects: number | null = null;
  if (p.verdict !== undefined || p.verdictFile !== undefined || p.defects !== undefined) {
    if (!judge) throw verdictOnRoleError(lane.role);
    if (p.status !== 'done') throw verdictOnBlockedError(p.status);
  }
  if (judge && p.status === 'done') {
    if (p.verdict === undefined) throw verdictRequiredError(lane.role);
    refuseSecondVerdict(ctx, lane);
    verdict = p.verdict;
    // Read where the lane lives (a host's lane: there), as the lane's file, judged here the same way.
    const counted = p.verdictFile !== undefined ? await readVerdictFile(site, p.verdictFile) : 0;
    defects = p.defects ?? counted; // a file beside --defects is still validated
  }

  let headSha: string | null = null;
  let branch: string | null = null;
  if (lane.gitBacked) {
    const facts = await site.reportFacts().catch((e: unknown) => {
      if (SvcError.is(e) && e.reason !== 'hostOpFailed') throw e; // the host could not be reached: say so
      return undefined;
    });
    if (!facts) throw noWorktreeError(lane.dir);
    headSha = facts.headSha;
    branch = facts.branch;
    if (lane.role === 'builder' && p.status === 'done') checkBuilderDone(lane, facts, p.allowUnpushed === true);
  }

  const report = ctx.app.db.transaction(() => {
    const raced = p.requestId === undefined ? undefined : ctx.store.reportByRequest(lane.id, p.requestId);
    if (raced) return raced;
    if (judge && p.status === 'done') refuseSecondVerdict(ctx, lane);
    return ctx.store.insertReport({
      storeKey: `conv-${lane.name}`,
      convId: lane.id,
      status: p.status,
      body: p.body,
      verdict,
      defects,
      verdictFile: p.verdictFile ?? null,
      headSha,
      branch,
      at: ctx.now(),
      requestId: p.requestId ?? null,
    });
  })();
  await mirrorLaneHead(ctx, lane);
  announceReport(ctx, lane, report);
  return { lane, report };
}

/**
 * A lane with a repository of its own (laneGitRepo.ts): its HEAD and branch as they are now
 * (a report's, or a launch's judging it at a commit named), into the person's repository
 * (laneGitMirror.ts), so a critic's, verifier's or land's checkout of it finds its commits
 * in the project's store. A report is stored
 * whether or not it went: reap mirrors again before anything of the lane goes.
 */
export async function mirrorLaneHead(ctx: LanesContext, lane: LaneRow): Promise<void> {
  const repo = isHere(lane) && lane.gitBacked ? ctx.repoOf(lane.project) : undefined;
  if (!repo || !ownLaneRepo(lane.dir)) return;
  const refs = ['HEAD', ...(lane.branch ? [`refs/heads/${lane.branch}`] : [])];
  await mirrorLaneRefs(repo, lane.dir, refs, lane.branch).catch(() => undefined);
}

/** Wakes the waiters and tells the views of a report just stored (filed by the lane, or by svc in its name). */
export function announceReport(ctx: LanesContext, lane: LaneRow, report: LaneReport): void {
  ctx.events.emit('report', lane.id);
  ctx.app.rpc.broadcast(laneReported, { lane: lane.name, run: lane.run, seq: report.seq });
  ctx.app.notify({ topic: 'lanes', id: lane.id });
  ctx.app.notify({ topic: 'runs' });
}

/** The verdict already filed in this judge's iteration: by this lane, or by an earlier
 *  lane of the same run, key and role in the same directory (a `--reuse` respawn). */
export function iterationVerdict(ctx: LanesContext, lane: LaneRow): { lane: LaneRow; verdict: Verdict } | undefined {
  for (const l of ctx.store.ofSlot(lane.run, lane.key, lane.role).filter((o) => o.dir === lane.dir)) {
    const done = ctx.store.reports(l.id).find((r) => r.status === 'done' && r.verdict);
    if (done) return { lane: l, verdict: done.verdict! };
  }
  return undefined;
}

/** Critic rule 3, per iteration: one verdict for the iteration, whichever conversation files it. */
function refuseSecondVerdict(ctx: LanesContext, lane: LaneRow): void {
  if (ctx.store.reports(lane.id).some((r) => r.status === 'done')) {
    throw secondVerdictError(lane.role);
  }
  const earlier = iterationVerdict(ctx, lane);
  if (earlier) throw iterationHasVerdictError(lane, earlier);
}

/** Report rule 1: clean tree always; every commit on the upstream unless --allow-unpushed. */
function checkBuilderDone(lane: LaneRow, facts: ReportFacts, allowUnpushed: boolean): void {
  if (facts.dirty) {
    throw dirtyTreeError(lane.dir);
  }
  if (allowUnpushed) return;
  if (!facts.branch) throw detachedBuilderError(lane.dir);
  if (!facts.upstreamExists) {
    throw unpushedError(facts.branch, facts.upstream);
  }
  const ahead = facts.unpushed ?? 0;
  if (ahead > 0) {
    throw unpushedError(facts.branch, facts.upstream, ahead);
  }
}
