// Lane records as every reader sees them: the row, activity computed now from the row
// and the live harness facts (shared/activity.ts), reports, verdicts and git facts.
// Many records are built from one snapshot: reports in one query, judges per run, git
// facts batched per repository (server/git/worktreeFacts.ts).
import { activityOfRow } from '../../shared/activity';
import type { Activity } from '../../shared/activity';
import type { LaneRecord, LaneReport } from '../../shared/protocol/lanes';
import { gitFacts } from '../git/git';
import type { GitFacts } from '../git/git';
import { FACTS_TIMEOUT_MS, GitTimeout } from '../git/gitExec';
import { factsUnavailable } from '../git/dirtyFlags';
import type { DirtyFlags, FactsUnavailable } from '../git/dirtyFlags';
import type { ConversationsPort } from './conversationsPort';
import type { LaneRow, LaneStore } from './laneStore';
import type { HostLink } from '../hosts/hostLink';
import type { Gauntlet } from '../../shared/config';
import type { z } from 'zod';
import { SpendBook } from './spend';
import { commitsSinceBase, wantsBaseCount } from './aheadOfBase';
import { laneFactsRepo } from './laneGitRepo';
import { factsKeyOf, isHere } from './laneWhere';
import { forecast, forecastPeers, knownAtBase } from './overlaps';
import type { Forecast } from './overlaps';

export interface LaneReader {
  store: LaneStore;
  /** Git facts of lanes on other hosts: one helper call per host over its shared connection. */
  hostOps?: Pick<HostLink, 'facts'>;
  conversations: ConversationsPort;
  gitFacts: DirtyFlags;
  /**
   * Git facts of lanes with a repository of their own (lanes.git: own): plain `git status`
   * per lane, since kept's per-repository re-checks stalled the daemon's thread with one
   * repository per lane (laneListLargeLanes). Absent: gitFacts serves them too.
   */
  ownRepoFacts?: DirtyFlags;
  /** The checkout of a project, if it is still configured. */
  repoOf(project: string): string | undefined;
  /** The project's gauntlet block (role and run budgets), if configured. */
  gauntletOf(project: string): z.infer<typeof Gauntlet> | undefined;
  /** The project's base branch (default_branch), if it is still configured: what the overlap forecast reads against. */
  baseOf?(project: string): string | undefined;
  now(): number;
  /** The lane's parked patches, each with the command that restores it now. */
  parked?(row: LaneRow): LaneRecord['parked'];
}

export function laneActivity(r: Pick<LaneReader, 'conversations' | 'now'>, row: LaneRow): Activity {
  return activityOfRow(row, r.conversations.facts(row.id), r.now());
}

interface Snapshot {
  reports: Map<number, LaneReport[]>;
  judges: Map<string, LaneRow[]>;
  facts: Map<string, GitFacts | FactsUnavailable>;
  /** Commits since the base of lanes whose branch has no upstream, by lane id (aheadOfBase.ts). */
  sinceBase: Map<number, number>;
  spend: SpendBook;
  forecast: Forecast;
}

const judgeKey = (run: string, key: string, iteration: number) => `${run}\0${key}\0${iteration}`;

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

// Every lookup here is one query or one map for the whole list, never one per row: the
// deck reads every lane on each change (bench/deckModel.bench.ts). The git facts are asked
// for first: their processes run while this thread reads the store.
async function snapshot(r: LaneReader, rows: LaneRow[], from: RecordsFrom): Promise<Snapshot> {
  const facts = new Map<string, GitFacts | FactsUnavailable>(from.known);
  // The overlap forecast of the rows' live builders needs the facts of every live builder of
  // their projects, unless the rows are known to change nothing (a lane just launched).
  const peers = (await knownAtBase(r, rows, from.known, from.knownBase)) ? [] : forecastPeers(r, rows, from.allLanes);
  const listed = new Set(rows.map((x) => x.id));
  const reading = readGitFacts(r, [...rows, ...peers.filter((p) => !listed.has(p.id))], facts);
  // Every lane of the listed runs, read once: the verdicts' judges and the spend book both need them.
  const runs = [...new Set(rows.map((x) => x.run))];
  const ofRuns = lanesOfRuns(r, runs, from.runLanes);
  const judges = new Map<string, LaneRow[]>();
  for (const l of ofRuns) {
    if (l.role !== 'critic' && l.role !== 'verifier') continue;
    if (l.judgedKey === null || l.judgedIteration === null) continue;
    push(judges, judgeKey(l.run, l.judgedKey, l.judgedIteration), l);
  }
  const ids = new Set(rows.map((l) => l.id));
  for (const list of judges.values()) for (const j of list) ids.add(j.id);
  const reports = r.store.reportsOf([...ids]);
  const spend = new SpendBook(r, runs, ofRuns);
  await reading;
  const [sinceBase, fc] = await Promise.all([
    countSinceBase(rows, facts),
    forecast(r, peers, (row) => facts.get(row.dir)),
  ]);
  return { reports, judges, facts, spend, sinceBase, forecast: fc };
}

