// The reap sequence of the spec (steps 1–7, in order) over one lane directory, with the
// lane-specific parts passed in: how to stop the harness and how to archive the
// conversation. Every refusal is thrown before step 7, so a refused reap archives
// nothing; a failed archive does not fail the reap (the report carries the error).
import * as fs from 'node:fs';
import { errorMessage } from '../../shared/errors';
import type { GitEnv } from '../git/gitExec';
import { checkInsideLanesRoot } from './lanesRootCheck';
import { parkWorktree } from './park';
import type { ParkResult } from './park';
import type { PatchVerifier } from './parkVerify';
import { processesInside } from './processesInside';
import { workStatusMisses } from './hiddenWork';
import { dirtyError, harnessAliveError, processesInsideError } from './reapErrors';
import type { ProcessInside } from './reapErrors';
import type { ArchiveOutcome, ReapReport } from '../../shared/format/reapReport';
import { removePlayDir, removeWorktree } from './removeDirs';
import { keepCommitsOnBranch, unpushedCommits } from './unpushed';
import type { UnpushedReport } from './unpushed';
import { uncommittedPaths } from './worktreeInfo';

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
  /** A branch to hold a detached HEAD's commits that nothing else holds (omit to only warn). */
  keepBranchName?: string;
  /** Orchestrator lanes: builders it launched that are not reaped yet (for the warning). */
  orphaned?: string[];
  /** The processes of the harness's group still running, named when the stop fails. */
  survivors?: () => ProcessInside[] | Promise<ProcessInside[]>;
  /** PIDs the process check leaves out besides this process. */
  excludePids?: number[];
  /** Park's verifier; tests inject a failing one. */
  verify?: PatchVerifier;
  /** Runs the worktree removal in the repository's queue of git mutations (worktree adds). */
  serialize?: <T>(fn: () => Promise<T>) => Promise<T>;
}

export async function reapLaneDir(plan: ReapPlan): Promise<ReapReport> {
  const git = { env: plan.env };
  if (!(await plan.stop())) throw harnessAliveError(String(plan.conv.id), REAP_STOP_WAIT_S, (await plan.survivors?.()) ?? []);
  // From here on the real path: a symlink inside the root cannot redirect a later step.
  const dir = checkInsideLanesRoot(plan.dir, plan.lanesRoot);
  const exists = fs.existsSync(dir);
  if (exists) {
    const procs = await processesInside(dir, { exclude: plan.excludePids });
    if (procs.length) throw processesInsideError(dir, procs);
  }

  let park: ParkResult | null = null;
  let unpushed: UnpushedReport = { branch: null, head: null, upstream: null, commits: [], unreferenced: 0 };
  let keptBranch: string | null = null;
  let removed: ReapReport['removed'] = 'alreadyGone';
  if (exists && plan.kind === 'worktree') {
    const dirty = await uncommittedPaths(dir, git);
    const hidden = await workStatusMisses(dir, dirty, git);
    if ((dirty.length || hidden.length) && !plan.park) throw dirtyError(dir, dirty, hidden);
    if (dirty.length || hidden.length) park = await parkWorktree(dir, plan.patchFile, { ...git, verify: plan.verify });
    unpushed = await unpushedCommits(dir, git);
    if (unpushed.unreferenced > 0 && plan.keepBranchName) keptBranch = await keepCommitsOnBranch(dir, plan.keepBranchName, git);
    const parked = park ? { patchFile: park.patchFile, restoreCommand: park.restoreCommand } : undefined;
    const remove = () => removeWorktree(dir, { ...git, parked });
    await (plan.serialize ? plan.serialize(remove) : remove());
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
    keptBranch,
    park,
    archive,
    orphaned: plan.orphaned ?? [],
  };
}
