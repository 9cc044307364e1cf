// One landing, start to end (docs/decisions/land.md): the base as the code host has it
// now, the builder's frozen head combined with it, the project checks on the result, and
// on green the base moved to it by a plain push, which only fast-forwards (the result
// descends from the base it was tested on, so a base that moved meanwhile is refused by
// the code host itself and the landing starts over on the new base). On GitHub the base
// moves through the builder's PR instead, merged only when ready (landOnGithub.ts). The
// row says how far it got before each step that changes anything, so a daemon killed
// midway finds it. What can start before the base is read does (docs/decisions/land.md):
// the checks' tree made fresh at the builder's head, and off GitHub its checks on it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SvcError } from '../../shared/errors';
import type { Landing } from '../../shared/protocol/land';
import type { App } from '../app';
import { fetchBase, fetchBaseCommit } from '../git/fetchBase';
import { git, GitError, gitOk, serialized } from '../git/git';
import { logger } from '../util/log';
import { runChecks } from './checks';
import type { CheckResult } from './checks';
import { freshChecksTree, keptChecksTree } from './checksTree';
import { combine } from './combine';
import { pauseAfterLandPushForFaultTest } from './faultPause';
import { mergedAt, prForLanding, requireReady } from './landOnGithub';
import type { GithubLanding } from './landOnGithub';
import type { LandingStore } from './landingStore';
import { landBaseMovedError, landCheckFailedError, landConflictError, landFailedError } from './landRefusals';

const log = logger('land');
/** A base that moves under a landing this many times in a row refuses it. */
const BASE_MOVED_TRIES = 3;

export interface LandContext {
  app: App;
  store: LandingStore;
  /** The lanes root of a lane (where landing worktrees go) and its sandbox. */
  laneOf(id: number): { lanesRoot: string; sandbox: 'workspace' | 'off' | null; branch: string | null } | undefined;
  /** The project's GitHub host when its code host is GitHub; undefined lands by a push to origin. */
  githubOf?(project: string): GithubLanding | undefined;
  /**
   * Called after each landing that moved the base: the lead wires the siblings' notice
   * (server/land/siblings.ts) here. A throw is logged; the landing stays landed.
   */
  afterLanding(landing: Landing): Promise<void> | void;
}

/** The landing's end: undefined when it landed, else the refusal it ended with. */
export type Outcome = SvcError | undefined;

export const landingWorktree = (lanesRoot: string, id: number, part = 'checks') =>
  path.join(lanesRoot, `.land-${id}-${part}`);

export async function runLanding(ctx: LandContext, id: number): Promise<Outcome> {
  const landing = ctx.store.get(id)!;
  try {
    const project = ctx.app.config.project(landing.project);
    const lane = ctx.laneOf(landing.laneId)!;
    const gh = ctx.githubOf?.(landing.project);
    await removeStaleWorktrees(project.path, lane.lanesRoot, id);
    // A daemon killed after the base moved (its push, or GitHub's merge of the PR).
    const moved = gh ? await mergedAt(gh, landing) : await pushedBefore(project.path, landing);
    if (moved) return landed(ctx, id, moved);
    const tree = keptChecksTree(lane.lanesRoot, landing.base);
    for (let attempt = 1; ; attempt++) {
      // The checks' tree made ready at the builder's head while the base is read and
      // combined: a fast-forward (the common case) tests that very commit. Awaited before
      // the attempt ends, so nothing else touches the tree while it is being made.
      const early = freshChecksTree(project.path, tree, landing.headSha).then(
        () => true,
        () => false,
      );
      const outcome = await tryOnBase(ctx, id, tree, early).finally(() => early);
      if (outcome !== BASE_MOVED) return outcome;
      log.info(`landing ${id}: ${landing.base} moved while it ran (try ${attempt})`);
      if (attempt >= BASE_MOVED_TRIES) return end(ctx, id, landBaseMovedError(landing.lane, landing.base));
    }
  } catch (e) {
    if ((e as SvcError).reason) return end(ctx, id, e as SvcError);
    log.error(`landing ${id} failed`, e);
    return end(ctx, id, landFailedError(landing.lane, landing.base, (e as Error).message), 'failed');
  } finally {
    ctx.app.notify({ topic: 'runs', id: landing.laneId });
  }
}

const BASE_MOVED = Symbol('the base moved');

