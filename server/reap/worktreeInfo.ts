// Where a worktree's git state lives, and what it has checked out.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gitText, runGit, splitNul } from '../git/gitExec';
import type { GitEnv } from '../git/gitExec';
import { notAWorktreeError } from './reapErrors';

export interface WorktreeInfo {
  /** Top of the worktree, real path. */
  top: string;
  /** This worktree's private git dir (`<common>/worktrees/<name>` for a linked one). */
  gitDir: string;
  commonDir: string;
  indexFile: string;
  /** Full SHA of HEAD; null on an unborn branch. */
  head: string | null;
  /** Short branch name; null when HEAD is detached. */
  branch: string | null;
  /** Where `git -C` can run worktree commands once this worktree is gone. */
  repoDir: string;
  linked: boolean;
}

export async function worktreeInfo(dir: string, opts: GitEnv = {}): Promise<WorktreeInfo> {
  let real: string;
  try {
    real = fs.realpathSync(dir);
  } catch {
    throw notAWorktreeError(dir, 'it does not exist');
  }
  let lines: string[];
  try {
    const out = await gitText(
      real,
      [
        'rev-parse',
        '--path-format=absolute',
        '--show-toplevel',
        '--git-dir',
        '--git-common-dir',
        '--git-path',
        'index',
      ],
      opts,
    );
    lines = out.split('\n');
  } catch {
    throw notAWorktreeError(dir, 'git does not see a work tree there');
  }
  // Lane paths are built from validated keys; a newline in one would break this parse.
  if (lines.length !== 4 || lines[0] === '') throw notAWorktreeError(dir, 'its path cannot be read back from git');
  const [top, gitDir, commonDir, indexFile] = lines;
  // A folder without its own .git inside some other work tree (a home kept in git, the
  // project itself) makes git answer for that outer tree: never park or clean that.
  if (fs.realpathSync(top) !== real)
    throw notAWorktreeError(dir, `it is inside the work tree ${top}, not the top of one`);
  const head = await headOf(real, opts);
  const symOut = await runGit(real, ['symbolic-ref', '-q', '--short', 'HEAD'], { ...opts, okCodes: [1] });
  const branch = symOut.code === 0 ? symOut.stdout.toString('utf8').trim() : null;
  return {
    top,
    gitDir,
    commonDir,
    indexFile,
    head,
    branch,
    repoDir: repoDirOf(commonDir),
    linked: path.resolve(gitDir) !== path.resolve(commonDir),
  };
}

/** Full SHA of HEAD, or null on an unborn branch. */
export async function headOf(dir: string, opts: GitEnv = {}): Promise<string | null> {
  const out = await runGit(dir, ['rev-parse', '-q', '--verify', 'HEAD^{commit}'], { ...opts, okCodes: [1] });
  return out.code === 0 ? out.stdout.toString('utf8').trim() : null;
}

/** The main worktree when the common dir is its `.git`, else the (bare) common dir itself. */
function repoDirOf(commonDir: string): string {
  if (path.basename(commonDir) !== '.git') return commonDir;
  const main = path.dirname(commonDir);
  try {
    return fs.realpathSync(path.join(main, '.git')) === fs.realpathSync(commonDir) ? main : commonDir;
  } catch {
    return commonDir;
  }
}

/**
 * Paths git counts as uncommitted work: staged, unstaged and untracked (ignored files are
 * not work; see docs/decisions.md). The same view `git worktree remove` uses to refuse.
 * Entries are porcelain v1 lines such as ` M src/a.ts` or `?? notes/`.
 */
export async function uncommittedPaths(dir: string, opts: GitEnv = {}, known?: WorktreeInfo): Promise<string[]> {
  if (!known) await worktreeInfo(dir, opts); // refuses a folder that is not a worktree's top
  const out = await runGit(
    dir,
    [
      '--no-optional-locks',
      '-c',
      'core.quotepath=false',
      'status',
      '--porcelain=v1',
      '-z',
      '--untracked-files=all',
      '--ignore-submodules=none',
      '--no-renames',
    ],
    opts,
  );
  return splitNul(out.stdout).map((b) => b.toString('utf8'));
}
