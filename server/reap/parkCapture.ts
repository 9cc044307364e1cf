// The working state of a worktree as a git tree, taken through a temporary index so the
// real index is never touched: copy the real index (keeping its stat cache and the
// skip-worktree bits of a sparse checkout's absent files, so they do not read as
// deletions), clear the bits that hide edits, `git add -A` into the copy, add what only
// uncommitted ignore rules hide, `git write-tree`.
import * as fs from 'node:fs';
import { ignoredOnlyByUncommittedRules } from './committedIgnores';
import { gitFailure, joinNul, runGit, splitNul } from '../git/gitExec';
import type { GitCall, GitEnv } from '../git/gitExec';
import { clearHidingBits, sparseCheckoutOn } from './indexFlags';
import type { HiddenByBits } from './indexFlags';
import { DST_PREFIX, SRC_PREFIX } from './patchFormat';
import { unreadableWorkError, unstorablePathsError } from './reapErrors';
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
  /** Entries whose index bits hid them from `git status` (their bits were cleared in the copy). */
  hiddenByBits: HiddenByBits;
  /** Untracked paths ignored only by rules the lane's base commit does not commit (folders end in `/`). */
  ignoredByUncommittedRules: Buffer[];
}

// Settings that could make a copied index lie about the tree or write beside it.
const INDEX_SAFE = [
  '-c',
  'core.fsmonitor=false',
  '-c',
  'core.untrackedCache=false',
  '-c',
  'core.splitIndex=false',
  '-c',
  'advice.addEmbeddedRepo=false',
];

export const GITLINK_MODE = '160000';

/**
 * Fills `indexFile` with the working state of `info.top` and returns its tree and changes
 * against HEAD. Untracked files count unless the .gitignore files committed at the lane's base commit
 * ignore them (see committedIgnores.ts); edits under assume-unchanged or skip-worktree
 * count (see indexFlags.ts).
 */
export async function captureWork(
  info: WorktreeInfo,
  head: string,
  indexFile: string,
  scratchDir: string,
  opts: GitEnv,
): Promise<Capture> {
  const call = { ...opts, extra: { GIT_INDEX_FILE: indexFile } };
  if (fs.existsSync(info.indexFile)) copyIndex(info.indexFile, indexFile);
  else await runGit(info.top, ['read-tree', head], call);
  const hiddenByBits = await clearHidingBits(info.top, indexFile, opts);
  // In a sparse checkout, new files outside the cone are work too: without --sparse git
  // leaves them out and fails (they are not in the copy's index, so nothing is lost by adding them there).
  const sparse = (await sparseCheckoutOn(info.top, opts)) ? ['--sparse'] : [];
  // git stops at the first name it will not store; each retry leaves the ones found out, so the refusal names them all.
  const invalid: string[] = [];
  await addReadably(info.top, invalid, (skip) =>
    skip.length === 0
      ? { args: [...INDEX_SAFE, 'add', '-A', ...sparse], call }
      : {
          args: [...INDEX_SAFE, 'add', '-A', ...sparse, '--pathspec-from-file=-', '--pathspec-file-nul'],
          call: {
            ...call,
            input: joinNul([Buffer.from('.'), ...skip.map((p) => Buffer.from(`:(exclude,literal)${p}`))]),
          },
        },
  );
  const ignoredByUncommittedRules = await ignoredOnlyByUncommittedRules(info, indexFile, scratchDir, opts);
  if (ignoredByUncommittedRules.length) {
    await addReadably(info.top, invalid, (skip) => ({
      args: [...INDEX_SAFE, 'add', '--force', ...sparse, '--pathspec-from-file=-', '--pathspec-file-nul'],
      call: {
        ...opts,
        extra: { GIT_INDEX_FILE: indexFile, GIT_LITERAL_PATHSPECS: '1' },
        input: joinNul(ignoredByUncommittedRules.filter((p) => !skip.includes(p.toString('utf8')))),
      },
    }));
  }
  if (invalid.length) throw unstorablePathsError(info.top, invalid.sort());
  const changes = await changesOf(info, head, indexFile, opts);
  const tree = (await runGit(info.top, [...INDEX_SAFE, 'write-tree'], call)).stdout.toString('utf8').trim();
  return { tree, changes, hiddenByBits, ignoredByUncommittedRules };
}

/**
 * `git add`, refusing when it could not read something. git fails on an unreadable file but
 * only warns about an unreadable folder and goes on without it: the capture would then miss
 * the work inside, and a reap would call the tree saved (or clean) when it is not.
 */
async function addReadably(
  top: string,
  invalid: string[],
  run: (skip: string[]) => { args: string[]; call: GitCall },
): Promise<void> {
  for (let round = 0; round < 1000; round++) {
    const { args, call } = run(invalid);
    const r = await runGit(top, args, { ...call, okCodes: [128] });
    const unreadable = unreadablePaths(r.stderr);
    if (unreadable.length) throw unreadableWorkError(top, unreadable);
    const found = invalidPaths(r.stderr).filter((p) => !invalid.includes(p));
    if (found.length === 0) {
      if (r.code !== 0) throw gitFailure(args, top, r, null);
      return;
    }
    invalid.push(...found);
  }
}

/** The paths of git's "Permission denied" complaints (`open("x")`, `could not open directory 'x/'`). */
export function unreadablePaths(stderr: string): string[] {
  const out: string[] = [];
  for (const line of stderr.split('\n')) {
    const m = /^(?:error|warning): (?:open\("(.*)"\)|could not open directory '(.*)'): Permission denied$/.exec(line);
    if (m) out.push(m[1] ?? m[2]);
  }
  return out;
}

/** The paths git will not put in an index (`error: invalid path 'x/.GIT'`: names core.protectNTFS/HFS reserve). */
export function invalidPaths(stderr: string): string[] {
  const out: string[] = [];
  for (const line of stderr.split('\n')) {
    const m = /^error: invalid path '(.*)'$/.exec(line);
    if (m) out.push(m[1]);
  }
  return out;
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
  const raw = await runGit(
    info.top,
    ['diff-index', '--cached', '--raw', '-z', '--no-renames', '--ignore-submodules=none', head, '--'],
    {
      ...opts,
      extra: { GIT_INDEX_FILE: indexFile },
    },
  );
  return parseRaw(splitNul(raw.stdout));
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
export async function writePatch(
  info: WorktreeInfo,
  head: string,
  indexFile: string,
  fd: number,
  opts: GitEnv,
): Promise<void> {
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