function end(ctx: LandContext, id: number, e: SvcError, state: 'refused' | 'failed' = 'refused'): Outcome {
  ctx.store.end(id, { state, at: ctx.app.now(), reason: e.reason, message: e.message });
  return e;
}

/**
 * One try on the base as origin has it now: the landing's outcome, or BASE_MOVED when the
 * base moved while it ran. `early`: whether the kept checks tree `tree` holds the builder's
 * head, fresh, once it resolves.
 */
async function tryOnBase(
  ctx: LandContext,
  id: number,
  tree: string,
  early: Promise<boolean>,
): Promise<Outcome | typeof BASE_MOVED> {
  const landing = ctx.store.get(id)!;
  const project = ctx.app.config.project(landing.project);
  const lane = ctx.laneOf(landing.laneId)!;
  const gh = ctx.githubOf?.(landing.project);
  const checksOn = (sha: string, ready: boolean, signal?: AbortSignal) =>
    runChecks({
      repo: project.path,
      sha,
      worktree: tree,
      kept: { ready },
      outputDir: path.join(ctx.app.paths.home, 'land', String(id)),
      checks: project.gauntlet?.checks ?? [],
      sandbox: lane.sandbox ?? 'off',
      svcHome: ctx.app.paths.home,
      stopOnFailure: true,
      env: { SVC_LANDING: String(id) },
      signal,
    });
  // Pushed to origin, a merge or rebase lands the builder's head itself when the base has not
  // moved past it (a fast-forward, the common case): its checks start at once, while the base
  // is read and combined. They count only when the combination is that very head; otherwise
  // they are killed and the combination is checked in the tree made fresh again. On GitHub
  // the PR's readiness comes first, and a squash is always a new commit: no head run there.
  const stopHeadRun = new AbortController();
  const headRun =
    !gh && landing.method !== 'squash'
      ? early.then((ready) => checksOn(landing.headSha, ready, stopHeadRun.signal))
      : undefined;
  let headRunSettled = !headRun;
  try {
    const baseSha = await baseCommit(project.path, landing.base);
    ctx.store.running(id, baseSha);
    ctx.app.notify({ topic: 'runs', id: landing.laneId });
    // GitHub: the PR first, so a PR that cannot merge is refused before the checks run.
    const pr = gh && (await prForLanding(project.path, gh, landing, lane.branch));
    if (gh && pr) {
      ctx.store.setPr(id, pr.number);
      await requireReady(gh, landing, pr.number);
    }
    const combined = await combine({
      repo: project.path,
      baseSha,
      headSha: landing.headSha,
      method: landing.method,
      worktree: landingWorktree(lane.lanesRoot, id, 'rebase'),
      message: `Land ${landing.lane} (${landing.run}/${landing.key})\n\nLanded by svc lane land from ${landing.headSha}.`,
    });
    if (!combined.ok) return end(ctx, id, landConflictError(landing.lane, landing.base, combined.paths));
    const isHead = combined.sha === landing.headSha;
    let results: CheckResult[];
    if (headRun && isHead) {
      headRunSettled = true;
      results = await headRun;
    } else {
      if (headRun) await dropRun(headRun, stopHeadRun);
      headRunSettled = true;
      results = await checksOn(combined.sha, !headRun && isHead && (await early));
    }
    ctx.store.setChecks(
      id,
      results.map(({ tail: _tail, ...r }) => r),
    );
    const failed = results.find((r) => !r.ok);
    if (failed) return end(ctx, id, landCheckFailedError(landing.lane, landing.base, failed));
    if (gh && pr) {
      // GitHub merges onto its base as it is then: only the base the checks ran on may take it.
      if ((await baseCommit(project.path, landing.base)) !== baseSha) return BASE_MOVED;
      await requireReady(gh, landing, pr.number);
      const merged = await gh.host.mergePullRequest(pr.number, { sha: landing.headSha, method: landing.method });
      await pauseAfterLandPushForFaultTest();
      await fetchBase(project.path, landing.base).catch(() => undefined);
      return landed(ctx, id, merged.sha);
    }
    ctx.store.intend(id, combined.sha);
    if (!(await pushBase(project.path, landing.base, combined.sha))) return BASE_MOVED;
    await pauseAfterLandPushForFaultTest();
    return landed(ctx, id, combined.sha);
  } finally {
    // A refusal or a fault before the head run counted: it ends before the tree is touched again.
    if (!headRunSettled) await dropRun(headRun!, stopHeadRun);
  }
}