/** Local lanes on a branch never pushed: their commits since the base, counted in parallel. */
async function countSinceBase(
  rows: LaneRow[],
  facts: Map<string, GitFacts | FactsUnavailable>,
): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  await Promise.all(
    rows.map(async (row) => {
      const f = isHere(row) ? facts.get(row.dir) : undefined;
      if (!f || factsUnavailable(f) || !row.gitBacked || !wantsBaseCount(f, row.baseSha)) return;
      const n = await commitsSinceBase(row.dir, row.baseSha, f.headSha!);
      if (n !== undefined) out.set(row.id, n);
    }),
  );
  return out;
}

/** Every lane of `runs` in launch order: taken from lanes the caller read already when it holds them all, else read. */
function lanesOfRuns(r: LaneReader, runs: string[], held: LaneRow[] | undefined): LaneRow[] {
  if (!held) return r.store.ofRuns(runs);
  const wanted = new Set(runs);
  return held.filter((l) => wanted.has(l.run));
}

/** Fills `facts` with the git facts of the rows' worktrees: per repository, per host, or alone. */
async function readGitFacts(
  r: LaneReader,
  rows: LaneRow[],
  facts: Map<string, GitFacts | FactsUnavailable>,
): Promise<void> {
  const byRepo = new Map<string, string[]>();
  const byHost = new Map<string, string[]>();
  const loose: string[] = [];
  const ownRepos = new Set<string>();
  const repos = new Map<string, string | undefined>();
  const repoOf = (project: string) => {
    if (!repos.has(project)) repos.set(project, r.repoOf(project));
    return repos.get(project);
  };
  for (const l of rows) {
    if (!l.gitBacked || l.archivedAt !== null || l.reapedAt !== null || facts.has(l.dir)) continue;
    if (!isHere(l)) {
      push(byHost, l.host!, l.dir);
      continue;
    }
    const repo = repoOf(l.project);
    // A lane with a repository of its own is listed by that repository (laneGitRepo.ts).
    const factsRepo = repo ? laneFactsRepo(l.dir, repo) : undefined;
    if (factsRepo && factsRepo !== repo) ownRepos.add(factsRepo);
    if (factsRepo) push(byRepo, factsRepo, l.dir);
    else loose.push(l.dir);
  }
  await Promise.all([
    // Lanes of a project no longer configured: one `git status` each.
    ...loose.map(async (dir) => {
      const f = await gitFacts(dir, { timeoutMs: FACTS_TIMEOUT_MS }).catch((e: unknown) =>
        e instanceof GitTimeout ? { unavailable: e.short } : undefined,
      );
      if (f) facts.set(dir, f);
    }),
    ...[...byRepo].map(async ([repo, dirs]) => {
      const reader = ownRepos.has(repo) ? (r.ownRepoFacts ?? r.gitFacts) : r.gitFacts;
      const found = await reader.ofRepo(repo, dirs).catch(() => new Map<string, GitFacts | FactsUnavailable>());
      for (const [dir, f] of found) facts.set(dir, f);
    }),
    // An unreachable host leaves its lanes without git facts; their rows still list.
    ...[...byHost].map(async ([host, dirs]) => {
      const found = (await r.hostOps?.facts(host, dirs).catch(() => undefined)) ?? new Map<string, GitFacts>();
      for (const [dir, f] of found) facts.set(factsKeyOf({ host, dir }), f);
    }),
  ]);
}

