// Lane rows and reports in the store. Lane rows join their conversation row; nothing
// here computes activity (see records.ts).
import type { Role, SandboxMode } from '../../shared/config';
import type { ReportStatus, Verdict } from '../../shared/keys';
import type { LaneReport } from '../../shared/protocol/lanes';
import type { Statement } from 'better-sqlite3';
import type { Db } from '../store/db';

export interface LaneRow {
  id: number;
  name: string;
  title: string;
  parentId: number;
  cwd: string;
  harness: string;
  model: string;
  effort: string | null;
  createdAt: number;
  endedAt: number | null;
  archivedAt: number | null;
  spawnError: string | null;
  project: string;
  run: string;
  key: string;
  role: Role;
  iteration: number;
  respawn: number;
  judgedKey: string | null;
  judgedIteration: number | null;
  gitBacked: boolean;
  branch: string | null;
  dir: string;
  lanesRoot: string;
  /** When `svc lane reap` removed its directory (null: not reaped). */
  reapedAt: number | null;
  /** The host the lane runs on over SSH (config.yaml hosts.<name>); null: this machine. */
  host: string | null;
  /** Its sandbox, fixed at launch; null for lanes launched before svc had one (they ran unconfined). */
  sandbox: SandboxMode | null;
  /** What the agent has cost so far, from its conversation row (null: not reported). */
  costAmount: number | null;
  /** The lane's own spend cap in USD (`--budget`, or raised since); null: the role's default applies. */
  budget: number | null;
  /** When `budget` was last set (launch or a raise). */
  budgetSetAt: number | null;
  /** The commit the lane's directory started at (null: unknown, or a lane launched before svc kept it). */
  startSha: string | null;
  /** The commit the lane's worktree was created from: its own start, or for a --reuse respawn (which starts none) that of the first lane in its directory. */
  baseSha: string | null;
}

const SELECT = `
  SELECT c.id, c.name, c.title, c.parent_id AS parentId, c.cwd, c.harness, c.model, c.effort,
         c.created_at AS createdAt, c.ended_at AS endedAt, c.archived_at AS archivedAt, c.spawn_error AS spawnError, c.host, c.sandbox, c.cost_amount AS costAmount,
         l.project, l.run_key AS run, l.lane_key AS key, l.role, l.iteration, l.respawn,
         l.judged_key AS judgedKey, l.judged_iteration AS judgedIteration, l.git_backed AS gitBacked,
         l.branch, l.dir, l.lanes_root AS lanesRoot, l.reaped_at AS reapedAt,
         l.budget, l.budget_set_at AS budgetSetAt, l.start_sha AS startSha,
         COALESCE(l.start_sha, (SELECT f.start_sha FROM lanes f
           WHERE f.run_key = l.run_key AND f.lane_key = l.lane_key AND f.role = l.role AND f.dir = l.dir AND f.start_sha IS NOT NULL
           ORDER BY f.created_at, f.conv_id LIMIT 1)) AS baseSha
  FROM lanes l JOIN conversations c ON c.id = l.conv_id`;

function fix(r: LaneRow | undefined): LaneRow | undefined {
  if (r) r.gitBacked = Boolean(r.gitBacked);
  return r;
}

export class LaneStore {
  constructor(private readonly db: Db) {}

  /** Compiled once, not on each call (asked often: spend checks, reaps). */
  private byIdQuery?: Statement;

  byId(id: number): LaneRow | undefined {
    this.byIdQuery ??= this.db.prepare(`${SELECT} WHERE l.conv_id = ?`);
    return fix(this.byIdQuery.get(id) as LaneRow | undefined);
  }

  /** Whether conversation `id` is a lane (the lanes' change listener asks this of every conversation change). */
  private isLaneQuery?: Statement;

  isLane(id: number): boolean {
    this.isLaneQuery ??= this.db.prepare('SELECT 1 FROM lanes WHERE conv_id = ?');
    return this.isLaneQuery.get(id) !== undefined;
  }

  all(): LaneRow[] {
    return (this.db.prepare(`${SELECT} ORDER BY l.created_at, c.id`).all() as LaneRow[]).map((r) => fix(r)!);
  }

  ofRun(run: string): LaneRow[] {
    return (this.db.prepare(`${SELECT} WHERE l.run_key = ? ORDER BY l.created_at, c.id`).all(run) as LaneRow[]).map(
      (r) => fix(r)!,
    );
  }

  /** The lanes of `project` whose branch is `branch`, in launch order (a lane's push is judged by them). */
  ofBranch(project: string, branch: string): LaneRow[] {
    return (
      this.db
        .prepare(`${SELECT} WHERE l.project = ? AND l.branch = ? ORDER BY l.created_at, c.id`)
        .all(project, branch) as LaneRow[]
    ).map((r) => fix(r)!);
  }

