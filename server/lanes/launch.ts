// `svc lane start` / POST /api/lanes: every launch rule, then the directory, the brief,
// the conversation with the lane contract as its first message, and the wait to start.
// The live-lane check, the iteration and both inserts run in one synchronous
// transaction, so concurrent launches of one run/key/role cannot both win.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isLive } from '../../shared/activity';
import type { Role } from '../../shared/config';
import { SvcError } from '../../shared/errors';
import { placementFor } from './hostPlacement';
import { isHere } from './laneWhere';
import type { LanePlacement } from './placement';
import type { LaneRecord, LaunchParams } from '../../shared/protocol/lanes';
import { checkBranchName, existingRefs, GitError, isValidBranchName, resolveCommit } from '../git/git';
import type { GitFacts } from '../git/git';
import type { PreparedStart } from '../conversations/agentGitFacts';
import type { GitPlaces } from '../git/gitPlaces';
import { laneContract } from './contract';
import type { ContractFacts } from './contract';
import {
  checkCriticBlind,
  checkMayLaunch,
  checkOwnLane,
  checkSandboxFloor,
  checkStartPoint,
  effectiveLauncher,
  laneKeyOf,
  launcherOf,
  runOf,
  settingsOf,
} from './launchRules';
import type { LanesContext } from './lanesContext';
import type { LaneRow } from './laneStore';
import { laneActivity, laneRecord } from './records';
import {
  badBrief,
  badLaneKeyError,
  branchExistsError,
  branchFrozenError,
  branchOnlyBuilderError,
  briefOrPromptError,
  iterationJudgedError,
  keysClashError,
  launchRaceError,
  noDoneReportError,
  noProjectError,
  noSuchBuilderError,
  nothingToReuseError,
  replaceStopFailedError,
  reuseDirGoneError,
  reuseWhileLiveError,
  secondLiveLaneError,
} from './laneRefusals';
import { iterationVerdict, mirrorLaneHead } from './reports';
import { fetchBaseCommit } from '../git/fetchBase';
import { defaultBranch, laneDir, noPostCheckoutHook } from './workdir';
import { laneRepoPlaces, ownLaneRepo } from './laneGitRepo';
import { laneGitLayout } from './laneGitLayout';
import { checkSpendAllowsLaunch } from './spendGuard';
import { deferred } from '../util/deferred';
import { laneFolders, LaneFileError, readLaneFile } from '../util/laneFileRead';

export const START_WAIT_MS = 180_000;

/**
 * The brief's text. A path an agent names is read as the agent could (laneFileRead.ts):
 * only inside its own folders, never through a link, FIFO or device; svc's CLI sends an
 * agent's brief as text, read inside its sandbox, so only a raw request meets this rule.
 */
export function readBrief(p: LaunchParams, agentFolders?: readonly string[]): string {
  if ((p.brief === undefined) === (p.prompt === undefined)) throw briefOrPromptError();
  if (p.prompt !== undefined) return p.prompt;
  const file = p.brief!;
  if (agentFolders) {
    try {
      return readLaneFile(file, agentFolders, BRIEF_MAX);
    } catch (e) {
      if (e instanceof LaneFileError) throw badBrief.notLanes(file, e.problem);
      throw e;
    }
  }
  let st: fs.Stats;
  try {
    st = fs.statSync(file);
  } catch {
    throw badBrief.missing(file);
  }
  if (!st.isFile()) throw badBrief.notAFile(file);
  if (st.size > BRIEF_MAX) throw badBrief.tooLarge(file);
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw badBrief.unreadable(file, (e as NodeJS.ErrnoException).code ?? (e as Error).message);
  }
}

const BRIEF_MAX = 1_000_000;

/** The folders an agent may write: a lane's directory and git dir; another conversation's directory. */
function foldersOf(ctx: LanesContext, caller: string): string[] {
  const conv = ctx.conversations.resolve(caller);
  const lane = ctx.store.byId(conv.id);
  return lane ? laneFolders(lane.dir) : [conv.cwd];
}

