// The working state of a worktree as a git tree, taken through a temporary index so the
// real index is never touched: copy the real index (keeping its stat cache and its
// skip-worktree bits, so a sparse checkout's absent files do not read as deletions),
// `git add -A` into the copy, `git write-tree`.
import * as fs from 'node:fs';
import { runGit, splitNul } from './gitExec';
import type { GitEnv } from './gitExec';
import type { WorktreeInfo } from './worktreeInfo';

/** One path of `git diff-index --raw`: modes are octal strings, '000000' when absent. */
export interface RawChange {
  oldMode: string;
  newMode: string;
  status: string;
  /** Bytes as git stores them: a name need not be valid UTF-8. */
  path: Buffer;
}

export interface Capture {
  tree: string;
  changes: RawChange[];
}

// Settings that could make a copied index lie about the tree or write beside it.
const INDEX_SAFE = ['-c', 'core.fsmonitor=false', '-c', 'core.untrackedCache=false', '-c', 'core.splitIndex=false', '-c', 'advice.addEmbeddedRepo=false'];

export const GITLINK_MODE = '160000';

/** Fills `indexFile` with the working state of `info.top` and returns its tree and changes against HEAD. */
export async function captureWork(info: WorktreeInfo, head: string, indexFile: string, opts: GitEnv): Promise<Capture> {
  const call = { ...opts, extra: { GIT_INDEX_FILE: indexFile } };
  if (fs.existsSync(info.indexFile)) fs.copyFileSync(info.indexFile, indexFile);
  else await runGit(info.top, ['read-tree', head], call);
  await runGit(info.top, [...INDEX_SAFE, 'add', '-A'], call);
  const tree = (await runGit(info.top, [...INDEX_SAFE, 'write-tree'], call)).stdout.toString('utf8').trim();
  const raw = await runGit(info.top, ['diff-index', '--cached', '--raw', '-z', '--no-renames', '--ignore-submodules=none', head, '--'], call);
  return { tree, changes: parseRaw(splitNul(raw.stdout)) };
}

/** `:<old mode> <new mode> <old sha> <new sha> <status>` then the path, NUL-separated. */
export function parseRaw(fields: Buffer[]): RawChange[] {
  const changes: RawChange[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const meta = fields[i].toString('utf8').replace(/^:/, '').split(' ');
    changes.push({ oldMode: meta[0], newMode: meta[1], status: meta[4], path: fields[i + 1] });
  }
  return changes;
}

/**
 * Writes the binary patch from HEAD to the captured index into `fd`. Every option that
 * user config could flip is pinned: prefixes, renames, external diff, textconv, colour.
 */
export async function writePatch(info: WorktreeInfo, head: string, indexFile: string, fd: number, opts: GitEnv): Promise<void> {
  await runGit(
    info.top,
    [
      '-c',
      'core.quotepath=false',
      'diff-index',
      '--cached',
      '--patch',
      '--binary',
      '--full-index',
      '--no-renames',
      '--no-ext-diff',
      '--no-textconv',
      '--no-color',
      '--no-relative',
      '--ignore-submodules=none',
      '--src-prefix=a/',
      '--dst-prefix=b/',
      '-U3',
      head,
      '--',
    ],
    { ...opts, extra: { GIT_INDEX_FILE: indexFile }, stdoutFd: fd },
  );
}
