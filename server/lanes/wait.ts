// `svc lane wait`: event-driven waits on one lane or a set (run or parent). A waiter
// re-checks on every report filed and every conversation change, and on two timers
// (idle deadline, timeout); it never polls.
import type { LaneReport } from '../../shared/protocol/lanes';
import type { z } from 'zod';
import type { WaitParams, WaitResult } from '../../shared/protocol/lanes';
import { badCursor, notALaneError, waitNoLanesError, waitTargetError } from './laneRefusals';
import type { LanesContext } from './lanesContext';
import type { LaneRow } from './laneStore';

export const IDLE_LIMIT_MS = 10 * 60 * 1000;
export const DEFAULT_WAIT_S = 300;

type Result = z.input<typeof WaitResult>;

interface Event {
  at: number;
  name: string;
  seq: number;
  lane: LaneRow;
  report: LaneReport | null;
  why: 'exited' | 'idle' | null;
}

/** When a lane went silent (ended, or idle 10 minutes) — undefined while it may still report. */
function silentAt(ctx: LanesContext, lane: LaneRow): { at: number; why: 'exited' | 'idle' } | undefined {
  if (lane.spawnError !== null || lane.endedAt !== null || lane.archivedAt !== null) {
    return { at: lane.endedAt ?? lane.archivedAt ?? lane.createdAt, why: 'exited' };
  }
  const f = ctx.conversations.facts(lane.id);
  if (f.alive && f.idleSince !== undefined && ctx.now() - f.idleSince >= IDLE_LIMIT_MS)
    return { at: f.idleSince + IDLE_LIMIT_MS, why: 'idle' };
  return undefined;
}

/** The next idle deadline among `lanes`, to arm a timer. */
function nextIdleDeadline(ctx: LanesContext, lanes: LaneRow[]): number | undefined {
  let soonest: number | undefined;
  for (const l of lanes) {
    const f = ctx.conversations.facts(l.id);
    if (f.alive && f.idleSince !== undefined) {
      const d = f.idleSince + IDLE_LIMIT_MS;
      if (soonest === undefined || d < soonest) soonest = d;
    }
  }
  return soonest;
}

export function parseCursor(s: string): { at: number; name: string; seq: number } {
  const m = /^(\d{1,15})\.(.+)\.(\d{1,9})$/.exec(s);
  if (!m) throw badCursor.cursor(s);
  return { at: Number(m[1]), name: m[2], seq: Number(m[3]) };
}

const cursorOf = (e: { at: number; name: string; seq: number }) => `${e.at}.${e.name}.${e.seq}`;

function after(e: Event, c: { at: number; name: string; seq: number }): boolean {
  if (e.at !== c.at) return e.at > c.at;
  if (e.name !== c.name) return e.name > c.name;
  return e.seq > c.seq;
}

/** One lane: its first report after `after` (a seq), or silence. */
function checkOne(ctx: LanesContext, lane: LaneRow, afterSeq: number): Result | undefined {
  const report = ctx.store.reports(lane.id).find((r) => r.seq > afterSeq);
  if (report)
    return {
      outcome: 'report',
      lane: lane.name,
      report,
      why: null,
      next: `svc lane wait ${lane.name} --after ${report.seq}`,
    };
  const s = silentAt(ctx, lane);
  if (s)
    return {
      outcome: 'silent',
      lane: lane.name,
      report: null,
      why: s.why,
      next: `svc lane wait ${lane.name} --after ${afterSeq}`,
    };
  return undefined;
}