interface Plan {
  role: Role;
  run: string;
  key: string;
  iteration: number;
  respawn: number;
  dir: string;
  branch: string | null;
  start: string | null;
  judged: { iteration: number; commit: string } | null;
  answers?: ContractFacts['answers'];
  reuse: boolean;
}

export async function launchLane(ctx: LanesContext, p: LaunchParams): Promise<LaneRecord> {
  const { store, conversations: convs } = ctx;
  const role = p.role;
  const brief = readBrief(p, p.caller ? foldersOf(ctx, p.caller) : undefined);
  const key = laneKeyOf(p);
  checkStartPoint(p);
  const launcher = launcherOf(convs, p.caller, p.parent);
  const effective = effectiveLauncher(convs, launcher);
  const launcherLane = effective.kind === 'lane' ? store.byId(effective.id) : undefined;
  checkMayLaunch(effective, launcherLane, role);
  const run = runOf(p, launcherLane);
  if (role === 'critic') checkCriticBlind(store, run, key, brief);
  const projectKey =
    p.project ??
    launcherLane?.project ??
    launcher.project ??
    (p.cwd ? ctx.app.config.projectForPath(p.cwd)?.key : undefined);
  if (!projectKey) throw noProjectError();
  const project = ctx.app.config.project(projectKey);
  refuseLaunchPastCap(ctx, p, project.key, run, role, key);
  const settings = settingsOf(p, project, role, ctx.app.config.config(), launcher.harness);
  // An agent (p.caller) launching: its own sandbox, or its lane's when it is a successor.
  const caller = p.caller ? launcher : undefined;
  checkSandboxFloor(caller, (store.byId(launcher.id) ?? launcherLane)?.sandbox, settings);
  const gitBacked = role !== 'play';
  const repo = project.path;
  // Where the lane's directory goes (placement.ts): under this machine's lanes root, or on a
  // host, made there from the project's origin (server/hosts).
  const ownGit = laneGitLayout(ctx.app.config.config()) === 'own';
  const place = await placementFor(ctx, settings.host, project, gitBacked, ownGit);
  const root = place.root;

  // Git facts that need awaiting come first, all at once (the fetch is the long one); the
  // decisive checks run in the transaction. Refusals keep their order: the first in
  // this list that fails is the one reported.
  const builderBranch =
    role === 'builder' && !p.reuse
      ? (p.branch ?? defaultBranch(run, key, nextIteration(store.ofSlot(run, key, role))))
      : undefined;
  const fetched = gitBacked ? fetchBaseCommit(repo, project.default_branch) : null;
  const refs =
    builderBranch !== undefined
      ? existingRefs(repo, [`refs/heads/${builderBranch}`, `refs/remotes/origin/${builderBranch}`])
      : undefined;
  const checks = settleAll({
    fetch: fetched,
    baseSha: fetched?.then((f) => f.commit ?? resolveCommit(repo, f.ref, 'base ref')) ?? null,
    from: p.from !== undefined ? resolveCommit(repo, p.from, '--from') : undefined,
    at:
      p.at !== undefined
        ? judgedHeadsMirrored(ctx, run, p.for).then(() => resolveCommit(repo, p.at!, '--at'))
        : undefined,
    branchName: p.branch !== undefined && role === 'builder' ? checkBranchName(repo, p.branch) : undefined,
    keyMakesValidBranch:
      builderBranch !== undefined && p.branch === undefined ? isValidBranchName(repo, builderBranch) : true,
    branchExists: refs?.then((r) => r.has(`refs/heads/${builderBranch}`)) ?? false,
    branchOnOrigin: refs?.then((r) => r.has(`refs/remotes/origin/${builderBranch}`)) ?? false,
  });
  // The agent's git facts are read from the checkout while the rest goes on (conversationsPort);
  // asked after the checks above, whose gits lead to the worktree and go first.
  const prepared = gitBacked ? convs.prepareStart(repo) : undefined;
  const checked = await checks;
  checked.fetch();
  const from = checked.from();
  const at = checked.at();
  if (p.branch !== undefined) {
    if (role !== 'builder') throw branchOnlyBuilderError(role);
    checked.branchName();
  }
  const baseSha = checked.baseSha();
  if (!checked.keyMakesValidBranch()) {
    // The lane key pattern admits names git refuses (`a..b`, `a.lock`, `a.`): git's own
    // rules judge the branch before anything is recorded or stopped.
    throw badLaneKeyError(key, builderBranch);
  }

  // Only once the request is known to be good does --replace stop the live lane.
  if (p.replace) {
    const live = store.ofSlot(run, key, role).filter((l) => isLive(laneActivity(ctx, l)));
    for (const l of live) checkOwnLane(convs, caller, '--replace', l); // all judged before any stops
    for (const l of live) {
      const { stopped } = await convs.stop(l.id, { timeoutMs: 30_000 });
      if (!stopped) throw replaceStopFailedError(l);
    }
  }

  const draft = plan(ctx, { p, role, run, key, root, from, at, baseSha, place });
  if (draft.reuse) {
    const head = await place.reuse(draft, draft.judged !== null);
    if (draft.judged) draft.judged.commit = head ?? '';
  }
  if (draft.start) draft.start = await place.resolveStart(draft.start);
  if (
    draft.branch &&
    !draft.reuse &&
    (await place.branchTaken(draft.branch, draft.branch === builderBranch ? checked.branchExists : undefined))
  ) {
    throw branchExistsError(draft.branch);
  }
  const name = `${run}-${key}-${role}-i${draft.iteration}${draft.respawn ? `-r${draft.respawn}` : ''}`;
  const contract =
    role === 'play'
      ? ''
      : laneContract({
          role,
          run,
          key,
          iteration: draft.iteration,
          dir: draft.dir,
          branch: draft.branch,
          judged: draft.judged ?? undefined,
          answers: draft.answers,
        });

  const row = ctx.app.db.transaction(() => {
    const again = plan(ctx, { p, role, run, key, root, from, at, baseSha, place });
    if (again.iteration !== draft.iteration || again.dir !== draft.dir) {
      throw launchRaceError(run, key, role);
    }
    const conv = convs.insert({
      kind: 'lane',
      name,
      title: p.title ?? `${run}/${key} ${role} i${draft.iteration}`,
      project: project.key,
      cwd: draft.dir,
      harness: settings.harness,
      model: settings.model,
      effort: settings.effort,
      parentId: launcher.id,
      prompt: contract + brief,
      bare: role === 'play',
      permissions: settings.permissions,
      host: place.host,
      sandbox: settings.sandbox,
    });
    store.insertLane({
      id: conv.id,
      project: project.key,
      run,
      key,
      role,
      iteration: draft.iteration,
      respawn: draft.respawn,
      judgedKey: draft.judged ? key : null,
      judgedIteration: draft.judged?.iteration ?? null,
      gitBacked,
      branch: draft.branch,
      dir: draft.dir,
      lanesRoot: root,
      createdAt: conv.createdAt,
      ...spendFacts(p, draft),
    });
    return store.byId(conv.id)!;
  })();

  writeBriefOnce(ctx, row, brief);
  let known: Map<string, GitFacts> | undefined;
  // The agent is started as soon as its worktree is registered, and is told when the files
  // are checked out (`workspace`): its harness decides whether its process starts before.
  const workspace = deferred();
  // A lane repository of its own (laneGitRepo.ts): the agent's git places are its, not the project's.
  const own = isHere(place) && gitBacked && (draft.reuse ? ownLaneRepo(draft.dir) !== undefined : ownGit);
  const agentPrepared: PreparedStart | undefined =
    own && prepared
      ? { facts: prepared.facts.then((f) => ({ ...f, places: laneRepoPlaces(f.places, draft.dir) })) }
      : prepared;
  const agent = once(() => convs.start(row.id, { prepared: agentPrepared, workspace: workspace.promise }));
  const prepareAndStart = async () => {
    try {
      if (!draft.reuse) {
        const places = await placesReadAhead(prepared);
        const facts = await place.make(draft, {
          mayTrackOrigin: draft.branch !== builderBranch || checked.branchOnOrigin(),
          onRegistered: agent.start,
          hookFree: places ? noPostCheckoutHook(places) : false,
          // A places probe that timed out said nothing of the hooks: the lane repository's making asks git.
          laneRepoKnown: places && !places.timedOut ? { hooksPathSet: places.hooksPath !== undefined } : {},
        });
        if (facts) known = new Map([[draft.dir, facts]]);
      }
    } catch (e) {
      const refusal = place.makeFailed(e);
      convs.recordSpawnError(row.id, refusal.message);
      workspace.reject(refusal);
      // An error that is neither git's nor a refusal is a bug: it passes on as it is.
      throw e instanceof GitError || SvcError.is(e) ? refusal : e;
    }
    workspace.resolve();
    agent.start(); // nothing registered the worktree early (a reuse, a split checkout not possible)
    agent.rethrow();
    ctx.app.notify({ topic: 'lanes', id: row.id });
    ctx.app.notify({ topic: 'runs' });
  };

  // The directory is made before any answer, --no-wait or not, so a failure there is
  // never reported as a launched lane; --no-wait only skips the wait for the agent.
  await prepareAndStart();
  // The record says how the start went (alive, failed, ended), whatever the wait's outcome.
  if (!p.noWait) await convs.waitStarted(row.id, START_WAIT_MS);
  return laneRecord(ctx, store.byId(row.id)!, { known, knownBase: baseSha ?? undefined });
}

