// Lane working directories (spec Launch rules table) and their creation.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Role } from '../../shared/config';
import { conflict } from '../../shared/errors';
import { git, serialized } from '../git/git';

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

/**
 * `origin/<default>` after fetching it; the local branch when the project has no origin.
 * A fetch whose remote ref has not moved is skipped: when origin is a folder on this
 * machine (the local code host's bare repository), its branch is read there directly and,
 * when it names the commit origin/<default> already names, there is nothing to fetch.
 */
export async function fetchBase(repo: string, defaultBranchName: string): Promise<string> {
  const tracking = `refs/remotes/origin/${defaultBranchName}`;
  const [url, have] = await Promise.all([gitOut(repo, ['remote', 'get-url', 'origin']), gitOut(repo, ['rev-parse', '--verify', '--quiet', tracking])]);
  if (url === undefined) return defaultBranchName;
  const ref = `refs/heads/${defaultBranchName}`;
  const local = localRemote(repo, url);
  if (!(have && local && (await gitOut(local, ['rev-parse', '--verify', '--quiet', ref])) === have)) {
    await serialized(repo, () => git(repo, ['fetch', '--quiet', '--no-tags', 'origin', `+${ref}:${tracking}`]));
  }
  return `origin/${defaultBranchName}`;
}

async function gitOut(cwd: string, args: string[]): Promise<string | undefined> {
  try {
    return (await git(cwd, args)).trim();
  } catch {
    return undefined;
  }
}

/** The folder of a remote URL that is a path on this machine (`/…` or `file:///…`), if it exists. */
function localRemote(repo: string, url: string): string | undefined {
  const p = url.startsWith('file://') ? decodeURIComponent(url.slice('file://'.length)) : url;
  if (!path.isAbsolute(p)) return undefined; // scp-like or a URL: ask the network
  try {
    return fs.statSync(path.resolve(repo, p)).isDirectory() ? p : undefined;
  } catch {
    return undefined;
  }
}

export interface WorktreeSpec {
  repo: string;
  dir: string;
  /** A new branch at `start`, or detached at `start` when null. */
  branch: string | null;
  start: string;
  sparse?: string[];
}

export async function createWorktree(s: WorktreeSpec): Promise<void> {
  if (fs.existsSync(s.dir)) throw conflict('dirExists', `lane directory ${s.dir} already exists; reap the lane that used it or choose another key`);
  fs.mkdirSync(path.dirname(s.dir), { recursive: true });
  const sparse = s.sparse && s.sparse.length > 0;
  const args = ['worktree', 'add', '--quiet'];
  if (sparse) args.push('--no-checkout');
  if (s.branch) args.push('-b', s.branch, s.dir, s.start);
  else args.push('--detach', s.dir, s.start);
  // Every step writes the repository's shared files (worktrees/, config), so one at a time per repository.
  await serialized(s.repo, async () => {
    await git(s.repo, args);
    if (s.branch) {
      // So a plain `git push` works and `@{u}` names the branch the builder must push.
      await git(s.dir, ['config', `branch.${s.branch}.remote`, 'origin']);
      await git(s.dir, ['config', `branch.${s.branch}.merge`, `refs/heads/${s.branch}`]);
    }
    if (sparse) {
      await git(s.dir, ['sparse-checkout', 'set', '--no-cone', '--', ...s.sparse!]);
      await git(s.dir, ['read-tree', '-mu', 'HEAD']);
    }
  });
}

export function createPlayDir(dir: string): void {
  if (fs.existsSync(dir)) throw conflict('dirExists', `lane directory ${dir} already exists; reap the lane that used it or choose another key`);
  fs.mkdirSync(dir, { recursive: true });
}
