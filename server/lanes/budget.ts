// `svc lane budget <lane> <usd>` / `svc lane budget --run <key> <usd>`: set or raise a spend
// cap. Who may: a person (no calling conversation), or a conversation that launched the
// lane — its launcher or any conversation up its launch chain (`mayRaiseBudget`). A lane
// may never raise its own cap. Lanes a raise frees are told to carry on (one svc stopped at
// the cap is resumed first).
import { isLive } from '../../shared/activity';
import type { z } from 'zod';
import type { BudgetParams, BudgetResult } from '../../shared/protocol/lanes';
import type { ConvRow } from './conversationsPort';
import { notALaneError } from './laneRefusals';
import type { LanesContext } from './lanesContext';
import type { LaneRow } from './laneStore';
import { effectiveLauncher } from './launchRules';
import { laneActivity } from './records';
import { capText, SpendBook } from './spend';
import { takeStoppedAtCap } from './spendGuard';
import { logger } from '../util/log';
import { budgetNotAllowedError, budgetTargetError, noSuchRunError } from './spendRefusals';

type Params = z.output<typeof BudgetParams>;

const log = logger('spend');

/**
 * The authority rule of `lanes/budget`: no caller (a person) may; a calling conversation
 * may when it, or the conversation it continues (a handoff or fork successor stands for its
 * source), is a strict ancestor, by launch links, of every lane named.
 */
export function mayRaiseBudget(ctx: LanesContext, caller: ConvRow | undefined, lanes: LaneRow[]): boolean {
  if (!caller) return true;
  const who = effectiveLauncher(ctx.conversations, caller).id;
  return lanes.every((lane) => {
    let cur: number | null = lane.parentId;
    for (let hops = 0; cur !== null && hops < 1000; hops++) {
      if (cur === who) return true;
      cur = ctx.conversations.get(cur)?.parentId ?? null;
    }
    return false;
  });
}

export function setBudget(ctx: LanesContext, p: Params): z.infer<typeof BudgetResult> {
  if ((p.lane === undefined) === (p.run === undefined)) throw budgetTargetError();
  const caller = p.caller ? ctx.conversations.resolve(p.caller) : undefined;
  const now = ctx.now();
  let lanes: LaneRow[];
  let target: string;
  let apply: (book: SpendBook) => void;
  if (p.lane !== undefined) {
    const conv = ctx.conversations.resolve(p.lane);
    const lane = ctx.store.byId(conv.id);
    if (!lane) throw notALaneError(p.lane, true);
    lanes = [lane];
    target = `lane ${lane.name}`;
    apply = (book) => ctx.store.setBudget(book.newest(lane).id, p.usd, now);
  } else {
    const run = p.run!;
    const all = ctx.store.ofRun(run).filter((l) => p.project === undefined || l.project === p.project);
    const projects = [...new Set(all.map((l) => l.project))];
    if (projects.length !== 1)
      throw noSuchRunError(
        run,
        p.project ?? (projects.length > 1 ? `(several: pass --project ${projects.join('|')})` : undefined),
      );
    lanes = all;
    target = `run ${projects[0]}/${run}`;
    apply = () => ctx.store.setRunBudget(projects[0], run, p.usd, now);
  }
  if (!mayRaiseBudget(ctx, caller, lanes)) throw budgetNotAllowedError(`#${caller!.id} (${caller!.name})`, target);

  const { project, run } = lanes[0];
  const before = new SpendBook(ctx, [run]);
  const runLanes = before.runLanes(project, run);
  const heldBefore = new Set(runLanes.filter((l) => before.heldBy(l)).map((l) => l.id));
  apply(before);
  const after = new SpendBook(ctx, [run]);
  const released: string[] = [];
  const stillHeld: { lane: string; text: string }[] = [];
  for (const l of runLanes) {
    if (!heldBefore.has(l.id)) continue;
    const held = after.heldBy(l);
    if (held) {
      stillHeld.push({ lane: l.name, text: `${held.which} cap: ${capText(held.cap)}` });
      continue;
    }
    if (carryOn(ctx, l, after)) released.push(l.name);
  }
  ctx.app.notify({ topic: 'lanes' });
  ctx.app.notify({ topic: 'runs' });
  const shown = p.lane !== undefined ? after.laneCap(lanes[0]) : after.runCap(project, run);
  return { target, cap: p.usd, spent: shown.spent, released, stillHeld };
}

/**
 * A freed lane goes on: one svc stopped at the cap is resumed; messages it had queued are
 * delivered first, then it is told to carry on. False when it was not told (it is not running).
 */
function carryOn(ctx: LanesContext, lane: LaneRow, book: SpendBook): boolean {
  if (takeStoppedAtCap(ctx, lane.id) && !ctx.conversations.facts(lane.id).alive) {
    try {
      ctx.conversations.resume(lane.id);
    } catch (e) {
      log.warn(`resuming ${lane.name} after its cap was raised failed: ${(e as Error).message}`);
      return false;
    }
  } else if (!isLive(laneActivity(ctx, lane)) || !ctx.conversations.facts(lane.id).alive) return false;
  const cap = book.laneCap(lane);
  const run = book.runCap(lane.project, lane.run);
  const caps = [cap.cap !== null ? `lane ${capText(cap)}` : null, run.cap !== null ? `run ${capText(run)}` : null]
    .filter(Boolean)
    .join(', ');
  ctx.conversations.kick(lane.id);
  ctx.conversations.tell(
    lane.id,
    `svc: your spend cap was raised (${caps}). Carry on with your brief from where the cancelled turn stopped, and report with svc lane report as before.`,
    { force: true },
  );
  return true;
}
