// `svc lane pick --run <run> --keys <k1,k2,…>`: best of N. For each key, the builder's newest
// done head (the one `svc lane land` would take); the project checks on each head, in
// parallel (at most 2 × cores across the daemon), each in a fresh worktree of its own in the
// lane sandbox; the newest verdict on that iteration and the diff size against the base;
// then the ranking of shared/format/pickRanking.ts. It lands nothing and moves nothing.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { rankCandidates, winnerOf } from '../../shared/format/pickRanking';
import type { NotCandidate, PickCandidate } from '../../shared/format/pickRanking';
import type { GauntletCheck } from '../../shared/config';
import type { PickResult } from '../../shared/protocol/land';
import type { App } from '../app';
import type { Caller } from '../authority/caller';
import { fetchBase } from '../git/fetchBase';
import { Slots } from '../git/factsQueues';
import { git, gitOk, serialized } from '../git/git';
import type { ConversationsPort } from '../lanes/conversationsPort';
import type { LaneRow, LaneStore } from '../lanes/laneStore';
import { runChecks } from './checks';
import type { CheckResult } from './checks';
import { mayPick } from './pickAuthority';
import { pickNoSuchRunError } from './landRefusals';

export interface PickDeps {
  app: App;
  lanes: LaneStore;
  conversations: ConversationsPort;
}

/** Candidates' checks in flight across every pick of this daemon (each candidate's checks run in turn). */
const slots = new Slots(2 * os.availableParallelism());
/** Picks of this daemon still running: their worktrees are theirs, any other `.pick-*` one is a leftover. */
const running = new Set<string>();
let seq = 0;

/** A candidate before ranking: its builder lane, the head, and what gathering found. */
interface Gathered {
  key: string;
  lane: LaneRow;
  head: string;
  verdict: { verdict: PickCandidate['verdict']; defects: number; by: string } | null;
}

export async function pickBest(
  deps: PickDeps,
  p: { run: string; keys: string[]; project?: string },
  caller: Caller,
): Promise<PickResult> {
  const all = deps.lanes.ofRun(p.run).filter((l) => p.project === undefined || l.project === p.project);
  const projects = [...new Set(all.map((l) => l.project))];
  if (projects.length !== 1) throw pickNoSuchRunError(p.run, p.project, projects);
  const projectKey = projects[0];
  const keys = [...new Set(p.keys)];
  const builders = keys.flatMap((k) => all.filter((l) => l.role === 'builder' && l.key === k));
  mayPick(deps.conversations, caller, builders);

  const project = deps.app.config.project(projectKey);
  const gathered: Gathered[] = [];
  const notCandidates: NotCandidate[] = [];
  for (const key of keys) {
    const slot = builders.filter((l) => l.key === key);
    const newest = slot[slot.length - 1];
    if (!newest) {
      notCandidates.push({ key, lane: null, reason: `no builder of key ${key} in run ${p.run}` });
      continue;
    }
    const reports = slot.flatMap((l) => deps.lanes.reports(l.id).map((r) => ({ lane: l, r })));
    const done = reports
      .filter((x) => x.r.status === 'done' && x.r.headSha)
      .sort((a, b) => a.r.at - b.r.at)
      .pop();
    if (!done) {
      const last = reports.sort((a, b) => a.r.at - b.r.at).pop();
      notCandidates.push({
        key,
        lane: newest.name,
        reason: `no done report with a head yet (${last ? `its newest report is ${last.r.status}` : 'no report yet'})`,
      });
      continue;
    }
    if (!(await haveCommit(project.path, done.r.headSha!, done.r.branch))) {
      notCandidates.push({
        key,
        lane: done.lane.name,
        reason: `its done head ${done.r.headSha!.slice(0, 12)} is neither in the project's repository nor on origin`,
      });
      continue;
    }
    gathered.push({ key, lane: done.lane, head: done.r.headSha!, verdict: verdictOn(deps.lanes, all, done.lane) });
  }

  const base = project.default_branch;
  const baseRef = await fetchBase(project.path, base);
  const baseSha = (await git(project.path, ['rev-parse', '--verify', `${baseRef}^{commit}`])).trim();
  const pickId = `${Date.now().toString(36)}-${++seq}`;
  running.add(pickId);
  try {
    const checked = await Promise.all(
      gathered.map(async (g) => {
        const [results, diffLines] = await Promise.all([
          slots.run(() => checksOn(deps, pickId, g, project.path, project.gauntlet?.checks ?? [])),
          diffSize(project.path, baseSha, g.head),
        ]);
        return { g, results, diffLines };
      }),
    );
    const ranked = rankCandidates(
      checked.map(({ g, results, diffLines }): PickCandidate & { results: CheckResult[] } => {
        const failed = results.filter((r) => !r.ok);
        return {
          key: g.key,
          lane: g.lane.name,
          head: g.head,
          checks: failed.length ? { green: false, failed: failed.map((r) => r.name) } : { green: true },
          failedOutput: failed.map((r) => ({ name: r.name, outputPath: r.outputPath })),
          verdict: g.verdict?.verdict ?? null,
          defects: g.verdict?.defects ?? 0,
          diffLines,
          results,
        };
      }),
    );
    const by = new Map(gathered.map((g) => [g.key, g.verdict?.by ?? null]));
    return {
      project: projectKey,
      run: p.run,
      base,
      baseSha,
      ranking: ranked.map(({ results, ...c }) => ({
        ...c,
        failedOutput: c.failedOutput ?? [],
        checkResults: results.map(({ tail: _tail, ...r }) => r),
        verdictBy: by.get(c.key) ?? null,
      })),
      notCandidates,
      winner: winnerOf(ranked)?.lane ?? null,
    };
  } finally {
    running.delete(pickId);
  }
}