function verdictOf(row: LaneRow, snap: Snapshot): LaneRecord['verdict'] {
  const judges =
    row.role === 'builder'
      ? (snap.judges.get(judgeKey(row.run, row.key, row.iteration)) ?? [])
      : row.role === 'critic' || row.role === 'verifier'
        ? [row]
        : [];
  for (const j of [...judges].reverse()) {
    const v = (snap.reports.get(j.id) ?? []).find((x) => x.status === 'done' && x.verdict !== null);
    if (v) return { verdict: v.verdict!, defects: v.defects ?? 0, by: j.id, verdictFile: v.verdictFile };
  }
  return null;
}

function recordOf(r: LaneReader, row: LaneRow, snap: Snapshot): LaneRecord {
  const reports = snap.reports.get(row.id) ?? [];
  const read = snap.facts.get(factsKeyOf(row));
  const git = factsUnavailable(read) ? undefined : read;
  return {
    id: row.id,
    name: row.name,
    title: row.title,
    project: row.project,
    run: row.run,
    key: row.key,
    role: row.role,
    iteration: row.iteration,
    respawn: row.respawn,
    parentId: row.parentId,
    cwd: row.dir,
    host: row.host,
    gitBacked: row.gitBacked,
    sandbox: row.sandbox ?? 'off',
    judged:
      row.judgedKey !== null && row.judgedIteration !== null
        ? { key: row.judgedKey, iteration: row.judgedIteration }
        : null,
    activity: laneActivity(r, row),
    hostLost: isHere(row) ? null : (r.conversations.facts(row.id).hostLost ?? null),
    spawnError: row.spawnError,
    archived: row.archivedAt !== null,
    reaped: row.reapedAt !== null,
    createdAt: row.createdAt,
    endedAt: row.endedAt,
    model: row.model,
    harness: row.harness,
    effort: row.effort,
    cost: row.costAmount,
    budget: snap.spend.budget(row),
    report: reports[reports.length - 1] ?? null,
    verdict: verdictOf(row, snap),
    git: git ? gitOf(git, snap.sinceBase.get(row.id)) : null,
    gitUnavailable: factsUnavailable(read) ? read.unavailable : null,
    parked: r.parked?.(row) ?? [],
    baseSha: row.gitBacked ? row.baseSha : null,
    overlaps: snap.forecast.overlaps.get(row.id) ?? [],
    baseConflict: snap.forecast.baseConflict.has(row.id) ? { paths: snap.forecast.baseConflict.get(row.id)! } : null,
  };
}

function gitOf(git: GitFacts, sinceBase: number | undefined): LaneRecord['git'] {
  const facts = { branch: git.branch, headSha: git.headSha, ahead: git.ahead, dirty: git.dirty };
  return sinceBase === undefined ? facts : { ...facts, ahead: sinceBase, aheadOfBase: true };
}

export interface RecordsFrom {
  /** Git facts the caller already holds (a worktree it just created), by directory. */
  known?: Map<string, GitFacts>;
  /**
   * Every lane of the rows' runs, in launch order, when the caller read them already (the
   * rows are filtered from store.all() or store.ofRun()): the verdicts' judges and the spend
   * book take them from here instead of reading the same lanes again.
   */
  runLanes?: LaneRow[];
  /** Every lane, when the caller read them all already (store.all()): the forecast's peers are taken from here. */
  allLanes?: LaneRow[];
  /** The rows' project's base commit as the caller resolved it a moment ago (a launch): not read again. */
  knownBase?: string;
}

export async function laneRecords(r: LaneReader, rows: LaneRow[], from: RecordsFrom = {}): Promise<LaneRecord[]> {
  const snap = await snapshot(r, rows, from);
  return rows.map((row) => recordOf(r, row, snap));
}

export async function laneRecord(
  r: LaneReader,
  row: LaneRow,
  from: Pick<RecordsFrom, 'known' | 'knownBase'> = {},
): Promise<LaneRecord> {
  return (await laneRecords(r, [row], from))[0];
}
