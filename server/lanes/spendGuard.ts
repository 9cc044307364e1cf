// Spend caps enforced while agents work. Each cost an agent reports (a usage_update,
// during a turn or at its end) is checked against its lane's cap and its run's: at or
// above a cap svc cancels the turn in progress and files, in the lane's name, one blocked
// report whose body starts with SPEND (the launcher's `svc lane wait` returns it with exit
// 4). Until the cap is raised no turn starts on the lane: queued messages stay queued and
// a new `svc tell` is refused with the reason. A cancelled turn that is still running
// CANCEL_GRACE_MS later (a tool call in flight that ignored the cancel) has its agent stopped,
// process group and all, so nothing the lane started runs on past its cap; a raise resumes
// it. Nothing is stored but the report: whether a lane is held is computed from its spend
// and caps at each check, and which lanes svc stopped is kept in memory (a daemon restart
// stops every agent anyway, and `svc conv resume --all-stopped-by-daemon` brings them back).
import { isLive } from '../../shared/activity';
import { isSpendReport } from '../../shared/keys';
import { formatCost } from '../../shared/format/money';
import type { SpendCap } from '../../shared/protocol/lanes';
import { logger } from '../util/log';
import type { LanesContext } from './lanesContext';
import type { LaneRow } from './laneStore';
import { laneActivity } from './records';
import { announceReport } from './reports';
import { capText, SpendBook } from './spend';
import { spendAtLaunchError, spendHeldError } from './spendRefusals';

const log = logger('spend');

/** How long a cancelled turn may keep running before svc stops its agent. */
export const CANCEL_GRACE_MS = 5_000;

/** The lanes' conversations svc stopped at a cap, per daemon: a raise resumes them. */
const stoppedAtCap = new WeakMap<LanesContext, Set<number>>();

/** Whether svc stopped this conversation at a cap (and forgets it: the caller resumes it). */
export function takeStoppedAtCap(ctx: LanesContext, convId: number): boolean {
  return stoppedAtCap.get(ctx)?.delete(convId) ?? false;
}

/** The lane a conversation spends for (itself, or the lane its successors lead to). */
export function spendingLane(ctx: LanesContext, convId: number): LaneRow | undefined {
  const id = ctx.store.laneOfSpender(convId);
  return id === undefined ? undefined : ctx.store.byId(id);
}

export function enforceSpendCaps(ctx: LanesContext): void {
  const convs = ctx.conversations;
  convs.onUsage((id) => {
    try {
      checkSpend(ctx, id);
    } catch (e) {
      log.warn(`spend check of #${id} failed: ${(e as Error).message}`);
    }
  });
  convs.addTurnGate((row) => {
    const lane = spendingLane(ctx, row.id);
    const held = lane ? new SpendBook(ctx, [lane.run]).heldBy(lane) : null;
    return held ? `${held.which} spend cap reached (${capText(held.cap)})` : null;
  });
  convs.addTellGuard((row) => {
    const lane = spendingLane(ctx, row.id);
    const held = lane ? new SpendBook(ctx, [lane.run]).heldBy(lane) : null;
    if (lane && held) throw spendHeldError(lane.name, held.which, lane.run, capText(held.cap));
  });
}

function checkSpend(ctx: LanesContext, convId: number): void {
  const lane = spendingLane(ctx, convId);
  if (!lane) return;
  const book = new SpendBook(ctx, [lane.run]);
  const own = book.laneCap(lane);
  if (own.cap !== null && own.spent >= own.cap) stopAtCap(ctx, book, lane, 'lane', own, convId);
  const run = book.runCap(lane.project, lane.run);
  if (run.cap === null || run.spent < run.cap) return;
  const done = new Set<number>();
  for (const l of book.runLanes(lane.project, lane.run)) {
    const newest = book.newest(l);
    if (done.has(newest.id) || (l.id !== lane.id && !isLive(laneActivity(ctx, l)))) continue;
    done.add(newest.id);
    stopAtCap(ctx, book, l, 'run', run, l.id === lane.id ? convId : undefined);
  }
}

