// Re-checking a worktree found clean before, without running git: what a daemon restart
// needs so its first `svc lane list` does not recount every lane with `git status`.
//
// A clean worktree is one whose index matches HEAD, whose tracked files match the index,
// and which has no untracked file git would show. When it was counted clean we keep, next
// to the answer, what that depended on: HEAD, the index's content (indexContent.ts), the
// modification times of every directory in the worktree (a file created, removed or renamed
// anywhere changes its directory's), and the repository's config and exclude files. On the
// re-check the tracked files are compared with the stat data the index holds for them, as
// git does itself: a file whose size, inode, mtime or ctime differs, or which changed in the
// same instant the index was written ("racily clean"), makes the answer unknown and the
// lane is recounted. Anything this cannot read with certainty (a sparse or split index,
// index version 4, submodules, assume-unchanged entries, too many directories) recounts too:
// the re-check may only ever say "still clean" when git would say the same.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { digestOf, stampOfIndex } from './indexContent';
import { withoutBranchSections } from './branchSections';

/** Directories walked at most; a larger tree (a vendored dependency folder) is recounted after a restart. */
export const MAX_KEPT_DIRS = 4096;

/** What a clean answer depended on, as kept in the store. */
export interface KeptClean {
  head: string;
  indexDigest: string;
  /** Worktree-relative directories ('' is the worktree itself). */
  dirs: string[];
  dirsSig: string;
  configSig: string;
}

/** The directories of a worktree (not `.git`), or undefined when there are more than MAX_KEPT_DIRS. */
export function worktreeDirs(dir: string): string[] | undefined {
  const out: string[] = [''];
  for (let i = 0; i < out.length; i++) {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(dir, out[i]), { withFileTypes: true });
    } catch {
      return undefined;
    }
    for (const e of entries) {
      if (!e.isDirectory() || (out[i] === '' && e.name === '.git')) continue;
      out.push(out[i] === '' ? e.name : `${out[i]}/${e.name}`);
      if (out.length > MAX_KEPT_DIRS) return undefined;
    }
  }
  return out;
}

/** A digest of the directories' change times: any entry added, removed or renamed changes it. */
export function dirsSignature(dir: string, dirs: string[]): string | undefined {
  const h = createHash('sha1');
  for (const d of dirs) {
    const st = fs.lstatSync(path.join(dir, d), { bigint: true, throwIfNoEntry: false });
    if (!st?.isDirectory()) return undefined;
    h.update(`${d}\0${st.mtimeNs}\0${st.ctimeNs}\0${st.ino}\n`);
  }
  return h.digest('hex');
}

/**
 * The repository's config and exclude files as they are on disk: a change may change what
 * status shows. `seen` holds files already stamped in this pass (a list re-checks many
 * worktrees of one repository, which share its config and exclude files).
 * The shared config is taken by its content without its `[branch "…"]` sections: every lane
 * start writes its branch's upstream there, which changes nothing `git status --porcelain`
 * shows, and a signature of the file's stat data made every lane counted before that start
 * recount after the next restart.
 */
export function configSignature(gitDir: string, seen?: Map<string, string>): string {
  const common = commonDir(gitDir);
  const h = createHash('sha1');
  for (const [f, content] of [
    [path.join(common, 'config'), true],
    [path.join(common, 'info', 'exclude'), false],
    [path.join(gitDir, 'config.worktree'), false],
  ] as const) {
    let line = seen?.get(f);
    if (line === undefined) {
      const st = fs.statSync(f, { bigint: true, throwIfNoEntry: false });
      const stamp = st ? `${f}\0${st.size}\0${st.mtimeNs}\0${st.ctimeNs}\n` : `${f}\0-\n`;
      line = (st && content && contentLine(f, stamp)) || stamp;
      seen?.set(f, line);
    }
    h.update(line);
  }
  return h.digest('hex');
}

/** The last content line made per config file, by its stat data: the file is read again only when that changes. */
const contentLines = new Map<string, { stamp: string; line: string | undefined }>();

/** `file` by its content without branch sections, or undefined when it cannot be read or filtered with certainty. */
function contentLine(file: string, stamp: string): string | undefined {
  const known = contentLines.get(file);
  if (known?.stamp === stamp) return known.line;
  let text: string | undefined;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    text = undefined;
  }
  const kept = text === undefined ? undefined : withoutBranchSections(text);
  // The stat data taken before the read: a write during it changes the stamp, so the next pass reads again.
  const line = kept === undefined ? undefined : `${file}\0content\0${createHash('sha1').update(kept).digest('hex')}\n`;
  contentLines.set(file, { stamp, line });
  return line;
}

function commonDir(gitDir: string): string {
  try {
    return path.resolve(gitDir, fs.readFileSync(path.join(gitDir, 'commondir'), 'utf8').trim());
  } catch {
    return gitDir;
  }
}