  /** Every lane of these runs, in launch order, in one query. */
  ofRuns(runs: string[]): LaneRow[] {
    if (runs.length === 0) return [];
    return (
      this.db
        .prepare(`${SELECT} WHERE l.run_key IN (SELECT value FROM json_each(?)) ORDER BY l.created_at, c.id`)
        .all(JSON.stringify(runs)) as LaneRow[]
    ).map((r) => fix(r)!);
  }

  /** Lanes of one run, key and role, in launch order. */
  ofSlot(run: string, key: string, role: Role): LaneRow[] {
    return (
      this.db
        .prepare(`${SELECT} WHERE l.run_key = ? AND l.lane_key = ? AND l.role = ? ORDER BY l.created_at, c.id`)
        .all(run, key, role) as LaneRow[]
    ).map((r) => fix(r)!);
  }

  /** Lanes whose directory is `dir` (a slot's own, or another run and key joined alike). */
  ofDir(dir: string): LaneRow[] {
    return (this.db.prepare(`${SELECT} WHERE l.dir = ? ORDER BY l.created_at, c.id`).all(dir) as LaneRow[]).map((r) =>
      fix(r)!,
    );
  }

  markReaped(convId: number, at: number): void {
    this.db.prepare('UPDATE lanes SET reaped_at = ? WHERE conv_id = ?').run(at, convId);
  }