/** Cancels the iteration's turns and files its SPEND report, once per setting of the caps. */
function stopAtCap(
  ctx: LanesContext,
  book: SpendBook,
  lane: LaneRow,
  which: 'lane' | 'run',
  cap: SpendCap,
  trigger: number | undefined,
): void {
  const iteration = book.iteration(lane);
  const cancelled = [...iteration.map((l) => l.id), ...(trigger === undefined ? [] : [trigger])].filter((id) =>
    ctx.conversations.cancelTurn(id),
  );
  if (cancelled.length) setTimeout(() => stopIfStillWorking(ctx, cancelled), CANCEL_GRACE_MS).unref();
  const target = book.newest(lane);
  const since = Math.max(
    0,
    ...iteration.map((l) => l.budgetSetAt ?? 0),
    ctx.store.runBudget(lane.project, lane.run)?.setAt ?? 0,
  );
  const filed = iteration.some((l) => ctx.store.reports(l.id).some((r) => isSpendReport(r) && r.at >= since));
  if (filed) return;
  const report = ctx.store.insertReport({
    storeKey: `conv-${target.name}`,
    convId: target.id,
    status: 'blocked',
    body: spendBody(target, which, cap),
    verdict: null,
    defects: null,
    verdictFile: null,
    headSha: null,
    branch: null,
    at: ctx.now(),
    requestId: null,
  });
  log.info(`lane ${target.name} stopped at its ${which} spend cap: ${capText(cap)}`);
  announceReport(ctx, target, report);
}

/** The turns a cap cancelled that have not ended: their agents are stopped, SIGKILL allowed. */
function stopIfStillWorking(ctx: LanesContext, ids: readonly number[]): void {
  for (const id of ids) {
    if (!ctx.conversations.facts(id).working) continue;
    const name = ctx.conversations.get(id)?.name ?? `#${id}`;
    ctx.conversations.notice(
      id,
      `svc stopped the agent: its turn was still running ${CANCEL_GRACE_MS / 1000} s after svc cancelled it at the spend cap (a tool call that ignored the cancel); raising the cap resumes it`,
    );
    log.info(`lane ${name}: its cancelled turn still ran after ${CANCEL_GRACE_MS} ms; stopping its agent`);
    let set = stoppedAtCap.get(ctx);
    if (!set) stoppedAtCap.set(ctx, (set = new Set()));
    set.add(id);
    ctx.conversations
      .stop(id, { timeoutMs: 5_000, kill: true })
      .catch((e) => log.warn(`stopping ${name} at its cap failed: ${(e as Error).message}`));
  }
}

/** The blocked report's body: SPEND first (the spec's keyword), what was spent, the cap, how to go on. */
export function spendBody(lane: LaneRow, which: 'lane' | 'run', cap: SpendCap): string {
  const from = {
    lane: 'its own cap (--budget or svc lane budget)',
    role: `the ${lane.role} role's default (gauntlet.roles.${lane.role}.budget)`,
    run: 'the run’s cap (svc lane budget --run)',
    project: 'the project’s per-run cap (gauntlet.budget)',
  };
  const what = which === 'lane' ? `Lane ${lane.name} reached its spend cap` : `Run ${lane.run} reached its spend cap`;
  const raise =
    which === 'lane'
      ? `svc lane budget ${lane.name} <usd>`
      : `svc lane budget --run ${lane.run} --project ${lane.project} <usd>`;
  return [
    `SPEND: ${what}: spent ${formatCost(cap.spent)} of ${formatCost(cap.cap ?? 0)}, ${cap.from ? from[cap.from] : 'a cap'}.`,
    '',
    `svc cancelled the turn in progress (an agent whose turn still runs ${CANCEL_GRACE_MS / 1000} s later is stopped). No further turn runs on ${lane.name} until the cap is raised: messages sent to it are refused with this reason.`,
    '',
    `- To go on: \`${raise}\` with a higher amount (a person, or the conversation that launched the lane); the lane is told to carry on.`,
    `- To end it: \`svc lane stop ${lane.name}\`.`,
  ].join('\n');
}

/** A launch into an iteration or run already at its cap would be held before its first turn: refused instead. */
export function checkSpendAllowsLaunch(
  ctx: LanesContext,
  project: string,
  run: string,
  reuseOf: LaneRow | undefined,
  budget: number | undefined,
): void {
  const book = new SpendBook(ctx, [run]);
  if (reuseOf) {
    const own = book.laneCap(reuseOf);
    const cap = budget ?? own.cap;
    if (cap !== null && own.spent >= cap)
      throw spendAtLaunchError(`lane ${reuseOf.name}`, capText(own), `svc lane budget ${reuseOf.name} <usd>`);
  }
  const cap = book.runCap(project, run);
  if (cap.cap !== null && cap.spent >= cap.cap)
    throw spendAtLaunchError(`run ${run}`, capText(cap), `svc lane budget --run ${run} <usd>`);
}
