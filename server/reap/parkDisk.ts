// Equal on disk, not only in git's eyes. A patch carries what git stores: content after
// clean filters (a CRLF file under `* text=auto` is stored with LF) and one mode bit (a
// 0600 or 0000 file comes back 0644). Park therefore rehearses the restore
// (parkRehearsal.ts) and compares every path with the disk: type, symlink target, bytes and
// permission bits, and the permission bits of every folder that holds work (a 0700 folder
// would come back 0755). What differs is carried beside the patch in a tar file (exact bytes
// and modes), which the restore command extracts after applying the patch; the rehearsal
// extracts it too and must then match. This file holds the comparison and the tar file.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawn } from 'node:child_process';

/** The tar file beside a patch: `parked-<stamp>.patch` → `parked-<stamp>.files.tar`. */
export function sidecarPathOf(patchFile: string): string {
  return `${patchFile.replace(/\.patch$/, '')}.files.tar`;
}

/** Every folder above a path of `paths` (each once, parents first): the folders that hold work. */
export function foldersOf(paths: Buffer[]): Buffer[] {
  const seen = new Set<string>();
  const out: Buffer[] = [];
  for (const rel of paths) {
    for (let at = rel.indexOf(0x2f); at !== -1; at = rel.indexOf(0x2f, at + 1)) {
      const folder = rel.subarray(0, at);
      const key = folder.toString('latin1');
      if (!seen.has(key)) {
        seen.add(key);
        out.push(folder);
      }
    }
  }
  return out;
}

/** Why `rel` in `trialDir` is not what is on disk in `top`; null when equal (or absent on disk). */
export function differs(top: string, trialDir: string, rel: Buffer): string | null {
  const disk = Buffer.concat([Buffer.from(top + path.sep), rel]);
  const trial = Buffer.concat([Buffer.from(trialDir + path.sep), rel]);
  const d = fs.lstatSync(disk, { throwIfNoEntry: false });
  const t = fs.lstatSync(trial, { throwIfNoEntry: false });
  if (d?.isDirectory())
    return t?.isDirectory() && (d.mode & 0o7777) !== (t.mode & 0o7777) ? 'folder permission bits' : null;
  if (!d) return null; // deleted (the patch says so) or a sparse checkout's absent file
  if (!t) return 'missing';
  if (d.isSymbolicLink() !== t.isSymbolicLink() || d.isFile() !== t.isFile()) return 'type';
  if (d.isSymbolicLink())
    return fs.readlinkSync(disk, { encoding: 'buffer' }).equals(fs.readlinkSync(trial, { encoding: 'buffer' }))
      ? null
      : 'link target';
  if ((d.mode & 0o7777) !== (t.mode & 0o7777)) return 'permission bits';
  if (d.size !== t.size || !fs.readFileSync(disk).equals(fs.readFileSync(trial))) return 'bytes';
  return null;
}

/**
 * Writes `paths` of `top` (files and symlinks with exact bytes and modes, folders with their
 * modes only) into the tar file `file`. tar sets a folder's mode after extracting what is in it.
 */
export function writeSidecar(top: string, paths: Buffer[], file: string): Promise<void> {
  // `./` first: tar reads a listed name beginning with `-` as an option.
  const input = Buffer.concat(paths.flatMap((p) => [Buffer.from('./'), p, Buffer.from([0])]));
  return tar(['--create', '--file', file, '--directory', top, '--no-recursion', '--null', '--files-from', '-'], input);
}

/** Extracts a sidecar as the restore command does (`tar -xpf <file> -C <dir>`). */
export function extractSidecar(file: string, dir: string): Promise<void> {
  return tar(['-xpf', file, '-C', dir]);
}

function tar(args: string[], input?: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('tar', args, { stdio: [input ? 'pipe' : 'ignore', 'ignore', 'pipe'] });
    const err: Buffer[] = [];
    child.stderr?.on('data', (d: Buffer) => err.push(d));
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(input);
    child.on('error', (e) => reject(new Error(`tar could not start: ${e.message}`)));
    child.on('close', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`tar ${args[0]} failed (exit ${code}): ${Buffer.concat(err).toString('utf8').trim()}`)),
    );
  });
}
