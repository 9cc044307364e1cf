// `reap --park`: save every uncommitted change of a worktree to ONE binary patch, prove
// the patch reproduces it, and only then clean the tree. Order, and why:
//   1. capture the work into a temporary index (the real index is not touched);
//   2. write the patch to a temporary file beside its final name;
//   3. verify that file against the captured tree (the verifier is a parameter), and
//      rehearse the restore against the disk: what a patch cannot carry (exact bytes
//      under eol filters, permission bits) goes beside it in a tar file (parkDisk.ts);
//   4. capture again: HEAD and the tree must not have moved meanwhile;
//   5. publish the patch under its final name (hard link: never overwrites), fsync;
//   6. clean only what was saved.
// Any failure before 6 leaves the worktree, its index and the patch folder as they were.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { errorMessage } from '../../shared/errors';
import type { GitEnv } from '../git/gitExec';
import { GITLINK_MODE, captureWork, writePatch } from './parkCapture';
import { cleanSavedWork } from './parkClean';
import { verifyPatch } from './parkVerify';
import type { PatchVerifier } from './parkVerify';
import { differs, extractSidecar, sidecarPathOf, writeSidecar } from './parkDisk';
import { rehearseRestore } from './parkRehearsal';
import {
  notAWorktreeError,
  parkChangedError,
  printablePath,
  parkCleanFailedError,
  parkUnsupportedError,
  parkVerifyFailedError,
  patchExistsError,
  patchInsideWorktreeError,
} from './reapErrors';
import { refuseUnparkable } from './reapChecks';
import { restoreAfterRemove, restoreInPlace } from './restoreCommand';
import { headOf, worktreeInfo } from './worktreeInfo';
import type { WorktreeInfo } from './worktreeInfo';
import type { KeptCapture } from './hiddenWork';

export interface ParkOptions extends GitEnv {
  /** Checks the written patch; default `verifyPatch`. Inject a failing one to test the abort. */
  verify?: PatchVerifier;
  /**
   * Where the restore re-makes the worktree once it is gone, when not the repository it is a
   * worktree of: a lane repository of its own goes with its reap (lanes.git: own), so the
   * project's checkout, which holds the lane's branch and commits by then.
   */
  repoDir?: string;
  /**
   * What the reap's check read just before, with the agent stopped (reapChecks.ts): the
   * worktree, already refused if unparkable, and its work as captured there. Step 1 then
   * starts from that capture; step 4 still captures again, so a tree that moved since
   * the check is refused as one that moved during the park.
   */
  checked?: { info: WorktreeInfo; capture: KeptCapture | null };
}

export interface ParkResult {
  patchFile: string;
  /** Paths the patch changes (added, modified, deleted; a rename counts twice). */
  files: number;
  /** The commit the patch applies to. */
  head: string;
  branch: string | null;
  /** Restores into the worktree where it is now (clean, at `head`). */
  restoreCommand: string;
  /** Re-creates the removed worktree (on its branch, or detached at `head`) and restores. */
  restoreAfterRemoveCommand: string;
}

