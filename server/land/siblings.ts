// After the base of a project moves (a landing, a PR merged through svc's code host), every
// live builder whose branch now conflicts with the new base is told so, as `svc tell` tells,
// naming the paths: it learns of the conflict while it still works, not at its own landing.
// The deck marks the same lanes from the read-time forecast (lanes/overlaps.ts: baseConflict).
// A lane is told once per base commit it conflicts with: a second move to the same commit, or
// a retry of this call, says nothing twice.
import { fetchBase } from '../git/fetchBase';
import { spawnGit, FACTS_TIMEOUT_MS } from '../git/gitExec';
import { baseCommit, baseConflictPaths } from '../lanes/changedPaths';
import type { LanesContext } from '../lanes/lanesContext';
import type { LaneRow } from '../lanes/laneStore';
import { forecastable } from '../lanes/overlaps';
import { logger } from '../util/log';
import { laneFactsRepo } from '../lanes/laneGitRepo';

const log = logger('land');

export interface SiblingsTold {
  /** The base commit the builders were compared with; null when the base could not be read. */
  baseSha: string | null;
  told: { lane: string; paths: string[] }[];
}

/** `${lane id}\0${base sha}` of every warning given, so each is given once. */
const given = new Set<string>();
const GIVEN_MAX = 4096;

/** The words a builder is told: what moved, the paths, and how to bring its branch up to date. */
export function conflictMessage(lane: LaneRow, base: string, baseSha: string, paths: string[]): string {
  return [
    `svc: the base ${base} of project ${lane.project} moved to ${baseSha.slice(0, 12)}, and your branch ${lane.branch ?? '(detached)'} now conflicts with it on ${paths.length === 1 ? 'this path' : `these ${paths.length} paths`}:`,
    ...paths.map((p) => `  ${p}`),
    `Bring your branch up to date (git fetch origin ${base} && git merge origin/${base}), resolve these paths, commit, and go on with your brief.`,
  ].join('\n');
}

async function headOf(dir: string): Promise<string | undefined> {
  const r = await spawnGit(dir, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], {
    timeoutMs: FACTS_TIMEOUT_MS,
  }).catch(() => undefined);
  return r?.code === 0 ? r.stdout.toString('utf8').trim() : undefined;
}

/**
 * Tells every live builder of `project` whose committed branch now conflicts with the project's
 * base (fetched first, so the new commit is known) which paths conflict. `except`: lanes not to
 * tell (the lane that just landed). Never throws for one lane: a lane git cannot read is skipped.
 */
export async function tellConflictingSiblings(
  ctx: LanesContext,
  p: { project: string; except?: number[] },
): Promise<SiblingsTold> {
  const repo = ctx.repoOf(p.project);
  const base = ctx.baseOf?.(p.project);
  if (!repo || !base) return { baseSha: null, told: [] };
  await fetchBase(repo, base).catch((e: unknown) => log.warn(`fetch of ${p.project}'s base failed`, e));
  const baseSha = await baseCommit(repo, base);
  if (!baseSha) return { baseSha: null, told: [] };
  const skip = new Set(p.except ?? []);
  const lanes = ctx.store.all().filter((l) => l.project === p.project && !skip.has(l.id) && forecastable(ctx, l));
  const found = await Promise.all(
    lanes.map(async (l) => {
      const head = await headOf(l.dir);
      // Read where the lane's head is: its own repository (lanes.git: own) may hold commits the project's does not.
      const paths = head ? await baseConflictPaths(laneFactsRepo(l.dir, repo), baseSha, head) : undefined;
      return { lane: l, paths: paths ?? null };
    }),
  );
  const told: SiblingsTold['told'] = [];
  for (const { lane, paths } of found) {
    if (!paths || paths.length === 0) continue;
    const mark = `${lane.id}\0${baseSha}`;
    if (given.has(mark)) continue;
    try {
      ctx.conversations.tell(lane.id, conflictMessage(lane, base, baseSha, paths));
    } catch (e) {
      log.warn(`telling ${lane.name} of its conflict with ${base} failed`, e);
      continue;
    }
    if (given.size >= GIVEN_MAX) given.delete(given.values().next().value!);
    given.add(mark);
    told.push({ lane: lane.name, paths });
    log.info(`told ${lane.name}: its branch conflicts with ${base} at ${baseSha.slice(0, 7)} on ${paths.join(', ')}`);
  }
  return { baseSha, told };
}

/** tellConflictingSiblings for a base that moved in the background (a merge's listener): a fault is logged, never thrown. */
export function tellAfterBaseMoved(ctx: LanesContext, project: string): void {
  tellConflictingSiblings(ctx, { project }).catch((e: unknown) =>
    log.error(`telling ${project}'s builders of the moved base failed`, e),
  );
}