/**
 * The project's git places read ahead for the agent (conversationsPort's prepareStart), which
 * also say whether the repository runs a post-checkout hook; undefined when not read.
 */
async function placesReadAhead(prepared: PreparedStart | undefined): Promise<GitPlaces | undefined> {
  return (await prepared?.facts.catch(() => undefined))?.places;
}

/**
 * Runs `start` at most once, from whichever caller comes first. A throw is held for
 * `rethrow`: a start that fails while git still writes the worktree is told once it is made.
 */
function once(start: () => void): { start: () => void; rethrow: () => void } {
  let started = false;
  let failed: { error: unknown } | undefined;
  return {
    start() {
      if (started) return;
      started = true;
      try {
        start();
      } catch (error) {
        failed = { error };
      }
    },
    rethrow() {
      if (failed) throw failed.error;
    },
  };
}

/** A --reuse keeps the earlier lane's cap unless --budget names one; a lane keeps the commit it started at. */
function spendFacts(p: LaunchParams, draft: Plan): { budget: number | null; startSha: string | null } {
  return { budget: p.budget ?? null, startSha: draft.start && /^[0-9a-f]{40}$/.test(draft.start) ? draft.start : null };
}

/** A launch into a run (or, for --reuse, an iteration) already at its spend cap is refused. */
function refuseLaunchPastCap(
  ctx: LanesContext,
  p: LaunchParams,
  project: string,
  run: string,
  role: Role,
  key: string,
): void {
  const slot = p.reuse ? ctx.store.ofSlot(run, key, role) : [];
  checkSpendAllowsLaunch(ctx, project, run, slot[slot.length - 1], p.budget);
}