/**
 * The newest verdict on the iteration whose head is ranked (a critic's or a verifier's, as
 * `svc lane list` shows it): a verdict on an earlier iteration judged another commit.
 */
function verdictOn(store: LaneStore, runLanes: readonly LaneRow[], builder: LaneRow): Gathered['verdict'] {
  const judges = runLanes.filter(
    (l) =>
      (l.role === 'critic' || l.role === 'verifier') &&
      l.judgedKey === builder.key &&
      l.judgedIteration === builder.iteration,
  );
  for (const j of [...judges].reverse()) {
    const v = store.reports(j.id).find((r) => r.status === 'done' && r.verdict !== null);
    if (v) return { verdict: v.verdict, defects: v.defects ?? 0, by: j.name };
  }
  return null;
}

async function checksOn(
  deps: PickDeps,
  pickId: string,
  g: Gathered,
  repo: string,
  checks: readonly GauntletCheck[],
): Promise<CheckResult[]> {
  if (!checks.length) return [];
  await removeLeftovers(repo, g.lane.lanesRoot);
  return runChecks({
    repo,
    sha: g.head,
    worktree: path.join(g.lane.lanesRoot, `.pick-${pickId}-${g.key}`),
    outputDir: path.join(deps.app.paths.home, 'land', `pick-${pickId}`, g.key),
    checks,
    sandbox: g.lane.sandbox ?? 'off',
    svcHome: deps.app.paths.home,
    env: { SVC_PICK: pickId },
  });
}

/**
 * Whether the project's repository has `sha`, fetching the lane's branch from origin when it
 * does not (a lane on a host pushed there, and its objects are not here yet).
 */
async function haveCommit(repo: string, sha: string, branch: string | null): Promise<boolean> {
  if (await gitOk(repo, ['cat-file', '-e', `${sha}^{commit}`])) return true;
  if (!branch) return false;
  await git(repo, ['fetch', '--quiet', 'origin', `refs/heads/${branch}`], { timeoutMs: 120_000 }).catch(
    () => undefined,
  );
  return gitOk(repo, ['cat-file', '-e', `${sha}^{commit}`]);
}

/** Lines added and removed from the merge base of `base` and `head` to `head` (a binary file counts none). */
async function diffSize(repo: string, base: string, head: string): Promise<number> {
  const out = await git(repo, ['diff', '--numstat', '--no-renames', `${base}...${head}`]);
  let n = 0;
  for (const line of out.split('\n')) {
    const [added, removed] = line.split('\t');
    n += (Number(added) || 0) + (Number(removed) || 0);
  }
  return n;
}

/** `.pick-*` worktrees a killed daemon left in this lanes root (only svc's own folders, never a lane's). */
async function removeLeftovers(repo: string, lanesRoot: string): Promise<void> {
  let names: string[];
  try {
    names = fs.readdirSync(lanesRoot);
  } catch {
    return;
  }
  const stale = names.filter((n) => n.startsWith('.pick-') && ![...running].some((id) => n.startsWith(`.pick-${id}-`)));
  for (const n of stale) {
    const dir = path.join(lanesRoot, n);
    await serialized(repo, () => git(repo, ['worktree', 'remove', '--force', dir])).catch(() =>
      fs.rmSync(dir, { recursive: true, force: true }),
    );
  }
}