/** A head run that does not count: killed, waited for, and its output files removed (the combination's replace them). */
async function dropRun(run: Promise<CheckResult[]>, stop: AbortController): Promise<void> {
  stop.abort();
  const results = await run.catch((): CheckResult[] => []);
  for (const r of results) fs.rmSync(r.outputPath, { force: true });
}

/** The base's commit as origin has it now (fetched when it moved; read on the way when it had not). */
async function baseCommit(repo: string, base: string): Promise<string> {
  const { ref, commit } = await fetchBaseCommit(repo, base);
  return commit ?? (await git(repo, ['rev-parse', '--verify', `${ref}^{commit}`])).trim();
}

/** The commit a killed daemon had pushed, when origin's base already holds it. */
async function pushedBefore(repo: string, landing: Landing): Promise<string | null> {
  return landing.landedSha && (await baseHolds(repo, landing.base, landing.landedSha)) ? landing.landedSha : null;
}

/** Recorded landed; the after-landing notice (the siblings told) goes on after the answer: it is not part of the landing. */
async function landed(ctx: LandContext, id: number, sha: string): Promise<Outcome> {
  ctx.store.end(id, { state: 'landed', at: ctx.app.now(), landedSha: sha });
  const landing = ctx.store.get(id)!;
  afterTheAnswer(
    () =>
      void (async () => ctx.afterLanding(landing))().catch((e: Error) =>
        log.warn(`landing ${id}: the after-landing notice failed: ${e.message}`),
      ),
  );
  return undefined;
}

/**
 * Runs `fn` once `--wait`'s answer is written. The RPC writer sends an answer from an
 * immediate of its own, queued after this landing's end; one immediate here ran first, and
 * the notice's git processes (each a fork of the daemon) held the answer back 60–170 ms at
 * load 8–13. An immediate queued from an immediate runs on the next turn of the loop.
 */
function afterTheAnswer(fn: () => void): void {
  setImmediate(() => setImmediate(fn));
}

/**
 * Moves origin's base to `sha` with a plain push: never forced, so the code host takes it
 * only as a fast-forward. False when the base moved (rejected as non-fast-forward).
 * The person's hooks are not run (--no-verify): the project checks are the gate.
 */
async function pushBase(repo: string, base: string, sha: string): Promise<boolean> {
  try {
    await serialized(repo, () =>
      git(repo, ['push', '--quiet', '--no-verify', 'origin', `${sha}:refs/heads/${base}`], { timeoutMs: 120_000 }),
    );
    // No fetch after it: a push to origin moves refs/remotes/origin/<base> itself, and
    // fetchBase reads origin's branch before trusting that ref anyway.
    return true;
  } catch (e) {
    if (e instanceof GitError && /non-fast-forward|fetch first|rejected/.test(e.stderr)) return false;
    throw e;
  }
}

/** Whether origin's base already holds `sha` (read from origin, not the tracking ref). */
async function baseHolds(repo: string, base: string, sha: string): Promise<boolean> {
  const ref = await fetchBase(repo, base);
  return gitOk(repo, ['merge-base', '--is-ancestor', sha, ref]);
}

/** Worktrees a killed daemon left behind for this landing (only svc's own `.land-<id>-*` folders). */
async function removeStaleWorktrees(repo: string, lanesRoot: string, id: number): Promise<void> {
  let stale = registeredLandingWorktree(repo, id);
  for (const part of ['checks', 'rebase']) {
    const dir = landingWorktree(lanesRoot, id, part);
    if (!fs.existsSync(dir)) continue;
    stale = true;
    await serialized(repo, () => git(repo, ['worktree', 'remove', '--force', dir])).catch(() =>
      fs.rmSync(dir, { recursive: true, force: true }),
    );
  }
  // Only when a killed landing left something: a prune is a git process on every landing's path.
  if (stale) await serialized(repo, () => git(repo, ['worktree', 'prune'])).catch(() => undefined);
}

/** Whether git still registers a worktree of this landing (its folder may be gone); true when it cannot tell. */
function registeredLandingWorktree(repo: string, id: number): boolean {
  const admin = path.join(repo, '.git', 'worktrees');
  try {
    if (!fs.statSync(path.join(repo, '.git')).isDirectory()) return true;
    return fs.existsSync(admin) && fs.readdirSync(admin).some((d) => d.startsWith(`.land-${id}-`));
  } catch {
    return true;
  }
}