/**
 * Each check's outcome, to be taken (value or throw) later, in an order of our choosing:
 * all run at once, and the first refusal in the launch's own order is the one reported.
 */
function settleAll<T extends Record<string, unknown>>(checks: { [K in keyof T]: T[K] | Promise<T[K]> }): Promise<{
  [K in keyof T]: () => T[K];
}> {
  const names = Object.keys(checks) as (keyof T)[];
  return Promise.all(names.map((n) => settle(checks[n]))).then(
    (taken) => Object.fromEntries(names.map((n, i) => [n, taken[i]])) as { [K in keyof T]: () => T[K] },
  );
}

/** A promise's outcome, to be taken (value or throw) later. */
function settle<T>(v: T | Promise<T>): Promise<() => T> {
  return Promise.resolve(v).then(
    (x) => () => x,
    (e: unknown) => () => {
      throw e;
    },
  );
}

function writeBriefOnce(ctx: LanesContext, row: LaneRow, brief: string): void {
  const dir = path.join(ctx.app.paths.agents, `conv-${row.name}`);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(dir, 'lane-brief.md'), brief, { flag: 'wx', mode: 0o600 });
}

interface PlanInput {
  /** Where the lane goes: a directory on a host is checked there, not here. */
  place: LanePlacement;
  p: LaunchParams;
  role: Role;
  run: string;
  key: string;
  root: string;
  from?: string;
  at?: string;
  baseSha: string | null;
}

