// Where a lane's directory lives: the seam between a lane on this machine and one on a host
// (hostPlacement.ts). launchLane asks its placement, never which one it has, for what differs:
// the lanes root, whether a directory is known to exist, the start point as a commit, whether
// the branch is taken, the head of a reused directory, making the directory, and how a
// failure to make it is refused.
import * as fs from 'node:fs';
import type { Project } from '../../shared/config';
import { SvcError } from '../../shared/errors';
import { branchExists, git, resolveCommit } from '../git/git';
import type { GitFacts } from '../git/git';
import { laneDirFailedError } from './laneRefusals';
import { lanesRootOf } from './lanesRoot';
import { fullDiskOf } from '../util/freeSpace';
import { createPlayDir, createWorktree } from './workdir';
import type { LaneRepoKnown } from './laneGitRepo';

/** A lane's directory to make (or, `reuse`, an earlier lane's to take over). */
export interface LaneDir {
  dir: string;
  branch: string | null;
  start: string | null;
  reuse: boolean;
}

export interface LanePlacement {
  /** The host the lane runs on (config.yaml hosts.<name>); null: this machine. */
  readonly host: string | null;
  /** The lanes root, absolute, where this placement makes directories. */
  readonly root: string;
  /** Whether `dir` exists, when it can be seen from here; undefined when it is checked where the lane goes. */
  dirExists(dir: string): boolean | undefined;
  /** The start point as a commit (a previous iteration's branch is resolved); where it cannot be resolved here, as given. */
  resolveStart(start: string): Promise<string>;
  /** Whether branch `branch` already exists where the lane goes (`known`: the answer read ahead for the lane's default branch, if that is the one). */
  branchTaken(branch: string, known: (() => boolean) | undefined): Promise<boolean>;
  /** Takes over an earlier lane's directory; its HEAD when `wantHead` (a judge's commit), else what the placement learned anyway. */
  reuse(d: LaneDir, wantHead: boolean): Promise<string | null>;
  /**
   * Makes the lane's directory; for a fresh worktree here, the git facts known without asking
   * git. `mayTrackOrigin`: origin may already have a branch of the lane's name (then its
   * upstream is not known ahead). `onRegistered`: called once the agent may start in the
   * directory while its files are still being checked out (see createWorktree), where this
   * placement can say so; `hookFree`: the repository runs no post-checkout hook;
   * `laneRepoKnown`: what a lane repository of its own is made with (laneGitRepo.ts).
   */
  make(
    d: LaneDir,
    fresh: { mayTrackOrigin: boolean; onRegistered?: () => void; hookFree?: boolean; laneRepoKnown?: LaneRepoKnown },
  ): Promise<GitFacts | undefined>;
  /** The refusal for a failure to make the directory. */
  makeFailed(e: unknown): SvcError;
}

/** A lane on this machine: a worktree of the project's checkout, or (`ownRepo`) of a repository of its own (laneGitRepo.ts); a play lane: an empty folder; under its lanes root. */
export function localPlacement(project: Project, gitBacked: boolean, ownRepo = false): LanePlacement {
  const repo = project.path;
  return {
    host: null,
    root: lanesRootOf(project),
    dirExists: (dir) => fs.existsSync(dir),
    resolveStart: async (start) =>
      /^[0-9a-f]{40}$/.test(start) ? start : await resolveCommit(repo, start, 'start point'),
    branchTaken: async (branch, known) => (known ? known() : await branchExists(repo, branch)),
    reuse: async (d, wantHead) => (wantHead ? (await git(d.dir, ['rev-parse', 'HEAD'])).trim() : null),
    async make(d, fresh) {
      if (!gitBacked) {
        createPlayDir(d.dir);
        return undefined;
      }
      await createWorktree({
        repo,
        dir: d.dir,
        branch: d.branch,
        start: d.start!,
        sparse: project.gauntlet?.sparse_checkout,
        onRegistered: fresh.onRegistered,
        hookFree: fresh.hookFree,
        ownRepo,
        laneRepoKnown: fresh.laneRepoKnown,
      });
      // The facts of a worktree just made are known without asking git (a full `git status` of
      // a fresh checkout is the slowest read there is): its branch, the commit it starts at,
      // clean, and no upstream yet — unless origin already has a branch of that name.
      if (d.branch && fresh.mayTrackOrigin) return undefined;
      return {
        branch: d.branch,
        headSha: d.start,
        ahead: null,
        upstream: d.branch ? `origin/${d.branch}` : null,
        dirty: false,
      };
    },
    // A local refusal already says what and why; a git failure gets where it happened, and
    // whether the disk it wrote to is full.
    makeFailed: (e) =>
      SvcError.is(e)
        ? e
        : laneDirFailedError((e as Error).message, undefined, fullDiskOf([lanesRootOf(project), repo])),
  };
}
