// An issue's workspace: a worktree on branch `issue/<id-lower>` under the project's lanes
// root, and review worktrees (detached at a commit, never the work agent's workspace).
// Review files and the journal live inside the workspace but are never part of the work:
// `.svc/` and `review.md` are listed in the workspace's own excludes (reviewExcludes.ts).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Project } from '../../shared/config';
import { fetchBase } from '../git/fetchBase';
import { git, gitOk, serialized } from '../git/git';
import { logger } from '../util/log';
import { excludeReviewFilesIn } from './reviewExcludes';
import { commitMissingError, issueBranchExistsError, workspaceExistsError } from './issueRefusals';

const log = logger('issues');

/**
 * `origin/<default>`, fetched only when origin's branch moved (as a lane launch does:
 * git/fetchBase.ts); the local default branch when there is no origin. A review's commit
 * is fetched on its own when missing (ensureCommit), so nothing else needs the fetch.
 */
export function baseRef(project: Project): Promise<string> {
  return fetchBase(project.path, project.default_branch);
}

export async function createWorkspace(project: Project, dir: string, branch: string): Promise<void> {
  const repo = project.path;
  if (fs.existsSync(dir)) throw workspaceExistsError(dir);
  if (await gitOk(repo, ['show-ref', '--verify', '--quiet', `refs/heads/${branch}`])) {
    throw issueBranchExistsError(branch, repo);
  }
  const start = await baseRef(project);
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  await serialized(repo, () => git(repo, ['worktree', 'add', '--quiet', '-b', branch, dir, start]));
  // A plain `git push` works, and `svc done` pushes to the same place.
  await git(dir, ['config', `branch.${branch}.remote`, 'origin']);
  await git(dir, ['config', `branch.${branch}.merge`, `refs/heads/${branch}`]);
  await excludeReviewFilesIn(dir);
}

/** Makes sure `sha` is in the project's object store (fetching the branch if needed). */
export async function ensureCommit(project: Project, branch: string, sha: string): Promise<void> {
  const repo = project.path;
  if (await gitOk(repo, ['cat-file', '-e', `${sha}^{commit}`])) return;
  await serialized(repo, () =>
    git(repo, ['fetch', '--quiet', 'origin', `+refs/heads/${branch}:refs/remotes/origin/${branch}`]),
  );
  if (!(await gitOk(repo, ['cat-file', '-e', `${sha}^{commit}`]))) throw commitMissingError(sha, branch, repo);
}

/**
 * A detached worktree at `sha` (replacing whatever was at `dir`). The folder is made, empty,
 * before git runs — in the same tick as the call when nothing was there — so an agent may be
 * started in it while git checks it out (git adds a worktree into an empty folder). When git
 * fails, the folder is removed again if it is still empty.
 */
export async function createDetachedWorktree(repo: string, dir: string, sha: string): Promise<void> {
  try {
    await addDetached(repo, dir, sha);
  } catch (e) {
    removeIfEmpty(dir);
    throw e;
  }
}

/**
 * A detached worktree at a PR's head `sha` on `branch`, made at once when the commit is in
 * the object store (the usual case: `svc done` or a push brought it), so no `cat-file`
 * runs before it; only when `git worktree add` finds no such commit is the branch fetched
 * (ensureCommit) and the worktree made then. git refuses an unknown commit before it
 * writes anything, so the folder stays as it was (empty) between the two tries.
 */
export async function createReviewWorktree(project: Project, branch: string, dir: string, sha: string): Promise<void> {
  const repo = project.path;
  try {
    try {
      await addDetached(repo, dir, sha);
      return;
    } catch (e) {
      if (await gitOk(repo, ['cat-file', '-e', `${sha}^{commit}`])) throw e; // the commit is here: another failure
    }
    await ensureCommit(project, branch, sha);
    await addDetached(repo, dir, sha);
  } catch (e) {
    removeIfEmpty(dir);
    throw e;
  }
}

async function addDetached(repo: string, dir: string, sha: string): Promise<void> {
  if (holdsFiles(dir)) await removeWorktree(repo, dir);
  fs.mkdirSync(dir, { recursive: true });
  await serialized(repo, () => git(repo, ['worktree', 'add', '--quiet', '--detach', dir, sha]));
}

/** Whether `dir` is an empty folder. */
export function isEmptyFolder(dir: string): boolean {
  try {
    return fs.readdirSync(dir).length === 0;
  } catch {
    return false;
  }
}

/** Whether something is at `dir` other than an empty folder (a file, a folder with entries). */
function holdsFiles(dir: string): boolean {
  return fs.existsSync(dir) && !isEmptyFolder(dir);
}

function removeIfEmpty(dir: string): void {
  try {
    fs.rmdirSync(dir); // refuses a folder with anything in it
  } catch {
    /* not there, or not empty: left as it is */
  }
}

/** Removes a review or checks worktree; they hold nothing of value (reports live in the workspace). */
export async function removeWorktree(repo: string, dir: string): Promise<void> {
  if (!fs.existsSync(dir)) return;
  try {
    await serialized(repo, () => git(repo, ['worktree', 'remove', '--force', '--force', dir]));
  } catch (e) {
    log.warn(`git worktree remove ${dir} failed; removing the folder`, e);
    fs.rmSync(dir, { recursive: true, force: true });
    await serialized(repo, () => git(repo, ['worktree', 'prune'])).catch(() => undefined);
  }
}

/**
 * The merge base of `sha` and the project's base ref: the diff base reviewers read against.
 * `fetched`: the base ref baseRef() just answered (origin/<default> exists then, or the
 * local branch is the base), so it need not be looked up again.
 */
export async function diffBase(project: Project, sha: string, fetched?: string): Promise<string> {
  const base =
    fetched ??
    ((await gitOk(project.path, ['rev-parse', '--verify', '--quiet', `origin/${project.default_branch}`]))
      ? `origin/${project.default_branch}`
      : project.default_branch);
  try {
    return (await git(project.path, ['merge-base', sha, base])).trim();
  } catch {
    return base;
  }
}