  insertLane(
    l: Omit<
      LaneRow,
      | 'name'
      | 'title'
      | 'parentId'
      | 'cwd'
      | 'harness'
      | 'model'
      | 'effort'
      | 'endedAt'
      | 'archivedAt'
      | 'spawnError'
      | 'reapedAt'
      | 'host'
      | 'sandbox'
      | 'costAmount'
      | 'budget'
      | 'budgetSetAt'
      | 'startSha'
      | 'baseSha'
    > & { budget?: number | null; startSha?: string | null },
  ): void {
    this.db
      .prepare(
        `INSERT INTO lanes (conv_id, project, run_key, lane_key, role, iteration, respawn, judged_key, judged_iteration, git_backed, branch, dir, lanes_root, created_at, budget, budget_set_at, start_sha)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        l.id,
        l.project,
        l.run,
        l.key,
        l.role,
        l.iteration,
        l.respawn,
        l.judgedKey,
        l.judgedIteration,
        l.gitBacked ? 1 : 0,
        l.branch,
        l.dir,
        l.lanesRoot,
        l.createdAt,
        l.budget ?? null,
        l.budget === undefined || l.budget === null ? null : l.createdAt,
        l.startSha ?? null,
      );
  }

  // ---- spend caps ------------------------------------------------------------------------

  setBudget(convId: number, cap: number, at: number): void {
    this.db.prepare('UPDATE lanes SET budget = ?, budget_set_at = ? WHERE conv_id = ?').run(cap, at, convId);
  }

  /** A run's cap as raised with `svc lane budget --run` (it replaces the project's gauntlet.budget for that run). */
  runBudget(project: string, run: string): { cap: number; setAt: number } | undefined {
    return this.db
      .prepare('SELECT cap, set_at AS setAt FROM run_budgets WHERE project = ? AND run_key = ?')
      .get(project, run) as { cap: number; setAt: number } | undefined;
  }

  /** The raised caps of these runs in one query, by `<project>\0<run>` (runs never raised are absent). */
  runBudgetsOf(runs: string[]): Map<string, { cap: number; setAt: number }> {
    const map = new Map<string, { cap: number; setAt: number }>();
    if (runs.length === 0) return map;
    const rows = this.db
      .prepare(
        'SELECT project, run_key AS run, cap, set_at AS setAt FROM run_budgets WHERE run_key IN (SELECT value FROM json_each(?))',
      )
      .all(JSON.stringify(runs)) as { project: string; run: string; cap: number; setAt: number }[];
    for (const r of rows) map.set(`${r.project}\0${r.run}`, { cap: r.cap, setAt: r.setAt });
    return map;
  }

  setRunBudget(project: string, run: string, cap: number, at: number): void {
    this.db
      .prepare(
        'INSERT INTO run_budgets (project, run_key, cap, set_at) VALUES (?, ?, ?, ?) ON CONFLICT (project, run_key) DO UPDATE SET cap = excluded.cap, set_at = excluded.set_at',
      )
      .run(project, run, cap, at);
  }

  /**
   * What the successors (handoff, fork: followed down parent links through successor
   * conversations) of each lane of these runs have cost, in one query, by lane; lanes with
   * none are absent. `reported`: how many of them reported a cost at all. A lane's own cost
   * is its row's (LaneRow.costAmount): reading it here again would read every lane's
   * conversation row a second time on each list.
   */
  successorSpendOf(runs: string[]): Map<number, { amount: number; reported: number }> {
    const map = new Map<number, { amount: number; reported: number }>();
    if (runs.length === 0) return map;
    const rows = this.db
      .prepare(
        `WITH RECURSIVE fam(id, lane) AS (
           SELECT c.id, l.conv_id FROM lanes l JOIN conversations c ON c.parent_id = l.conv_id
           WHERE l.run_key IN (SELECT value FROM json_each(?)) AND c.kind = 'successor'
           UNION ALL
           SELECT c.id, fam.lane FROM conversations c JOIN fam ON c.parent_id = fam.id WHERE c.kind = 'successor'
         )
         SELECT fam.lane AS lane, COALESCE(SUM(c.cost_amount), 0) AS amount, COUNT(c.cost_amount) AS reported
         FROM fam CROSS JOIN conversations c ON c.id = fam.id GROUP BY fam.lane`,
      )
      .all(JSON.stringify(runs)) as { lane: number; amount: number; reported: number }[];
    for (const r of rows) map.set(r.lane, { amount: r.amount, reported: r.reported });
    return map;
  }

  /** The lane a conversation's spend counts toward: itself, or the lane its successor chain leads to. */
  laneOfSpender(convId: number): number | undefined {
    const row = this.db
      .prepare(
        `WITH RECURSIVE up(id, parent, kind, depth) AS (
           SELECT id, parent_id, kind, 0 FROM conversations WHERE id = ?
           UNION ALL
           SELECT c.id, c.parent_id, c.kind, up.depth + 1 FROM conversations c JOIN up ON c.id = up.parent WHERE up.kind = 'successor' AND up.depth < 1000
         )
         SELECT up.id FROM up JOIN lanes l ON l.conv_id = up.id WHERE up.kind = 'lane' ORDER BY up.depth LIMIT 1`,
      )
      .pluck()
      .get(convId) as number | undefined;
    return row;
  }

  /** The report a lane filed under `requestId`, if any (a retried `svc lane report`). */
  reportByRequest(convId: number, requestId: string): LaneReport | undefined {
    return this.db.prepare(`${REPORT_SELECT} WHERE conv_id = ? AND request_id = ?`).get(convId, requestId) as
      LaneReport | undefined;
  }

  reports(convId: number): LaneReport[] {
    return this.db.prepare(`${REPORT_SELECT} WHERE conv_id = ? ORDER BY seq`).all(convId) as LaneReport[];
  }

  /** Reports of many lanes in one query, each list in seq order. */
  reportsOf(convIds: number[]): Map<number, LaneReport[]> {
    const map = new Map<number, LaneReport[]>(convIds.map((id) => [id, []]));
    if (convIds.length === 0) return map;
    const rows = this.db
      .prepare(
        // The ids as one parameter: a statement with a placeholder per lane is compiled anew on each list.
        `${REPORT_SELECT.replace('SELECT ', 'SELECT conv_id AS convId, ')} WHERE conv_id IN (SELECT value FROM json_each(?)) ORDER BY conv_id, seq`,
      )
      .all(JSON.stringify(convIds)) as (LaneReport & { convId: number })[];
    for (const { convId, ...r } of rows) map.get(convId)!.push(r);
    return map;
  }

  newestReport(convId: number): LaneReport | undefined {
    return this.db.prepare(`${REPORT_SELECT} WHERE conv_id = ? ORDER BY seq DESC LIMIT 1`).get(convId) as
      LaneReport | undefined;
  }

  insertReport(r: {
    storeKey: string;
    convId: number;
    status: ReportStatus;
    body: string;
    verdict: Verdict | null;
    defects: number | null;
    verdictFile: string | null;
    headSha: string | null;
    branch: string | null;
    at: number;
    requestId: string | null;
  }): LaneReport {
    const seq =
      ((this.db.prepare('SELECT MAX(seq) FROM reports WHERE conv_id = ?').pluck().get(r.convId) as number | null) ??
        0) + 1;
    this.db
      .prepare(
        `INSERT INTO reports (store_key, conv_id, seq, status, body, verdict, defects, verdict_file, head_sha, branch, created_at, request_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        r.storeKey,
        r.convId,
        seq,
        r.status,
        r.body,
        r.verdict,
        r.defects,
        r.verdictFile,
        r.headSha,
        r.branch,
        r.at,
        r.requestId,
      );
    return {
      seq,
      status: r.status,
      body: r.body,
      verdict: r.verdict,
      defects: r.defects,
      verdictFile: r.verdictFile,
      headSha: r.headSha,
      branch: r.branch,
      at: r.at,
    };
  }
}

const REPORT_SELECT = `SELECT seq, status, body, verdict, defects, verdict_file AS verdictFile, head_sha AS headSha, branch, created_at AS at FROM reports`;
