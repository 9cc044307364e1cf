// Spend caps, computed on every read like activity: what a lane and its run have cost
// against their caps. A lane's spend is its iteration's conversations (the lane and its
// --reuse respawns, which share its directory) with their successors (handoff, fork); a
// run's is every lane of the run with their successors. A cap is reached at or above it.
import type { Gauntlet } from '../../shared/config';
import { formatCost } from '../../shared/format/money';
import type { LaneBudget, SpendCap } from '../../shared/protocol/lanes';
import type { z } from 'zod';
import type { ConversationsPort } from './conversationsPort';
import type { LaneRow, LaneStore } from './laneStore';

export interface SpendReader {
  store: LaneStore;
  conversations: Pick<ConversationsPort, 'facts'>;
  /** The project's gauntlet block (role budgets, the per-run budget), if configured. */
  gauntletOf(project: string): z.infer<typeof Gauntlet> | undefined;
}

/** From this share of a cap on, views show the spend as a warning. */
export const NEAR_SHARE = 0.8;

const pct = (spent: number, cap: number) => `${Math.floor((spent / cap) * 100)}%`;
export const capText = (c: SpendCap) =>
  c.cap === null ? formatCost(c.spent) : `${formatCost(c.spent)} of ${formatCost(c.cap)} (${pct(c.spent, c.cap)})`;
const reached = (c: SpendCap) => c.cap !== null && c.spent >= c.cap;

function iterationId(l: LaneRow): string {
  return `${l.project}\0${l.run}\0${l.key}\0${l.role}\0${l.dir}`;
}

/** One read of the spend of some runs, for as many lanes of them as asked about. */
export class SpendBook {
  private readonly runs = new Map<string, LaneRow[]>();
  private readonly spend: Map<number, { amount: number; reported: boolean }>;
  private readonly runKeys: string[];
  /** The runs' raised caps, read in one query when a run's cap is first asked for. */
  private raisedCaps: Map<string, { cap: number; setAt: number }> | undefined;

  /** `lanes`: every lane of `runs` in launch order (store.ofRuns), when the caller has read them already. */
  constructor(
    private readonly r: SpendReader,
    runs: string[],
    lanes?: LaneRow[],
  ) {
    const unique = [...new Set(runs)];
    this.runKeys = unique;
    for (const run of unique) this.runs.set(run, []);
    const successors = r.store.successorSpendOf(unique);
    this.spend = new Map();
    for (const l of lanes ?? r.store.ofRuns(unique)) {
      this.runs.get(l.run)!.push(l);
      // The lane's own cost (its conversation row's) with its successors'.
      const next = successors.get(l.id);
      this.spend.set(l.id, {
        amount: (l.costAmount ?? 0) + (next?.amount ?? 0),
        reported: l.costAmount !== null || (next?.reported ?? 0) > 0,
      });
    }
  }

  // Read once per book: a list of many lanes asks for each run's cap and project's caps many times.
  private readonly runCaps = new Map<string, SpendCap>();
  private readonly gauntlets = new Map<string, ReturnType<SpendReader['gauntletOf']>>();
  private gauntlet(project: string): ReturnType<SpendReader['gauntletOf']> {
    if (!this.gauntlets.has(project)) this.gauntlets.set(project, this.r.gauntletOf(project));
    return this.gauntlets.get(project);
  }

  // Grouped once per book: a list of a 1,000-lane run asks for each lane's iteration, and
  // filtering the run for each would grow with the square of the lanes.
  private readonly byRun = new Map<string, LaneRow[]>();
  private readonly byIteration = new Map<string, LaneRow[]>();

  /** The lanes of one run of one project, in launch order. */
  runLanes(project: string, run: string): LaneRow[] {
    const id = `${project}\0${run}`;
    let lanes = this.byRun.get(id);
    if (!lanes) {
      lanes = (this.runs.get(run) ?? []).filter((l) => l.project === project);
      this.byRun.set(id, lanes);
      for (const l of lanes) {
        const it = iterationId(l);
        const same = this.byIteration.get(it);
        if (same) same.push(l);
        else this.byIteration.set(it, [l]);
      }
    }
    return lanes;
  }

