// The reap sequence of the spec (steps 1–7, in order) over one lane directory, with the
// lane-specific parts passed in: how to stop the harness and how to archive the
// conversation. Every refusal is thrown before step 7, so a refused reap archives
// nothing; a failed archive does not fail the reap (the report carries the error).
import { errorMessage } from '../../shared/errors';
import type { GitEnv } from '../git/gitExec';
import { pauseAfterParkForFaultTest } from './faultPause';
import { parkWorktree } from './park';
import type { ParkResult } from './park';
import type { PatchVerifier } from './parkVerify';
import { keepPrivateCommits } from './privateCommits';
import type { KeptRef } from './privateCommits';
import { checkLaneDir } from './reapChecks';
import type { LaneDirState } from './reapChecks';
import { harnessAliveError } from './reapErrors';
import type { ProcessInside } from './reapErrors';
import type { ArchiveOutcome, ReapReport } from '../../shared/format/reapReport';
import { removePlayDir, removeWorktree } from './removeDirs';
import { MIB, parkLimitsOf } from './parkSize';
import type { ParkLimits } from './parkSize';
import { unpushedCommits } from './unpushed';
import type { UnpushedReport } from './unpushed';
import { worktreeInfo } from './worktreeInfo';

export const REAP_STOP_WAIT_S = 30;

export interface ReapPlan extends GitEnv {
  conv: { id: string | number; name: string };
  /** The lane directory: a git worktree, or a play lane's plain directory. */
  dir: string;
  kind: 'worktree' | 'play';
  lanesRoot: string;
  park: boolean;
  keep: boolean;
  /** Where a parked patch goes: `<agents>/conv-<name>/parked-<timestamp>.patch`. */
  patchFile: string;
  /** Step 1: the conversation stop door, waiting up to REAP_STOP_WAIT_S; false if still alive. */
  stop(): Promise<boolean>;
  /** Step 7; a throw becomes the report's archive error, never a refusal. */
  archive(): Promise<void> | void;
  /** The branch that holds commits only the worktree held (a detached HEAD's, its reflog's, its own refs'); others get `-<short sha>`. Default `svc-kept/<conv name>`. */
  keepBranchName?: string;
  /** Orchestrator lanes: builders it launched that are not reaped yet (for the warning). */
  orphaned?: string[];
  /** The processes of the harness's group still running, named when the stop fails. */
  survivors?: () => ProcessInside[] | Promise<ProcessInside[]>;
  /** PIDs the process check leaves out besides this process. */
  excludePids?: number[];
  /** Park's verifier; tests inject a failing one. */
  verify?: PatchVerifier;
  /** config.yaml's reap.park_* limits (default parkSize.ts's). */
  parkLimits?: ParkLimits;
  /** Runs the worktree removal in the repository's queue of git mutations (worktree adds). */
  serialize?: <T>(fn: () => Promise<T>) => Promise<T>;
  /**
   * A lane with a repository of its own (lanes.git: own): copies every ref only it holds
   * into the project's repository just before the worktree is removed (a throw is a refusal,
   * nothing removed), and takes the lane repository away once the worktree is gone. `project`:
   * the checkout a parked patch's restore re-makes the worktree from (the lane repository is gone by then).
   */
  ownRepo?: { mirror(): Promise<void>; remove(): void; project: string };
}

export async function reapLaneDir(plan: ReapPlan): Promise<ReapReport> {
  const check = {
    env: plan.env,
    dir: plan.dir,
    lanesRoot: plan.lanesRoot,
    kind: plan.kind,
    park: plan.park,
    parkLimits: plan.parkLimits,
    patchFile: plan.patchFile,
  };
  // A refused reap changes nothing, the agent included: what steps 2 and 4 would refuse is
  // refused before the stop door is used (the process check waits: the agent's own
  // processes work inside until it stops).
  await checkLaneDir(check);
  if (!(await plan.stop()))
    throw harnessAliveError(String(plan.conv.id), REAP_STOP_WAIT_S, (await plan.survivors?.()) ?? []);
  // Again once stopped: the agent may have changed its tree meanwhile.
  const state = await checkLaneDir({ ...check, processes: { exclude: plan.excludePids } });
  try {
    return await afterChecks(plan, state);
  } finally {
    state.parkStart?.capture?.dispose();
  }
}

/** Steps 5–7, once the checks after the stop passed. */
async function afterChecks(plan: ReapPlan, state: LaneDirState): Promise<ReapReport> {
  const git = { env: plan.env };
  const { dir, exists, dirty, large, parkStart } = state;

  let park: ParkResult | null = null;
  let unpushed: UnpushedReport = { branch: null, head: null, upstream: null, commits: [], unreferenced: 0 };
  let kept: KeptRef[] = [];
  let removed: ReapReport['removed'] = 'alreadyGone';
  if (exists && plan.kind === 'worktree') {
    if (dirty)
      park = await parkWorktree(dir, plan.patchFile, {
        ...git,
        verify: plan.verify,
        repoDir: plan.ownRepo?.project,
        checked: parkStart ?? undefined,
      });
    if (park) await pauseAfterParkForFaultTest();
    unpushed = await unpushedCommits(dir, git);
    kept = await keepPrivateCommits(
      await worktreeInfo(dir, git),
      plan.keepBranchName ?? `svc-kept/${plan.conv.name}`,
      git,
    );
    const parked = park ? { patchFile: park.patchFile, restoreCommand: park.restoreCommand } : undefined;
    await plan.ownRepo?.mirror();
    const remove = () => removeWorktree(dir, { ...git, parked });
    await (plan.serialize ? plan.serialize(remove) : remove());
    plan.ownRepo?.remove();
    removed = 'worktree';
  } else if (exists) {
    removePlayDir(dir);
    removed = 'playDir';
  }

  let archive: ArchiveOutcome = { state: 'kept' };
  if (!plan.keep) {
    try {
      await plan.archive();
      archive = { state: 'archived' };
    } catch (e) {
      archive = { state: 'failed', error: errorMessage(e) };
    }
  }
  return {
    conv: plan.conv,
    dir,
    removed,
    branch: unpushed.branch,
    head: unpushed.head,
    upstream: unpushed.upstream,
    unpushed: unpushed.commits,
    keptBranch: kept.find((k) => k.head)?.branch ?? null,
    keptRefs: kept.filter((k) => !k.head).map(({ branch, sha, commits }) => ({ branch, sha, commits })),
    park,
    archive,
    orphaned: plan.orphaned ?? [],
    earlierParked: [],
    largePark:
      park && large ? { ...large, warnMb: (plan.parkLimits ?? parkLimitsOf(undefined)).warnBytes / MIB } : null,
  };
}