/** Iteration, directory, branch and start point; refuses what the rules forbid. Synchronous. */
function plan(ctx: LanesContext, i: PlanInput): Plan {
  const { store } = ctx;
  const slot = store.ofSlot(i.run, i.key, i.role);
  const live = slot.filter((l) => isLive(laneActivity(ctx, l)));
  const prev = slot[slot.length - 1];
  if (i.p.reuse) {
    if (!prev) throw nothingToReuseError(i);
    if (i.p.caller) checkOwnLane(ctx.conversations, ctx.conversations.resolve(i.p.caller), '--reuse', prev);
    if (live.length) throw reuseWhileLiveError(prev, laneActivity(ctx, prev));
    if (i.role === 'builder' && store.newestReport(prev.id)?.status === 'done') {
      throw branchFrozenError(i.key, prev.iteration);
    }
    const judged = i.role === 'critic' || i.role === 'verifier' ? iterationVerdict(ctx, prev) : undefined;
    if (judged) throw iterationJudgedError(prev, judged);
    if (i.place.dirExists(prev.dir) === false) throw reuseDirGoneError(prev.dir);
    return {
      role: i.role,
      run: i.run,
      key: i.key,
      iteration: prev.iteration,
      respawn: slot.filter((l) => l.dir === prev.dir).length,
      dir: prev.dir,
      branch: prev.branch,
      start: null,
      judged: prev.judgedIteration !== null ? { iteration: prev.judgedIteration, commit: '' } : null,
      reuse: true,
    };
  }
  if (live.length) {
    const l = live[0];
    throw secondLiveLaneError(i, l, laneActivity(ctx, l));
  }
  const iteration = nextIteration(slot);
  const dir = laneDir(i.root, i.run, i.key, i.role, iteration);
  // Same role and directory means the same name too; another role's directory (builder `k-orch`
  // beside orchestrator `k`) is in the way only while it exists.
  const clash = store
    .ofDir(dir)
    .find((l) => (l.run !== i.run || l.key !== i.key) && (l.role === i.role || i.place.dirExists(dir) === true));
  if (clash) throw keysClashError(i, dir, clash);
  if (i.role === 'critic' || i.role === 'verifier')
    return { ...judgePlan(ctx, i, iteration), dir, respawn: 0, reuse: false };
  if (i.role === 'builder') {
    const answers = iteration > 1 ? answeredVerdict(ctx, i.run, i.key, iteration - 1) : undefined;
    const start =
      i.from ?? (iteration > 1 ? previousBranch(ctx, i.run, i.key, iteration - 1) : undefined) ?? i.baseSha!;
    return {
      role: i.role,
      run: i.run,
      key: i.key,
      iteration,
      respawn: 0,
      dir,
      branch: i.p.branch ?? defaultBranch(i.run, i.key, iteration),
      start,
      judged: null,
      answers,
      reuse: false,
    };
  }
  return {
    role: i.role,
    run: i.run,
    key: i.key,
    iteration,
    respawn: 0,
    dir,
    branch: null,
    start: i.role === 'play' ? null : (i.at ?? i.baseSha!),
    judged: null,
    reuse: false,
  };
}

