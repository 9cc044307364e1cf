// Lane working directories (spec Launch rules table) and their creation.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Role } from '../../shared/config';
import { dirExistsError } from './laneRefusals';
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

export interface WorktreeSpec {
  repo: string;
  dir: string;
  /** A new branch at `start`, or detached at `start` when null. */
  branch: string | null;
  start: string;
  sparse?: string[];
}

export async function createWorktree(s: WorktreeSpec): Promise<void> {
  if (fs.existsSync(s.dir)) throw dirExistsError(s.dir);
  // The lanes root and run folders svc creates are the user's alone (0700): a lane holds its work.
  fs.mkdirSync(path.dirname(s.dir), { recursive: true, mode: 0o700 });
  const sparse = s.sparse && s.sparse.length > 0;
  const args = ['worktree', 'add', '--quiet'];
  if (sparse) args.push('--no-checkout');
  if (s.branch) args.push('-b', s.branch, s.dir, s.start);
  else args.push('--detach', s.dir, s.start);
  // Every step writes the repository's shared files (worktrees/, config), so one at a time per repository.
  await serialized(s.repo, async () => {
    await git(s.repo, args);
    fs.chmodSync(s.dir, 0o700);
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
  if (fs.existsSync(dir)) throw dirExistsError(dir);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
}
