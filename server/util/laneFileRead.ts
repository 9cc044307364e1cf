// Reading a file a lane wrote, or a path an agent named, with the daemon's (the person's)
// rights but never more than the lane has: the daemon would otherwise be its deputy. A
// path is judged on where it really is (links followed by the kernel's rules, dangling
// ones inside nothing), must be inside the folders the lane may write, and is opened
// without following a link planted after the check (O_NOFOLLOW) nor waiting on a FIFO
// or device (O_NONBLOCK); only a regular file up to a size is read. Whether something
// exists outside those folders is never told: every path there gets one answer.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isInside, realPathLoose } from './realPath';

/** Why a lane file was not read: `outside` (not in the lane's folders, whether or not it exists), or what it is. */
export type LaneFileProblem =
  | { kind: 'outside' }
  | { kind: 'notRegular' }
  | { kind: 'tooLarge'; max: number }
  | { kind: 'unreadable'; code: string };

export class LaneFileError extends Error {
  constructor(readonly problem: LaneFileProblem) {
    super(problemText(problem));
  }
}

/** What a refusal says after the file's name. */
export function problemText(p: LaneFileProblem): string {
  switch (p.kind) {
    case 'outside':
      return 'is not inside the lane’s own folders';
    case 'notRegular':
      return 'is not a regular file (a link, folder, FIFO or device is never read)';
    case 'tooLarge':
      return `is larger than ${p.max} bytes`;
    case 'unreadable':
      return `cannot be read: ${p.code}`;
  }
}

const OPEN_FLAGS = fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK;

/**
 * The text of `file`, which must be inside one of `roots` (folders the lane may write),
 * a regular file of at most `maxBytes`. Throws LaneFileError.
 */
export function readLaneFile(file: string, roots: readonly string[], maxBytes: number): string {
  const real = insideRoots(file, roots);
  let fd: number;
  try {
    fd = fs.openSync(real, OPEN_FLAGS);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'unknown';
    // ELOOP: the last part became a link after the check; it is read as nothing is.
    throw new LaneFileError(code === 'ELOOP' ? { kind: 'notRegular' } : { kind: 'unreadable', code });
  }
  try {
    // A folder on the way swapped for a link after the check: where the open landed decides.
    const opened = openedPath(fd);
    if (opened !== undefined && !inAny(opened, realRoots(roots))) throw new LaneFileError({ kind: 'outside' });
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw new LaneFileError({ kind: 'notRegular' });
    if (st.size > maxBytes) throw new LaneFileError({ kind: 'tooLarge', max: maxBytes });
    // A regular file's read never waits on a writer; the size bounds how long it takes.
    const buf = Buffer.alloc(maxBytes + 1);
    let n = 0;
    for (let got = -1; got !== 0 && n <= maxBytes; n += got) got = fs.readSync(fd, buf, n, buf.length - n, null);
    if (n > maxBytes) throw new LaneFileError({ kind: 'tooLarge', max: maxBytes });
    return buf.subarray(0, n).toString('utf8');
  } finally {
    fs.closeSync(fd);
  }
}

/** The real path of `file` when it is inside one of `roots`; throws `outside` otherwise (the same for a file that is not there). */
export function insideRoots(file: string, roots: readonly string[]): string {
  const real = path.isAbsolute(file) ? realPathLoose(file) : null;
  if (real === null || !inAny(real, realRoots(roots))) throw new LaneFileError({ kind: 'outside' });
  return real;
}

function realRoots(roots: readonly string[]): string[] {
  return roots.map((r) => realPathLoose(r)).filter((r): r is string => r !== null);
}

const inAny = (p: string, roots: string[]) => roots.some((r) => isInside(p, r));

/** Where an open descriptor really is (Linux); undefined where the platform cannot say. */
function openedPath(fd: number): string | undefined {
  try {
    return fs.readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}

/**
 * A lane's own folders: its directory and its worktree's git dir (where a sandboxed lane
 * keeps what must stay out of its tree, such as a verdict file). The git dir comes from the
 * directory's `.git` file, which the lane cannot rewrite in the sandbox; a `.git` that is
 * a folder is inside the directory already.
 */
export function laneFolders(dir: string): string[] {
  const out = [dir];
  try {
    const fd = fs.openSync(path.join(dir, '.git'), OPEN_FLAGS);
    try {
      const st = fs.fstatSync(fd);
      if (st.isFile() && st.size < 4096) {
        const m = /^gitdir:\s*(.+?)\s*$/m.exec(fs.readFileSync(fd, 'utf8'));
        if (m) out.push(path.resolve(dir, m[1]));
      }
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // no .git file: a play lane, or a directory already reaped
  }
  return out;
}
