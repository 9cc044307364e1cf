// Lane working directories (spec Launch rules table) and their creation.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Role } from '../../shared/config';
import { dirExistsError } from './laneRefusals';
import { branchExists, git, serialized } from '../git/git';
import { checkNoPlantedLinks } from '../git/plantedLinks';
import { createLaneRepo, laneRepoPath, removeLaneRepo } from './laneGitRepo';
import type { LaneRepoKnown } from './laneGitRepo';

export function laneDir(root: string, run: string, key: string, role: Role, iteration: number): string {
  const base = `${run}-${key}`;
  const i = `i${iteration}`;
  switch (role) {
    case 'builder':
      return path.join(root, iteration === 1 ? base : `${base}-${i}`);
    case 'critic':
      return path.join(root, `${base}-critic-${i}`);
    case 'verifier':
      return path.join(root, `${base}-verify-${i}`);
    case 'orchestrator':
      return path.join(root, iteration === 1 ? `${base}-orch` : `${base}-orch-${i}`);
    case 'play':
      return path.join(root, `${base}-play-${i}`);
  }
}

export function defaultBranch(run: string, key: string, iteration: number): string {
  return iteration === 1 ? `${run}/${key}` : `${run}/${key}-i${iteration}`;
}

export interface WorktreeSpec {
  repo: string;
  dir: string;
  /** A new branch at `start`, or detached at `start` when null. */
  branch: string | null;
  start: string;
  sparse?: string[];
  /**
   * Called once the worktree is registered (its `.git` file, admin folder, branch and HEAD
   * made, its sparse patterns set) and before its files are checked out, so the agent can
   * start alongside the checkout. Only where no post-checkout hook can run (`hookFree`):
   * `git worktree add` runs that hook after its own checkout, and a checkout split from the
   * add would not.
   */
  onRegistered?: () => void;
  /** Whether the repository has no post-checkout hook (see onRegistered). */
  hookFree?: boolean;
  /**
   * A repository of the lane's own (config.yaml `lanes.git: own`, laneGitRepo.ts) instead of
   * a worktree of `repo` itself: the worktree is then added from the lane repository, and
   * the branch is made in `repo` too (at `start`), where the daemon mirrors the lane's.
   */
  ownRepo?: boolean;
  /** What the launch read ahead for the lane repository (laneGitRepo.ts), when `ownRepo`. */
  laneRepoKnown?: LaneRepoKnown;
}

/**
 * Makes the worktree. With onRegistered (and no hook), the add and the checkout are two
 * steps: `git worktree add --no-checkout`, then the `git reset --hard` that `git worktree add`
 * itself runs to check out (a sparse worktree: its patterns, then `git read-tree -mu HEAD`).
 * Resolves once the files are checked out.
 */
export async function createWorktree(s: WorktreeSpec): Promise<void> {
  if (fs.existsSync(s.dir)) throw dirExistsError(s.dir);
  // The new branch's ref and reflog are written in the shared refs/ and logs/, which lanes can write.
  if (s.branch) checkNoPlantedLinks(s.repo, [`refs/heads/${s.branch}`]);
  // The lanes root and run folders svc creates are the user's alone (0700): a lane holds its work.
  fs.mkdirSync(path.dirname(s.dir), { recursive: true, mode: 0o700 });
  if (s.ownRepo) return createOwnWorktree(s);
  const sparse = s.sparse && s.sparse.length > 0;
  const split = !sparse && s.onRegistered !== undefined && s.hookFree === true;
  const args = worktreeAddArgs(s, sparse || split);
  // Every step writes the repository's shared files (worktrees/, config), so one at a time per repository.
  await serialized(s.repo, async () => {
    // The branch's upstream (so a plain `git push` works and `@{u}` names the branch the
    // builder must push) is written while the worktree is checked out, not after it: the two
    // `git config` runs then cost the launch nothing. They lock only the repository's config,
    // which `git worktree add` does not write; the branch is new (a taken one is refused
    // before this), so the keys are its own, and they are taken back if the add fails.
    // The add is spawned first: it is the long one, and each spawn holds the daemon's thread.
    const add = git(s.repo, args);
    const upstream = s.branch ? writeUpstream(s.repo, s.branch) : undefined;
    const added = await Promise.allSettled([add, upstream]);
    if (added[0].status === 'rejected') {
      if (s.branch && added[1].status === 'fulfilled') await unsetUpstream(s.repo, s.branch);
      throw added[0].reason;
    }
    if (added[1].status === 'rejected') throw added[1].reason;
    await checkOut(s, s.repo, sparse, split);
  });
}