/** A set: the oldest event (report, or a lane silent without any report) after the cursor. */
function checkSet(
  ctx: LanesContext,
  lanes: LaneRow[],
  cursor: { at: number; name: string; seq: number } | undefined,
  setFlag: string,
): Result | undefined {
  const events: Event[] = [];
  for (const lane of lanes) {
    const reports = ctx.store.reports(lane.id);
    for (const r of reports) events.push({ at: r.at, name: lane.name, seq: r.seq, lane, report: r, why: null });
    const s = reports.length === 0 ? silentAt(ctx, lane) : undefined;
    if (s) events.push({ at: s.at, name: lane.name, seq: 0, lane, report: null, why: s.why });
  }
  events.sort((a, b) => a.at - b.at || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) || a.seq - b.seq);
  const e = cursor ? events.find((x) => after(x, cursor)) : events[0];
  if (!e) return undefined;
  return {
    outcome: e.report ? 'report' : 'silent',
    lane: e.name,
    report: e.report,
    why: e.why,
    next: `svc lane wait ${setFlag} --after ${cursorOf(e)}`,
  };
}

export function waitForReport(ctx: LanesContext, p: z.output<typeof WaitParams>, signal: AbortSignal): Promise<Result> {
  const single = p.lane !== undefined;
  if ([p.lane, p.run, p.parent].filter((x) => x !== undefined).length !== 1) {
    throw waitTargetError();
  }
  let check: () => Result | undefined;
  let lanesNow: () => LaneRow[];
  let timeoutNext: string;
  if (single) {
    const conv = ctx.conversations.resolve(p.lane!);
    const lane = ctx.store.byId(conv.id);
    if (!lane) throw notALaneError(p.lane!, false);
    if (p.after !== undefined && !/^\d{1,9}$/.test(p.after)) throw badCursor.after(p.after);
    const afterSeq = Number(p.after ?? 0);
    lanesNow = () => [ctx.store.byId(lane.id)!];
    check = () => checkOne(ctx, lanesNow()[0], afterSeq);
    timeoutNext = `svc lane wait ${lane.name} --after ${afterSeq}`;
  } else {
    const cursor = p.after !== undefined ? parseCursor(p.after) : undefined;
    const parentId = p.parent !== undefined ? ctx.conversations.resolve(p.parent).id : undefined;
    const setFlag = p.run !== undefined ? `--run ${p.run}` : `--parent ${p.parent}`;
    lanesNow = () =>
      p.run !== undefined ? ctx.store.ofRun(p.run) : ctx.store.all().filter((l) => l.parentId === parentId);
    if (lanesNow().length === 0) throw waitNoLanesError(p.run !== undefined ? { run: p.run } : { parent: p.parent! });
    check = () => checkSet(ctx, lanesNow(), cursor, setFlag);
    timeoutNext = `svc lane wait ${setFlag}${p.after !== undefined ? ` --after ${p.after}` : ''}`;
  }
  const timeoutMs = (p.timeoutS ?? DEFAULT_WAIT_S) * 1000;

  return new Promise((resolve) => {
    let idleTimer: NodeJS.Timeout | undefined;
    const cleanups: (() => void)[] = [];
    let settled = false;
    const finish = (r: Result) => {
      if (settled) return;
      settled = true;
      for (const c of cleanups) c();
      resolve(r);
    };
    const recheck = () => {
      const r = check();
      if (r) return finish(r);
      if (idleTimer) clearTimeout(idleTimer);
      const deadline = nextIdleDeadline(ctx, lanesNow());
      if (deadline !== undefined) idleTimer = setTimeout(recheck, Math.max(0, deadline - ctx.now()) + 5);
    };
    const timeout = setTimeout(
      () =>
        finish({
          outcome: 'timeout',
          lane: single ? lanesNow()[0].name : null,
          report: null,
          why: null,
          next: timeoutNext,
        }),
      timeoutMs,
    );
    const onReport = () => recheck();
    ctx.events.on('report', onReport);
    const offChanged = ctx.conversations.onChanged(() => recheck());
    const offClock = ctx.app.clock.onAdvance(() => recheck());
    const onAbort = () => finish({ outcome: 'timeout', lane: null, report: null, why: null, next: timeoutNext });
    signal.addEventListener('abort', onAbort);
    cleanups.push(
      () => clearTimeout(timeout),
      () => idleTimer && clearTimeout(idleTimer),
      () => ctx.events.off('report', onReport),
      offChanged,
      offClock,
      () => signal.removeEventListener('abort', onAbort),
    );
    recheck();
  });
}