  /** The lane's iteration: the lanes of its run, key and role in its directory (a --reuse respawn joins its iteration). */
  iteration(lane: LaneRow): LaneRow[] {
    this.runLanes(lane.project, lane.run);
    return this.byIteration.get(iterationId(lane)) ?? [];
  }

  /** The iteration's newest lane: the one its cap lives on and its SPEND report goes to. */
  newest(lane: LaneRow): LaneRow {
    const it = this.iteration(lane);
    return it[it.length - 1] ?? lane;
  }

  laneCap(lane: LaneRow): SpendCap & { reported: boolean } {
    const it = this.iteration(lane);
    const spent = it.reduce((sum, l) => sum + (this.spend.get(l.id)?.amount ?? 0), 0);
    const reported = it.some((l) => this.spend.get(l.id)?.reported);
    const own = [...it].reverse().find((l) => l.budget !== null);
    if (own) return { spent, cap: own.budget, from: 'lane', reported };
    const role = this.gauntlet(lane.project)?.roles?.[lane.role]?.budget;
    return { spent, cap: role ?? null, from: role === undefined ? null : 'role', reported };
  }

  runCap(project: string, run: string): SpendCap {
    const id = `${project}\0${run}`;
    const known = this.runCaps.get(id);
    if (known) return known;
    const spent = this.runLanes(project, run).reduce((sum, l) => sum + (this.spend.get(l.id)?.amount ?? 0), 0);
    // A run outside the book's (never asked of a book today) is read on its own.
    this.raisedCaps ??= this.r.store.runBudgetsOf(this.runKeys);
    const raised = this.runs.has(run) ? this.raisedCaps.get(id) : this.r.store.runBudget(project, run);
    const cap = raised?.cap ?? this.gauntlet(project)?.budget ?? null;
    const found: SpendCap = { spent, cap, from: raised ? 'run' : cap !== null ? 'project' : null };
    this.runCaps.set(id, found);
    return found;
  }

  /** Why the lane may take no turn now (a cap is reached), or null. */
  heldBy(lane: LaneRow): { which: 'lane' | 'run'; cap: SpendCap } | null {
    const own = this.laneCap(lane);
    if (reached(own)) return { which: 'lane', cap: own };
    const run = this.runCap(lane.project, lane.run);
    if (reached(run)) return { which: 'run', cap: run };
    return null;
  }

  budget(lane: LaneRow): LaneBudget {
    const own = this.laneCap(lane);
    const run = this.runCap(lane.project, lane.run);
    const ownCap: SpendCap = { spent: own.spent, cap: own.cap, from: own.from };
    const base = { spent: own.spent, cap: own.cap, from: own.from, run };
    const runPart = run.cap !== null ? ` · run ${capText(run)}` : '';
    if (reached(ownCap) || reached(run)) {
      const which = reached(ownCap) ? 'lane' : 'run';
      return {
        ...base,
        state: 'reached',
        text: `${capText(ownCap)}${runPart} — ${which} cap reached: svc lane budget ${which === 'lane' ? lane.name : `--run ${lane.run}`} <usd> to go on`,
      };
    }
    if ((own.cap !== null || run.cap !== null) && !own.reported && this.turnRan(lane)) {
      return { ...base, state: 'not-enforceable', text: `budget: not enforceable — ${lane.harness} reports no cost` };
    }
    if (own.cap === null && run.cap === null)
      return {
        ...base,
        state: 'none',
        text: own.reported ? `${formatCost(own.spent)} (no cap)` : 'no cost reported (no cap)',
      };
    const near = (c: SpendCap) => c.cap !== null && c.spent >= c.cap * NEAR_SHARE;
    return { ...base, state: near(ownCap) || near(run) ? 'near' : 'ok', text: `${capText(ownCap)}${runPart}` };
  }

  /** Whether any conversation of the iteration finished a turn (or ended): a harness that reports cost has then reported some. */
  private turnRan(lane: LaneRow): boolean {
    return this.iteration(lane).some(
      (l) =>
        l.endedAt !== null ||
        this.r.conversations.facts(l.id).lastTurnEndedAt !== undefined ||
        this.r.store.newestReport(l.id) !== undefined,
    );
  }
}