function worktreeAddArgs(s: WorktreeSpec, noCheckout: boolean | undefined): string[] {
  const args = ['worktree', 'add', '--quiet'];
  if (noCheckout) args.push('--no-checkout');
  if (s.branch) args.push('-b', s.branch, s.dir, s.start);
  else args.push('--detach', s.dir, s.start);
  return args;
}

/** The steps after the add: the worktree's mode, and a sparse or split checkout (see createWorktree). */
async function checkOut(
  s: WorktreeSpec,
  addedFrom: string,
  sparse: boolean | undefined,
  split: boolean,
): Promise<void> {
  fs.chmodSync(s.dir, 0o700);
  if (sparse) {
    await git(s.dir, ['sparse-checkout', 'set', '--no-cone', '--', ...s.sparse!]);
    s.onRegistered?.();
    await git(s.dir, ['read-tree', '-mu', 'HEAD']);
  } else if (split) {
    s.onRegistered!();
    try {
      await git(s.dir, ['reset', '--hard', '--no-recurse-submodules', '--quiet']);
    } catch (e) {
      // `git worktree add` takes back a worktree whose checkout failed (keeping the new
      // branch); so does the split add. Nothing in it is anyone's work: no agent has had a
      // session in it yet.
      await git(addedFrom, ['worktree', 'remove', '--force', s.dir]).catch(() => undefined);
      throw e;
    }
  }
}

/**
 * The worktree of a lane repository of its own (laneGitRepo.ts). The lane repository is
 * made first (two git reads of the project, files written directly), then the add from it
 * runs beside the branch's creation in the project's repository (its ref and upstream, in
 * the project's queue of git writes), so the launch pays for one add as before. The
 * checkout (and the agent's start, onRegistered) follows the add at once: the project's
 * branch is waited for only after it, as nothing of the checkout reads it.
 */
async function createOwnWorktree(s: WorktreeSpec): Promise<void> {
  const laneRepo = laneRepoPath(s.dir);
  await createLaneRepo(s.repo, laneRepo, s.branch, s.laneRepoKnown);
  const sparse = s.sparse && s.sparse.length > 0;
  const split = !sparse && s.onRegistered !== undefined && s.hookFree === true;
  const add = git(laneRepo, worktreeAddArgs(s, sparse || split));
  const project = s.branch
    ? serialized(s.repo, async () => {
        await git(s.repo, ['branch', '--no-track', '--', s.branch!, s.start]);
        await writeUpstream(s.repo, s.branch!);
      })
    : Promise.resolve();
  // Settled now, so a failure while the add still runs is not an unhandled rejection; told below.
  const branched = project.then(
    () => undefined,
    (e: unknown) => ({ error: e }),
  );
  try {
    await add;
  } catch (e) {
    // Nothing of it is anyone's work yet: the lane repository goes; the project's branch,
    // made at the start commit, is taken back only when it is still there.
    removeLaneRepo(laneRepo);
    if (s.branch && !(await branched)) {
      // Compare-and-swap on the start commit: a branch someone moved meanwhile stays.
      await git(s.repo, ['update-ref', '-d', `refs/heads/${s.branch}`, s.start]).catch(() => undefined);
      await unsetUpstream(s.repo, s.branch);
    }
    throw e;
  }
  const checkedOut = checkOut(s, laneRepo, sparse, split);
  const [failed] = await Promise.all([branched, checkedOut]);
  if (failed) throw failed.error;
}

/**
 * Whether no post-checkout hook can run in a new worktree of the repository whose common git
 * dir is `commonDir`: core.hooksPath unset (a relative one would name a folder of the
 * worktree's own files) and no executable `hooks/post-checkout`. Unsure is no.
 */
export function noPostCheckoutHook(places: { commonDir?: string; hooksPath?: string }): boolean {
  if (!places.commonDir || places.hooksPath !== undefined) return false;
  try {
    fs.accessSync(path.join(places.commonDir, 'hooks', 'post-checkout'), fs.constants.X_OK);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

async function writeUpstream(repo: string, branch: string): Promise<void> {
  await git(repo, ['config', `branch.${branch}.remote`, 'origin']);
  await git(repo, ['config', `branch.${branch}.merge`, `refs/heads/${branch}`]);
}

/**
 * Takes back the upstream of a branch whose worktree was not made (best effort: the add's
 * error is the one told). A branch that exists after all (made by someone else in the same
 * instant) keeps it: the keys name that branch on origin, as a push of it would.
 */
async function unsetUpstream(repo: string, branch: string): Promise<void> {
  if (await branchExists(repo, branch)) return;
  for (const key of ['remote', 'merge'])
    await git(repo, ['config', '--unset', `branch.${branch}.${key}`]).catch(() => undefined);
}

export function createPlayDir(dir: string): void {
  if (fs.existsSync(dir)) throw dirExistsError(dir);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
}
