// The working state of a worktree as a git tree, taken through a temporary index so the
// real index is never touched: copy the real index (keeping its stat cache and its
// skip-worktree bits, so a sparse checkout's absent files do not read as deletions),
// `git add -A` into the copy, `git write-tree`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runGit, splitNul } from './gitExec';
import type { GitEnv } from './gitExec';
import { DST_PREFIX, SRC_PREFIX } from './patchFormat';
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

/**
 * Fills `indexFile` with the working state of `info.top` and returns its tree and changes
 * against HEAD. Untracked files count unless ignored both by the rules in the worktree
 * now and by HEAD's rules (which cleaning restores): see `addUnignoredByHead`.
 */
export async function captureWork(info: WorktreeInfo, head: string, indexFile: string, scratchDir: string, opts: GitEnv): Promise<Capture> {
  const call = { ...opts, extra: { GIT_INDEX_FILE: indexFile } };
  if (fs.existsSync(info.indexFile)) copyIndex(info.indexFile, indexFile);
  else await runGit(info.top, ['read-tree', head], call);
  await runGit(info.top, [...INDEX_SAFE, 'add', '-A'], call);
  let changes = await changesOf(info, head, indexFile, opts);
  if (changes.some((c) => isIgnoreFile(c.path)) && (await addUnignoredByHead(info, head, indexFile, scratchDir, opts))) {
    changes = await changesOf(info, head, indexFile, opts);
  }
  const tree = (await runGit(info.top, [...INDEX_SAFE, 'write-tree'], call)).stdout.toString('utf8').trim();
  return { tree, changes };
}

/**
 * Copies an index keeping git's racy-clean protection: git re-reads every file modified
 * no earlier than the index file itself, because a same-size edit in the same second
 * leaves its stat data unchanged. A fresh copy would carry a newer mtime and make git
 * trust such entries, missing the edit; the copy is dated a second before the original.
 */
function copyIndex(from: string, to: string): void {
  fs.copyFileSync(from, to);
  const t = Math.floor(fs.statSync(from).mtimeMs / 1000) - 1;
  fs.utimesSync(to, t, t);
}

async function changesOf(info: WorktreeInfo, head: string, indexFile: string, opts: GitEnv): Promise<RawChange[]> {
  const raw = await runGit(info.top, ['diff-index', '--cached', '--raw', '-z', '--no-renames', '--ignore-submodules=none', head, '--'], { ...opts, extra: { GIT_INDEX_FILE: indexFile } });
  return parseRaw(splitNul(raw.stdout));
}

const isIgnoreFile = (p: Buffer) => p.toString('latin1') === '.gitignore' || p.toString('latin1').endsWith('/.gitignore');

/**
 * When the work changes a .gitignore, a file ignored by the worktree's rules now may be
 * visible under HEAD's rules, which the cleaned tree returns to: left behind it would be
 * work that `git worktree remove` refuses over, or (forced) loses. Such files are added
 * to the capture. HEAD's rules are read by `git check-ignore` against a scratch tree
 * holding only HEAD's .gitignore files (info/exclude and core.excludesFile apply to both
 * sides alike). Returns whether anything was added.
 */
async function addUnignoredByHead(info: WorktreeInfo, head: string, indexFile: string, scratchDir: string, opts: GitEnv): Promise<boolean> {
  const call = { ...opts, extra: { GIT_INDEX_FILE: indexFile } };
  const ignoredNow = await runGit(info.top, ['ls-files', '--others', '--ignored', '--exclude-standard', '--directory', '-z'], call);
  if (ignoredNow.stdout.length === 0) return false;
  const rules = path.join(scratchDir, 'head-rules');
  fs.mkdirSync(rules, { recursive: true });
  const rulesCall = { ...opts, extra: { GIT_INDEX_FILE: path.join(scratchDir, 'head-rules.index'), GIT_DIR: info.gitDir, GIT_WORK_TREE: rules } };
  await runGit(rules, ['read-tree', head], rulesCall);
  const listed = await runGit(rules, ['ls-files', '-z'], rulesCall);
  const ignoreFiles = splitNul(listed.stdout).filter(isIgnoreFile);
  if (ignoreFiles.length) await runGit(rules, ['checkout-index', '--force', '-z', '--stdin'], { ...rulesCall, input: nulList(ignoreFiles) });
  const stillIgnored = await runGit(rules, ['check-ignore', '--no-index', '-z', '--stdin'], { ...rulesCall, input: ignoredNow.stdout, okCodes: [1] });
  const keep = new Set(splitNul(stillIgnored.stdout).map((p) => p.toString('hex')));
  const visible = splitNul(ignoredNow.stdout).filter((p) => !keep.has(p.toString('hex')));
  if (visible.length === 0) return false;
  await runGit(info.top, [...INDEX_SAFE, 'add', '--force', '--pathspec-from-file=-', '--pathspec-file-nul'], {
    ...opts,
    extra: { GIT_INDEX_FILE: indexFile, GIT_LITERAL_PATHSPECS: '1' },
    input: nulList(visible),
  });
  return true;
}

const nulList = (paths: Buffer[]) => Buffer.concat(paths.flatMap((p) => [p, Buffer.from([0])]));

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
      `--src-prefix=${SRC_PREFIX}`,
      `--dst-prefix=${DST_PREFIX}`,
      '-U3',
      head,
      '--',
    ],
    { ...opts, extra: { GIT_INDEX_FILE: indexFile }, stdoutFd: fd },
  );
}