/** Parks the work of `worktreeDir` in `patchFile`; null when there was nothing to park. */
export async function parkWorktree(
  worktreeDir: string,
  patchFile: string,
  opts: ParkOptions = {},
): Promise<ParkResult | null> {
  const info = opts.checked?.info ?? (await worktreeInfo(worktreeDir, opts));
  const head = info.head;
  if (head === null) throw notAWorktreeError(worktreeDir, 'HEAD has no commit');
  // What a patch cannot carry, refused before anything is written: another repository in
  // the tree (its .git would be left out), an operation half done (its state would be reset away).
  if (!opts.checked) await refuseUnparkable(info.top, info.gitDir, opts);
  const captured = opts.checked?.capture?.head === head ? opts.checked.capture : null;
  const target = path.resolve(patchFile);
  // The parked work is the user's alone (a lane's 0600 file is in it): folders 0700, files 0600.
  fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
  const realTarget = path.join(fs.realpathSync(path.dirname(target)), path.basename(target));
  if (isInside(realTarget, info.top)) throw patchInsideWorktreeError(target, info.top);
  if (fs.existsSync(target)) throw patchExistsError(target);

  const scratch = fs.mkdtempSync(path.join(info.gitDir, 'svc-park-'));
  const tmpPatch = `${target}.${process.pid}-${crypto.randomBytes(4).toString('hex')}.tmp`;
  let published = false;
  let tmpSidecar: string | null = null;
  let publishedSidecar: string | null = null;
  try {
    const workIndex = captured?.indexFile ?? path.join(scratch, 'work.index');
    const work = captured?.work ?? (await captureWork(info, head, workIndex, scratch, opts));
    if (work.changes.length === 0) return null;
    const gitlinks = work.changes.filter((c) => c.oldMode === GITLINK_MODE || c.newMode === GITLINK_MODE);
    if (gitlinks.length)
      throw parkUnsupportedError(
        info.top,
        gitlinks.map((c) => c.path.toString('utf8')),
      );

    // Equal on disk: what the patch cannot carry (exact bytes, permission bits) goes beside it.
    const trial = path.join(scratch, 'trial');
    const rehearsal = await rehearseRestore(info.top, work.tree, trial, opts);
    const exact = rehearsal.differing.length ? { file: sidecarPathOf(target), paths: rehearsal.differing } : null;
    if (exact) {
      if (fs.existsSync(exact.file)) throw patchExistsError(exact.file);
      tmpSidecar = `${exact.file}.${process.pid}-${crypto.randomBytes(4).toString('hex')}.tmp`;
      await carryExactCopies(info.top, exact.paths, tmpSidecar, trial);
      fs.chmodSync(tmpSidecar, 0o600);
    }

    const restore = {
      restoreCommand: restoreInPlace(info.top, target, exact?.file ?? null),
      restoreAfterRemoveCommand: restoreAfterRemove({
        repoDir: opts.repoDir ?? info.repoDir,
        worktree: info.top,
        branch: info.branch,
        head,
        patchFile: target,
        sidecarFile: exact?.file ?? null,
      }),
    };
    const header = preamble(
      info,
      head,
      work.changes.length,
      restore,
      exact && { file: exact.file, count: exact.paths.length },
    );
    await writePatchFile(info, head, workIndex, tmpPatch, header, opts);

    const verify = opts.verify ?? verifyPatch;
    let outcome;
    try {
      outcome = await verify({
        top: info.top,
        head,
        expectedTree: work.tree,
        patchFile: tmpPatch,
        scratchDir: scratch,
        env: opts.env,
      });
    } catch (e) {
      outcome = { ok: false as const, detail: errorMessage(e) };
    }
    if (!outcome.ok) throw parkVerifyFailedError(info.top, outcome.detail);

    const now = await captureWork(info, head, path.join(scratch, 'again.index'), scratch, opts);
    if ((await headOf(info.top, opts)) !== head || now.tree !== work.tree) throw parkChangedError(info.top);

    if (exact && tmpSidecar) {
      publish(tmpSidecar, exact.file);
      publishedSidecar = exact.file;
    }
    publish(tmpPatch, target);
    published = true;
    await cleanSavedWork(info.top, work, opts);
    return { patchFile: target, files: work.changes.length, head, branch: info.branch, ...restore };
  } catch (e) {
    if (published) throw parkCleanFailedError(info.top, target, errorMessage(e));
    if (publishedSidecar) fs.rmSync(publishedSidecar, { force: true });
    throw e;
  } finally {
    fs.rmSync(tmpPatch, { force: true });
    if (tmpSidecar) fs.rmSync(tmpSidecar, { force: true });
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * Writes the exact copies to `tmpSidecar`, extracts them into the rehearsal as the restore
 * would, and refuses unless every path then matches the disk.
 */
async function carryExactCopies(top: string, paths: Buffer[], tmpSidecar: string, trial: string): Promise<void> {
  try {
    await writeSidecar(top, paths, tmpSidecar);
    await extractSidecar(tmpSidecar, trial);
  } catch (e) {
    throw parkVerifyFailedError(
      top,
      `the exact copies of ${paths.length} paths a patch cannot carry could not be saved: ${errorMessage(e)}`,
    );
  }
  for (const rel of paths) {
    const why = differs(top, trial, rel);
    if (why !== null)
      throw parkVerifyFailedError(
        top,
        `the restore would not give back ${printablePath(rel.toString('utf8'))} as it is on disk (${why})`,
      );
  }
}

/** A self-describing header; `git apply` skips everything before the first `diff --git`. */
function preamble(
  info: WorktreeInfo,
  head: string,
  files: number,
  restore: { restoreCommand: string; restoreAfterRemoveCommand: string },
  exact: { file: string; count: number } | null,
): string {
  const beside = exact
    ? [
        `files: ${JSON.stringify(exact.file)} (exact bytes and permission bits of ${exact.count} ${exact.count === 1 ? 'path' : 'paths'} a git patch cannot carry; the restore command extracts it after applying the patch)`,
      ]
    : [];
  return [
    'svc parked patch: uncommitted work saved by `svc lane reap --park`.',
    `worktree: ${JSON.stringify(info.top)}`,
    `branch: ${info.branch === null ? '(detached)' : JSON.stringify(info.branch)}`,
    `head: ${head}`,
    `paths: ${files}`,
    ...beside,
    `restore: ${JSON.stringify(restore.restoreAfterRemoveCommand)}`,
    `restore in place: ${JSON.stringify(restore.restoreCommand)}`,
    '',
    '',
  ].join('\n');
}

async function writePatchFile(
  info: WorktreeInfo,
  head: string,
  indexFile: string,
  file: string,
  header: string,
  opts: GitEnv,
): Promise<void> {
  const fd = fs.openSync(file, 'wx', 0o600);
  try {
    fs.writeSync(fd, header);
    await writePatch(info, head, indexFile, fd, opts);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Hard-links the verified file to its final name (fails rather than overwrite), then syncs the folder. */
function publish(tmp: string, target: string): void {
  try {
    fs.linkSync(tmp, target);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw patchExistsError(target);
    throw e;
  }
  const dirFd = fs.openSync(path.dirname(target), 'r');
  try {
    fs.fsyncSync(dirFd);
  } finally {
    fs.closeSync(dirFd);
  }
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
