// The overlap forecast, derived on every read and never stored (like activity): for each live
// builder, the other live builders of its project that change the same paths relative to the
// project's base, and which paths; and whether its branch now conflicts with that base.
// Facts are git's (changedPaths.ts); a lane git cannot answer for is left out, never guessed.
import { activityOfRow, isLive } from '../../shared/activity';
import type { LaneOverlap } from '../../shared/protocol/lanes';
import type { GitFacts } from '../git/git';
import type { FactsUnavailable } from '../git/worktreeFacts';
import { factsUnavailable } from '../git/worktreeFacts';
import { baseCommit, baseConflictPaths, changedPaths } from './changedPaths';
import type { LaneRow } from './laneStore';
import { isHere } from './laneWhere';
import { laneFactsRepo } from './laneGitRepo';
import type { LaneStore } from './laneStore';
import type { ConversationsPort } from './conversationsPort';

/** What the forecast reads of a listing (records.ts's LaneReader has it all). */
export interface ForecastReader {
  store: Pick<LaneStore, 'all'>;
  conversations: Pick<ConversationsPort, 'facts'>;
  repoOf(project: string): string | undefined;
  baseOf?(project: string): string | undefined;
  now(): number;
}

export interface Forecast {
  overlaps: Map<number, LaneOverlap[]>;
  /** Lanes whose branch conflicts with the base, by id: the conflicting paths. */
  baseConflict: Map<number, string[]>;
}

/** A builder the forecast can read: local, in a git worktree that still stands, and live now. */
export function forecastable(r: Pick<ForecastReader, 'conversations' | 'now'>, row: LaneRow): boolean {
  return (
    row.role === 'builder' &&
    row.gitBacked &&
    isHere(row) &&
    row.archivedAt === null &&
    row.reapedAt === null &&
    isLive(activityOfRow(row, r.conversations.facts(row.id), r.now()))
  );
}

/**
 * The forecastable builders of the projects `rows` has forecastable builders in: the lanes
 * whose git facts the forecast needs besides the rows' own. `all` is every lane when the
 * caller holds them already.
 */
export function forecastPeers(r: ForecastReader, rows: LaneRow[], all?: LaneRow[]): LaneRow[] {
  const projects = new Set(rows.filter((x) => forecastable(r, x)).map((x) => x.project));
  if (projects.size === 0) return [];
  return (all ?? r.store.all()).filter((x) => projects.has(x.project) && forecastable(r, x));
}

/**
 * Whether every forecastable row is known, from facts the caller holds (a worktree it has just
 * made), to be clean at its project's base commit now. Such a lane changes no path, so it
 * overlaps no one and conflicts with nothing, and its forecast needs no other lane's facts: a
 * launch's answer then reads one ref, however many lanes the project has (each other lane's
 * facts are a `git status` of its own repository under lanes.git: own). False when unsure.
 * `knownBase`: the base commit the caller resolved a moment ago, taken instead of reading
 * the ref (the rows are of one project); if the base has moved on since, a lane at the
 * commit it left still changes nothing relative to it.
 */
export async function knownAtBase(
  r: ForecastReader,
  rows: LaneRow[],
  known: ReadonlyMap<string, GitFacts> | undefined,
  knownBase?: string,
): Promise<boolean> {
  if (!known) return false;
  const live = rows.filter((x) => forecastable(r, x));
  if (live.length === 0) return false;
  const bases = new Map<string, Promise<string | undefined>>();
  const baseOf = (repo: string, base: string) => {
    if (!bases.has(repo))
      bases.set(repo, knownBase !== undefined ? Promise.resolve(knownBase) : baseCommit(repo, base));
    return bases.get(repo)!;
  };
  const at = await Promise.all(
    live.map(async (row) => {
      const f = known.get(row.dir);
      const repo = r.repoOf(row.project);
      const base = r.baseOf?.(row.project);
      if (!f || f.dirty || !f.headSha || !repo || !base) return false;
      return (await baseOf(repo, base)) === f.headSha;
    }),
  );
  return at.every(Boolean);
}

/** The facts of a lane read this time, when they say where its HEAD is. */
type FactsOf = (row: LaneRow) => GitFacts | FactsUnavailable | undefined;

/** The forecast for `peers` (forecastPeers), each against its project's base as its repository knows it. */
export async function forecast(r: ForecastReader, peers: LaneRow[], factsOf: FactsOf): Promise<Forecast> {
  const out: Forecast = { overlaps: new Map(), baseConflict: new Map() };
  const byProject = new Map<string, LaneRow[]>();
  for (const p of peers) byProject.set(p.project, [...(byProject.get(p.project) ?? []), p]);
  await Promise.all(
    [...byProject].map(async ([project, lanes]) => {
      const repo = r.repoOf(project);
      const base = r.baseOf?.(project);
      if (!repo || !base) return;
      const baseSha = await baseCommit(repo, base);
      if (!baseSha) return;
      const paths = new Map<number, Set<string>>();
      await Promise.all(
        lanes.map(async (l) => {
          const f = factsOf(l);
          if (!f || factsUnavailable(f) || !f.headSha) return;
          const [changed, conflict] = await Promise.all([
            changedPaths({ dir: l.dir, headSha: f.headSha, dirty: f.dirty }, baseSha),
            // Where the lane's head is: its own repository (lanes.git: own) may hold commits the project's does not yet.
            baseConflictPaths(laneFactsRepo(l.dir, repo), baseSha, f.headSha),
          ]);
          if (changed) paths.set(l.id, new Set(changed));
          if (conflict) out.baseConflict.set(l.id, conflict);
        }),
      );
      for (const l of lanes) {
        const mine = paths.get(l.id);
        if (!mine || mine.size === 0) continue;
        const found: LaneOverlap[] = [];
        for (const o of lanes) {
          // A slot's earlier iteration is the same work, not a sibling.
          if (o.id === l.id || (o.run === l.run && o.key === l.key)) continue;
          const theirs = paths.get(o.id);
          if (!theirs) continue;
          const shared = [...mine].filter((p) => theirs.has(p));
          if (shared.length) found.push({ key: o.key, lane: o.name, run: o.run, paths: shared });
        }
        if (found.length) out.overlaps.set(l.id, found);
      }
    }),
  );
  return out;
}