/** Iterations are distinct directories among the slot's lanes. */
/**
 * A critic or verifier named a commit of the builder it judges (`--at`), which need not have
 * reported yet: with a repository of its own, that builder's commits are in the project's
 * store only once mirrored (laneGitMirror.ts), so its newest iteration's heads are mirrored
 * first. A mirror that fails leaves `--at` to be refused as naming no commit.
 */
async function judgedHeadsMirrored(ctx: LanesContext, run: string, judged: string | undefined): Promise<void> {
  if (judged === undefined) return;
  const builders = ctx.store.ofSlot(run, judged, 'builder');
  const newest = builders[builders.length - 1]?.iteration;
  const lanes = builders.filter((b) => b.iteration === newest && b.reapedAt === null);
  await Promise.all(lanes.map((b) => mirrorLaneHead(ctx, b)));
}

function nextIteration(slot: LaneRow[]): number {
  return new Set(slot.map((l) => l.dir)).size + 1;
}

function judgePlan(ctx: LanesContext, i: PlanInput, iteration: number): Omit<Plan, 'dir' | 'respawn' | 'reuse'> {
  const common = { role: i.role, run: i.run, key: i.key, iteration, branch: null };
  if (i.p.for === undefined) return { ...common, start: i.at ?? i.baseSha!, judged: null };
  const builders = ctx.store.ofSlot(i.run, i.p.for, 'builder');
  if (builders.length === 0) throw noSuchBuilderError(i.p.for, i.run);
  const judgedIteration = builders[builders.length - 1].iteration;
  const done = builders
    .filter((b) => b.iteration === judgedIteration)
    .flatMap((b) => ctx.store.reports(b.id).filter((r) => r.status === 'done' && r.headSha))
    .sort((a, b) => a.at - b.at)
    .pop();
  let commit = i.at;
  if (commit === undefined) {
    if (done) commit = done.headSha!;
    else if (i.role === 'critic') throw noDoneReportError(i.p.for, judgedIteration);
    else commit = i.baseSha!;
  }
  return { ...common, start: commit, judged: { iteration: judgedIteration, commit } };
}

/** Branch freeze: iteration n+1 starts from the branch iteration n's newest report recorded. */
function previousBranch(ctx: LanesContext, run: string, key: string, iteration: number): string | undefined {
  const lanes = ctx.store.ofSlot(run, key, 'builder').filter((b) => b.iteration === iteration);
  const reported = lanes
    .flatMap((b) => ctx.store.reports(b.id))
    .filter((r) => r.branch)
    .sort((a, b) => a.at - b.at)
    .pop();
  return reported?.branch ?? lanes[lanes.length - 1]?.branch ?? undefined;
}

/** Critic rule 4: the newest critic of iteration n−1 created before this builder, with its verdict. */
function answeredVerdict(ctx: LanesContext, run: string, key: string, iteration: number): ContractFacts['answers'] {
  const now = ctx.now();
  const judges = ctx.store
    .ofRun(run)
    .filter(
      (l) =>
        (l.role === 'critic' || l.role === 'verifier') &&
        l.judgedKey === key &&
        l.judgedIteration === iteration &&
        l.createdAt <= now,
    );
  for (const j of judges.reverse()) {
    const v = ctx.store.reports(j.id).find((r) => r.status === 'done' && r.verdict);
    if (v) return { criticId: j.id, verdict: v.verdict!, defects: v.defects ?? 0, verdictFile: v.verdictFile };
  }
  return undefined;
}
