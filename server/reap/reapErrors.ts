// Every refusal reap can give, each message produced here and nowhere else (docs/style.md §7).
// The refusals (REAP_REFUSALS, shared/refusals/reap.ts) are kind 'refused' (exit 1 from
// the shim, 409 over HTTP) and all mean the same thing to the user: nothing was archived,
// removed or cleaned. Match on `reason` (`SvcError.is(e, 'dirty')`), never on the text.
import { refusalsOf } from '../../shared/errors';
import * as path from 'node:path';
import { shellQuote } from '../../shared/format/shellQuote';
import type { SvcError } from '../../shared/errors';
import { REAP_ERRORS, REAP_REFUSALS } from '../../shared/refusals/reap';
import type { ReapError, ReapRefusal } from '../../shared/refusals/reap';
import { mebibytes } from '../../shared/format/bytes';
import type { ParkSize } from '../../shared/protocol/lanes';

const { refused } = refusalsOf(REAP_REFUSALS);
const { usage, internal } = refusalsOf(REAP_ERRORS);

export interface ProcessInside {
  pid: number;
  command: string;
  /** A file inside the folder the process holds open or mapped, when its working directory is elsewhere. */
  holds?: string;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Step 1: the stop door was used and the harness did not end in time. `survivors` are
 *  the processes left in its group: the agent may have ended (`svc conv show` reads
 *  `alive: false`) while a child it started still runs, so they are named. */
export function harnessAliveError(
  conv: string,
  waitedS: number,
  survivors: ProcessInside[] = [],
): SvcError<ReapRefusal> {
  if (survivors.length === 0) {
    return refused(
      'harnessAlive',
      `conv ${conv} is still alive ${waitedS} s after the stop request; reap never kills a process: end it with svc conv stop --kill ${conv}, then reap again`,
    );
  }
  const n = survivors.length;
  return refused(
    'harnessAlive',
    `${plural(n, 'process', 'processes')} of the harness of conv ${conv} still ${n === 1 ? 'runs' : 'run'} ${waitedS} s after the stop request; reap never kills a process: end ${n === 1 ? 'it' : 'them'} with svc conv stop --kill ${conv}, then reap again\n${survivors.map((p) => `  ${p.pid} ${p.command}`).join('\n')}`,
  );
}

/** Step 2: `real` is the directory with symlinks resolved, `root` the real lanes root. */
export function outsideLanesRootError(dir: string, real: string, root: string): SvcError<ReapRefusal> {
  const via = real === dir ? '' : ` (it resolves to ${real})`;
  return refused(
    'outsideLanesRoot',
    `${dir}${via} is outside the lanes root ${root}; reap only removes lane directories`,
  );
}

/** Step 3: one line per process, PID then command line (then the file it holds, when not its working directory). */
export function processesInsideError(dir: string, procs: ProcessInside[]): SvcError<ReapRefusal> {
  const lines = procs.map(
    (p) => `  ${p.pid} ${p.command}${p.holds === undefined ? '' : ` (holds ${printablePath(p.holds)} open)`}`,
  );
  const them = procs.length === 1 ? 'it' : 'them';
  const what = procs.every((p) => p.holds === undefined)
    ? `${plural(procs.length, 'process has its', 'processes have their')} working directory inside ${dir}`
    : `${plural(procs.length, 'process works', 'processes work')} inside ${dir} (a working directory there, or a file there held open or mapped)`;
  return refused(
    'processesInside',
    `${what}; reap never kills a process: end ${them} or move ${them} out, then reap again\n${lines.join('\n')}`,
  );
}

const SHOWN_PATHS = 10;

/** A path as one readable line: control characters (a newline in a name) are escaped. */
export function printablePath(p: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what it escapes
  return p.replace(/[\x00-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/**
 * Step 4 without --park; `paths` are the changed or untracked paths, as git names them,
 * then `hidden`: work git status does not show (hiddenWork.ts), each with why.
 */
export function dirtyError(dir: string, paths: string[], hidden: string[] = []): SvcError<ReapRefusal> {
  const all = [...paths, ...hidden];
  const shown = all.slice(0, SHOWN_PATHS).map((p) => `  ${printablePath(p)}`);
  if (all.length > SHOWN_PATHS) shown.push(`  … and ${all.length - SHOWN_PATHS} more`);
  const how = hidden.length
    ? `\ngit status does not show ${hidden.length} of them: to commit them, clear the bit (git update-index --no-assume-unchanged <path>, or --no-skip-worktree) and add ignored files with git add --force`
    : '';
  return refused(
    'dirty',
    `${dir} has uncommitted work (${plural(all.length, 'path', 'paths')}); commit it, or reap with --park to save it to a patch\n${shown.join('\n')}${how}`,
  );
}

const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;

/** Step 4 with --park, before the stop: the disk has no room for the patch (parkSpace.ts). */
export function noRoomToParkError(dir: string, folder: string, free: number, need: number): SvcError<ReapRefusal> {
  return refused(
    'noRoomToPark',
    `cannot park ${dir}: the disk of ${folder} has ${mib(free)} free and parking needs about ${mib(need)}; the agent was not stopped and nothing changed: free space there, then reap again`,
  );
}

/** Step 4 with --park: the written patch did not reproduce the work. */
export function parkVerifyFailedError(dir: string, detail: string): SvcError<ReapRefusal> {
  return refused(
    'parkVerifyFailed',
    `the parked patch does not reproduce the work in ${dir} (${detail}); nothing was cleaned and no patch was kept`,
  );
}

/** Step 4 with --park: the tree or HEAD moved between saving and cleaning. */
export function parkChangedError(dir: string): SvcError<ReapRefusal> {
  return refused(
    'parkChanged',
    `the work in ${dir} changed while it was being parked; nothing was cleaned and no patch was kept: reap again`,
  );
}

/** Step 4 with --park: the verified patch is published but cleaning stopped part way (not a refusal). */
export function parkCleanFailedError(dir: string, patchFile: string, why: string): SvcError<ReapError> {
  return internal(
    'parkCleanFailed',
    `the work in ${dir} is parked in ${patchFile}, but cleaning the tree failed: ${why}; every change is in that patch`,
  );
}

/** Steps 3 and 4: files or folders in the tree that svc cannot read, so cannot save or check. */
export function unreadableWorkError(dir: string, paths: string[]): SvcError<ReapRefusal> {
  return refused(
    'unreadableWork',
    `${dir} holds work svc cannot read: ${paths.map(printablePath).join(', ')} (Permission denied); svc cannot save or check what it cannot read: make it readable (chmod -R u+rX) or commit it, then reap again; nothing was cleaned or removed`,
  );
}

/** Step 4 with --park: work a patch cannot carry (a nested repository or submodule change). */
/** Step 4: the work is over config.yaml's reap.park_max_mb (parkSize.ts); nothing was stopped or changed. */
export function parkTooLargeError(dir: string, size: ParkSize, maxMb: number): SvcError<ReapRefusal> {
  const largest = size.largest.map((f) => `  ${mebibytes(f.bytes)} ${printablePath(f.path)}`).join('\n');
  return refused(
    'parkTooLarge',
    `${dir} holds ${mebibytes(size.bytes)} of uncommitted files, over reap.park_max_mb (${maxMb} MiB): a park would copy them into SVC_HOME; commit, move or delete the large files, or raise the limit (svc config set reap.park_max_mb <MiB>), then reap again; nothing was changed\nlargest:\n${largest}`,
  );
}

export function parkUnsupportedError(dir: string, paths: string[]): SvcError<ReapRefusal> {
  return refused(
    'parkUnsupported',
    `${dir} holds a nested git repository or submodule change at ${paths.map(printablePath).join(', ')}; a patch cannot save it: commit or move it, then reap again`,
  );
}

/** Step 4: a `.git` inside the worktree that is not its own (nestedGit.ts); no patch can carry it. */
export function nestedGitError(dir: string, entries: string[]): SvcError<ReapRefusal> {
  const shown = entries.map((e) => `  ${printablePath(e)}`).join('\n');
  return refused(
    'nestedGit',
    `${dir} holds ${plural(entries.length, 'git repository', 'git repositories')} of its own (a .git that is not the worktree's); reap would delete ${entries.length === 1 ? 'it' : 'them'} and no patch can save ${entries.length === 1 ? 'it' : 'them'}: commit and push ${entries.length === 1 ? 'its' : 'their'} work, then move ${entries.length === 1 ? 'it' : 'them'} out of the worktree (or delete ${entries.length === 1 ? 'it' : 'them'} yourself), and reap again; nothing was changed\n${shown}`,
  );
}

/**
 * Step 4: the worktree's git dir holds submodule repositories (`modules/<name>`, left by a
 * `git submodule add`, also a failed one). git will not remove such a worktree, and
 * removing its git dir would delete them.
 */
export function submoduleGitDirError(dir: string, gitDir: string, repos: string[]): SvcError<ReapRefusal> {
  const one = repos.length === 1;
  const shown = repos.map((e) => `  ${printablePath(e)}`).join('\n');
  return refused(
    'nestedGit',
    `${dir} has ${plural(repos.length, 'submodule repository', 'submodule repositories')} in its git dir (${printablePath(path.join(gitDir, 'modules'))}), as git submodule add leaves ${one ? 'one' : 'them'} even when it fails; git will not remove a worktree that holds ${one ? 'one' : 'them'}, and reap would delete ${one ? 'it' : 'them'}: push any work ${one ? 'it holds' : 'they hold'}, then delete ${one ? 'it' : 'them'} (rm -rf ${shellQuote(path.join(gitDir, 'modules'))}) or move ${one ? 'it' : 'them'} out, and reap again; nothing was changed\n${shown}`,
  );
}

/** Step 4: a merge, rebase, cherry-pick… is half done; a patch cannot carry its state. */
export function operationInProgressError(
  dir: string,
  ops: { what: string; finish: string; marker: string }[],
): SvcError<ReapRefusal> {
  const lines = ops.map((o) => `  ${o.what} (${o.marker}): ${o.finish}`).join('\n');
  return refused(
    'operationInProgress',
    `${dir} is in the middle of ${ops.map((o) => o.what).join(' and ')}; a parked patch would keep the files but not the operation (its other parent, its conflicts): finish or abort it, then reap again; nothing was changed\n${lines}`,
  );
}

/** Step 4: paths git refuses to store (a `.GIT` or `git~1` name), so no check or patch can cover them. */
export function unstorablePathsError(dir: string, paths: string[]): SvcError<ReapRefusal> {
  const shown = paths.slice(0, SHOWN_PATHS).map((p) => `  ${printablePath(p)}`);
  if (paths.length > SHOWN_PATHS) shown.push(`  … and ${paths.length - SHOWN_PATHS} more`);
  return refused(
    'unstorablePaths',
    `${dir} holds ${plural(paths.length, 'path', 'paths')} git refuses to store (a name git reserves for its own folder on some file systems, such as .GIT or git~1), so reap can neither check nor park ${paths.length === 1 ? 'it' : 'them'}: rename ${paths.length === 1 ? 'it' : 'them'} or move ${paths.length === 1 ? 'it' : 'them'} out of the worktree, then reap again; nothing was changed\n${shown.join('\n')}`,
  );
}

/** Step 6 for a play lane. */
export function playHasGitError(dir: string, gitPath: string): SvcError<ReapRefusal> {
  return refused(
    'playHasGit',
    `play directory ${dir} holds a git repository (${gitPath}); reap removes a play directory only when it holds no .git`,
  );
}

/** Step 6 for a play lane: a folder inside could not be searched for a .git. */
export function playUnreadableError(dir: string, folder: string): SvcError<ReapRefusal> {
  return refused(
    'playUnreadable',
    `play directory ${dir} holds a folder reap cannot read (${folder}); it removes a play directory only when it holds no .git`,
  );
}

export function notAWorktreeError(dir: string, why: string): SvcError<ReapRefusal> {
  return refused('notAWorktree', `${dir} is not a linked git worktree (${why}); reap removes only lane worktrees`);
}

/** Step 6: git itself refused `worktree remove` (never forced); `parked` when step 4 already saved the work. */
export function worktreeRemoveFailedError(
  dir: string,
  gitMessage: string,
  parked?: { patchFile: string; restoreCommand: string },
): SvcError<ReapRefusal> {
  const saved = parked
    ? `; the uncommitted work was parked in ${parked.patchFile} (restore with: ${parked.restoreCommand})`
    : '';
  return refused(
    'worktreeRemoveFailed',
    `git refused to remove the worktree ${dir}: ${gitMessage}; reap never forces it${saved}`,
  );
}

/** The caller asked for a patch path inside the tree that is about to be cleaned. */
export function patchInsideWorktreeError(patchFile: string, dir: string): SvcError<ReapError> {
  return usage('patchInsideWorktree', `the parked patch ${patchFile} would be inside the worktree ${dir} it cleans`);
}

/** Never overwrite an earlier parked patch. */
export function patchExistsError(patchFile: string): SvcError<ReapError> {
  return usage('patchExists', `${patchFile} already exists; parked patches are never overwritten`);
}

/** Before a lane repository of its own goes (lanes.git: own), its refs could not be copied into the project's repository. */
export function laneMirrorFailedError(dir: string, laneRepo: string, why: string): SvcError<ReapRefusal> {
  return refused(
    'laneMirrorFailed',
    `could not copy the refs of ${dir}'s own repository ${laneRepo} into the project's repository: ${why}; reap removes nothing whose commits the project lacks`,
  );
}