const NS = 1_000_000_000n;
const U32 = 0xffffffffn;

/** An index file read once: its bytes, and its stat data taken before the read. */
export interface IndexRead {
  buf: Buffer;
  st: fs.BigIntStats;
}

/** The index file, or undefined for anything but a regular file that can be read. */
export function readIndex(indexFile: string): IndexRead | undefined {
  try {
    const st = fs.statSync(indexFile, { bigint: true });
    return st.isFile() ? { st, buf: fs.readFileSync(indexFile) } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether every tracked file still matches the stat data its index entry holds (and none is
 * racily clean). False whenever that cannot be known for certain.
 */
export function trackedFilesMatchIndex(dir: string, index: IndexRead, hashBytes: number): boolean {
  const { buf, st: indexSt } = index;
  if (buf.length < 12 + hashBytes || buf.toString('latin1', 0, 4) !== 'DIRC') return false;
  const version = buf.readUInt32BE(4);
  if (version !== 2 && version !== 3) return false;
  const count = buf.readUInt32BE(8);
  const indexNs = indexSt.mtimeNs;
  const base = dir.endsWith(path.sep) ? dir : dir + path.sep;
  let at = 12;
  // Each time is compared whole (seconds × 10⁹ + nanoseconds): a file stamped past 2106, whose
  // seconds the index holds modulo 2³², compares unequal and is recounted. No division per
  // file: on a 30,000-file lane the arithmetic had cost three times the lstat calls.
  for (let i = 0; i < count; i++) {
    if (at + 42 + hashBytes > buf.length) return false;
    const flagsAt = at + 40 + hashBytes;
    const flags = buf.readUInt16BE(flagsAt);
    // assume-valid, extended (skip-worktree, intent-to-add) or a merge stage: not a plain entry.
    if (flags & 0xf000) return false;
    const mode = buf.readUInt32BE(at + 24);
    const type = mode >>> 12;
    if (type !== 0o10 && type !== 0o12) return false; // a regular file or a symlink; a gitlink is a submodule
    const nameAt = flagsAt + 2;
    const nul = buf.indexOf(0, nameAt);
    if (nul < 0) return false;
    const st = fs.lstatSync(base + buf.toString('utf8', nameAt, nul), { bigint: true, throwIfNoEntry: false });
    if (!st) return false;
    const mtimeNs = BigInt(buf.readUInt32BE(at + 8)) * NS + BigInt(buf.readUInt32BE(at + 12));
    if (st.mtimeNs !== mtimeNs) return false;
    if (st.ctimeNs !== BigInt(buf.readUInt32BE(at)) * NS + BigInt(buf.readUInt32BE(at + 4))) return false;
    if ((st.ino & U32) !== BigInt(buf.readUInt32BE(at + 20))) return false;
    if ((st.size & U32) !== BigInt(buf.readUInt32BE(at + 36))) return false;
    if (st.mode >> 12n !== BigInt(type)) return false;
    // Written in the same instant as the index (or after it): git itself cannot trust its stat data.
    if (mtimeNs >= indexNs) return false;
    at = at + ((40 + hashBytes + 2 + (nul - nameAt) + 8) & ~7);
  }
  return true;
}

/** A kept answer found still true: clean at `head`, with the index as it was re-checked. */
export interface Rechecked {
  head: string;
  stamp: string;
  digest: string;
}

/**
 * Whether the answer kept before a restart still holds (worktreeRecheck.ts), without git.
 * Synchronous, the index read once for its digest and its stat data: it runs on a facts
 * worker thread (factsWorkers.ts), never on the daemon's, and a read through the thread
 * pool per file cost more than the check itself. `seen`: the repository's files stamped
 * already in this pass.
 */
export function recheckKept(
  dir: string,
  gitDir: string,
  kept: KeptClean,
  seen: Map<string, string>,
): Rechecked | undefined {
  const bytes = hashBytesOf(kept.head);
  if (bytes === undefined) return undefined;
  if (configSignature(gitDir, seen) !== kept.configSig || dirsSignature(dir, kept.dirs) !== kept.dirsSig)
    return undefined;
  const index = readIndex(path.join(gitDir, 'index'));
  if (!index) return undefined;
  let digest: string | undefined;
  try {
    digest = digestOf(index.buf, bytes);
  } catch {
    return undefined; // truncated or malformed: recounted
  }
  if (digest !== kept.indexDigest || !trackedFilesMatchIndex(dir, index, bytes)) return undefined;
  return { head: kept.head, stamp: stampOfIndex(index.st), digest };
}

/** Object ids are SHA-1 (40 hex digits) or SHA-256 (64); an unborn HEAD says neither. */
export function hashBytesOf(head: string | null): number | undefined {
  return head?.length === 40 ? 20 : head?.length === 64 ? 32 : undefined;
}
