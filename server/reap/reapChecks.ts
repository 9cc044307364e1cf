// What reap would refuse over a lane directory, found without changing anything. Run
// before step 1 stops the agent, so that a reap refused for a dirty tree (or anything
// else step 4 refuses) has not stopped the agent either; and run again after the stop,
// since the agent may have changed its tree meanwhile.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkParkSpace } from './parkSpace';
import type { GitEnv } from '../git/gitExec';
import { gitlinksPossible, inspectWork } from './hiddenWork';
import type { KeptCapture } from './hiddenWork';
import { checkInsideLanesRoot } from './lanesRootCheck';
import { nestedGitEntries, submoduleGitDirs } from './nestedGit';
import { operationsInProgress } from './operationInProgress';
import { processesInside } from './processesInside';
import {
  dirtyError,
  nestedGitError,
  submoduleGitDirError,
  operationInProgressError,
  parkTooLargeError,
  parkUnsupportedError,
  playHasGitError,
  processesInsideError,
} from './reapErrors';
import { findGit } from './removeDirs';
import { MIB, parkLimitsOf, parkSizeOf } from './parkSize';
import type { ParkLimits } from './parkSize';
import type { ParkSize } from '../../shared/protocol/lanes';
import { uncommittedPaths, worktreeInfo } from './worktreeInfo';
import type { WorktreeInfo } from './worktreeInfo';

export interface LaneDirCheck extends GitEnv {
  dir: string;
  lanesRoot: string;
  kind: 'worktree' | 'play';
  park: boolean;
  /** config.yaml's reap.park_* limits (default parkSize.ts's). */
  parkLimits?: ParkLimits;
  /** Where a park writes its patch: its disk must have room too. */
  patchFile?: string;
  /** Look for processes inside too: only once the agent is stopped (its own are inside until then). */
  processes?: { exclude?: number[] };
}

export interface LaneDirState {
  /** The real path of the lane directory. */
  dir: string;
  exists: boolean;
  /** A worktree with work to park (only when `park`). */
  dirty: boolean;
  /** The work's size when it is over the warning limit. */
  large: ParkSize | null;
  /**
   * After the stop, when parking: the worktree as read and its work as captured by this
   * check, for the park to start from (the caller disposes of the capture). The park
   * captures again before it publishes, so a tree that moved since is still refused.
   */
  parkStart: { info: WorktreeInfo; capture: KeptCapture | null } | null;
}

/** Steps 2–4 as checks: throws the refusal reap would give, or says what it found. */
export async function checkLaneDir(c: LaneDirCheck): Promise<LaneDirState> {
  const git = { env: c.env };
  // From here on the real path: a symlink inside the root cannot redirect a later step.
  const dir = checkInsideLanesRoot(c.dir, c.lanesRoot);
  const exists = fs.existsSync(dir);
  if (!exists) return { dir, exists, dirty: false, large: null, parkStart: null };
  if (c.processes) {
    const procs = await processesInside(dir, { exclude: c.processes.exclude });
    if (procs.length) throw processesInsideError(dir, procs);
  }
  if (c.kind === 'play') {
    const found = findGit(dir);
    if (found !== null) throw playHasGitError(dir, found);
    return { dir, exists, dirty: false, large: null, parkStart: null };
  }
  const limits = c.parkLimits ?? parkLimitsOf(undefined);
  const afterStop = c.processes !== undefined;
  return { dir, exists, ...(await checkWorktreeCanGo(dir, c.park, afterStop, limits, git, c.patchFile)) };
}

/**
 * Refuses what neither a plain reap nor a park may remove: another repository inside the
 * tree, an operation half done. Park runs it too, so it never cleans such a tree.
 */
export async function refuseUnparkable(top: string, gitDir: string, git: GitEnv = {}): Promise<void> {
  const nested = nestedGitEntries(top);
  if (nested.length) throw nestedGitError(top, nested);
  const modules = submoduleGitDirs(gitDir);
  if (modules.length) throw submoduleGitDirError(top, gitDir, modules);
  const ops = await operationsInProgress(top, gitDir, git);
  if (ops.length) throw operationInProgressError(top, ops);
}

/**
 * Step 4's refusals for a worktree; whether it holds work for --park to save, and how much
 * when that is a lot. Parking, the check before the stop captures the work only when a
 * change could be a gitlink (its one refusal there; hidden work is parked, not refused),
 * and the check after it keeps its capture for the park.
 */
async function checkWorktreeCanGo(
  dir: string,
  park: boolean,
  afterStop: boolean,
  limits: ParkLimits,
  git: GitEnv,
  patchFile?: string,
): Promise<{ dirty: boolean; large: ParkSize | null; parkStart: LaneDirState['parkStart'] }> {
  const info = await worktreeInfo(dir, git);
  await refuseUnparkable(info.top, info.gitDir, git);
  const dirty = await uncommittedPaths(dir, git, info);
  // Before inspectWork, which already writes objects: the size of the work (`dirty` holds
  // porcelain entries, `XY path`) against the config's limit, and room for it on the disks
  // the park writes to.
  const size = park && dirty.length ? parkSizeOf(info.top, dirty) : null;
  if (size) {
    if (size.bytes > limits.maxBytes) throw parkTooLargeError(info.top, size, limits.maxBytes / MIB);
    checkParkSpace(info.top, size.bytes, [info.gitDir, ...(patchFile ? [path.dirname(patchFile)] : [])]);
  }
  const skipCapture = park && !afterStop && !(await gitlinksPossible(info, git));
  const work = skipCapture
    ? { hidden: [], gitlinks: [], kept: null }
    : await inspectWork(dir, dirty, git, { info, keep: park && afterStop });
  try {
    if ((dirty.length || work.hidden.length) && !park) throw dirtyError(dir, dirty, work.hidden);
    if (work.gitlinks.length) throw parkUnsupportedError(info.top, work.gitlinks);
  } catch (e) {
    work.kept?.dispose();
    throw e;
  }
  return {
    dirty: dirty.length > 0 || work.hidden.length > 0,
    large: size && size.bytes > limits.warnBytes ? size : null,
    parkStart: park && afterStop ? { info, capture: work.kept } : null,
  };
}
