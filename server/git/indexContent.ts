// What a git index says about content, without its stat data. Every `git status` run by a
// view, an agent or a person refreshes the index's cached stat data (and takes and drops
// index.lock even when nothing changed), which says nothing about whether a worktree is
// dirty. The entries' mode, object id, flags and path do: this reads them straight from the
// file (index versions 2–4, https://git-scm.com/docs/index-format) and digests them, so
// WorktreeFacts can tell a refresh from a real change without running git.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';

/**
 * The index file's identity on disk: when it is unchanged, so is its content. Undefined
 * for anything but a regular file (a FIFO would block whoever reads it).
 */
export function indexStamp(file: string): string | undefined {
  try {
    const st = fs.statSync(file, { bigint: true });
    if (!st.isFile()) return undefined;
    return stampOfIndex(st);
  } catch {
    return undefined;
  }
}

/** indexStamp of stat data already taken. */
export function stampOfIndex(st: fs.BigIntStats): string {
  return `${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
}

/**
 * A digest of the index's entries (mode, object id, flags, path — no stat data), or
 * undefined when it cannot be known: no index, an unknown version, a split index (the
 * shared part lives elsewhere), or anything unexpected. `hashBytes` is 20 (SHA-1) or 32
 * (SHA-256), the length of the repository's object ids.
 */
export async function indexDigest(file: string, hashBytes: number): Promise<string | undefined> {
  let buf: Buffer;
  try {
    buf = await fs.promises.readFile(file);
  } catch {
    return undefined;
  }
  try {
    return digestOf(buf, hashBytes);
  } catch {
    return undefined; // truncated or malformed: whoever reads it next recounts
  }
}

export function digestOf(buf: Buffer, hashBytes: number): string | undefined {
  if (buf.length < 12 + hashBytes || buf.toString('latin1', 0, 4) !== 'DIRC') return undefined;
  const version = buf.readUInt32BE(4);
  if (version < 2 || version > 4) return undefined;
  const count = buf.readUInt32BE(8);
  const h = createHash('sha1').update(buf.subarray(4, 12));
  const statBytes = 40; // ctime, mtime, dev, ino, mode, uid, gid, size: 10 × 4 bytes
  let at = 12;
  for (let i = 0; i < count; i++) {
    const start = at;
    const flagsAt = start + statBytes + hashBytes;
    const flags = buf.readUInt16BE(flagsAt);
    let pathAt = flagsAt + 2;
    if (version >= 3 && flags & 0x4000) pathAt += 2; // extended flags
    if (version === 4) while (buf[pathAt++] & 0x80); // the varint of bytes to strip from the previous path
    const nul = buf.indexOf(0, pathAt);
    if (nul < 0) return undefined;
    // Mode, then object id, flags and path: everything but the stat data.
    h.update(buf.subarray(start + 24, start + 28)).update(buf.subarray(start + statBytes, nul));
    at = version === 4 ? nul + 1 : start + ((pathAt - start + (nul - pathAt) + 8) & ~7);
    if (at > buf.length - hashBytes) return undefined;
  }
  // Extensions: a split index keeps its entries in a shared file, so its digest would be partial.
  while (at + 8 <= buf.length - hashBytes) {
    const sig = buf.toString('latin1', at, at + 4);
    if (sig === 'link') return undefined;
    at += 8 + buf.readUInt32BE(at + 4);
  }
  return h.digest('hex');
}
