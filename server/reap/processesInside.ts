// Every process working inside a folder (reap step 3): its working directory is there,
// or it holds a file there open or mapped (a writer started from elsewhere with its output
// redirected into the lane, a program run from the lane's build folder). Removing the
// folder under such a process sends its later output to a deleted file. Linux reads
// /proc/<pid>/cwd, root, fd/* and maps (the kernel gives real paths); elsewhere `lsof`.
// The calling process is excluded: the probe must not refuse itself. Processes of other
// users cannot be read without privileges and are not seen.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ProcessInside } from './reapErrors';
import { procCommand } from '../util/processGroup';

export type ProcessSource = 'proc' | 'lsof';

export interface ProcessesInsideOptions {
  /** Default: 'proc' on Linux, 'lsof' elsewhere. */
  source?: ProcessSource;
  /** PIDs to leave out besides the calling process. */
  exclude?: number[];
}

/** Where a process touches the folder: its working directory, or a file it holds (open or mapped). */
export type Touch = { cwd: string } | { holds: string };

export async function processesInside(dir: string, opts: ProcessesInsideOptions = {}): Promise<ProcessInside[]> {
  let root: string;
  try {
    root = fs.realpathSync(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return []; // a folder that is gone holds no one
    throw e;
  }
  const skip = new Set([process.pid, ...(opts.exclude ?? [])]);
  const source = opts.source ?? (process.platform === 'linux' ? 'proc' : 'lsof');
  const inside = (p: string) => within(p, root);
  const touching =
    source === 'proc'
      ? procTouching(inside, skip)
      : lsofTouching(parseLsofFiles(await exec('lsof', ['-w', '-n', '-P', '-Fpfn'])), inside, skip);
  const found: ProcessInside[] = [];
  for (const [pid, touch] of touching) {
    const command = source === 'proc' ? procCommand(pid) : await psCommand(pid);
    if (command === null) continue;
    found.push('cwd' in touch ? { pid, command } : { pid, command, holds: touch.holds });
  }
  return found.sort((a, b) => a.pid - b.pid);
}

function within(p: string, root: string): boolean {
  return p === root || p.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

/**
 * A path the kernel names for a deleted file or folder reads "<path> (deleted)": it is
 * inside nothing any more, and the suffix keeps it from matching (unless a file really has that name).
 */
function livePath(p: string): string | null {
  if (!p.startsWith('/')) return null; // sockets, pipes, anon_inode:…
  if (p.endsWith(' (deleted)') && !fs.existsSync(p)) return null;
  return p;
}

function procTouching(inside: (p: string) => boolean, skip: Set<number>): Map<number, Touch> {
  const out = new Map<number, Touch>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (skip.has(pid)) continue;
    const touch = procTouch(pid, inside);
    if (touch) out.set(pid, touch);
  }
  return out;
}

function readlink(p: string): string | null {
  try {
    return livePath(fs.readlinkSync(p));
  } catch {
    return null; // gone meanwhile, or another user's process
  }
}

/** How process `pid` touches the folder, or null. The working directory first, then root, open files, maps. */
function procTouch(pid: number, inside: (p: string) => boolean): Touch | null {
  const cwd = readlink(`/proc/${pid}/cwd`);
  if (cwd !== null && inside(cwd)) return { cwd };
  const root = readlink(`/proc/${pid}/root`);
  if (root !== null && root !== '/' && inside(root)) return { holds: root };
  let fds: string[] = [];
  try {
    fds = fs.readdirSync(`/proc/${pid}/fd`);
  } catch {
    // another user's process, or gone
  }
  for (const fd of fds) {
    const target = readlink(`/proc/${pid}/fd/${fd}`);
    if (target !== null && inside(target)) return { holds: target };
  }
  let maps = '';
  try {
    maps = fs.readFileSync(`/proc/${pid}/maps`, 'utf8');
  } catch {
    return null;
  }
  for (const line of maps.split('\n')) {
    // `address perms offset dev inode path`: the path is the rest of the line, spaces and all.
    const mapped = /^\S+\s+\S+\s+\S+\s+\S+\s+\d+\s+(\/.*)$/.exec(line)?.[1];
    const live = mapped === undefined ? null : livePath(mapped);
    if (live !== null && inside(live)) return { holds: live };
  }
  return null;
}

function exec(cmd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    // execFile's error is an Error (Node's types spell it as a set of Omits that no longer says so).
    execFile(cmd, args, { maxBuffer: 64 * 1024 * 1024 }, (err: Error | null, stdout: string) => {
      // lsof exits 1 when some process could not be read; its output is still good.
      if (err && !stdout) reject(err);
      else resolve(stdout);
    });
  });
}

/** One file of `lsof -Fpfn`: the process, the descriptor (`cwd`, `rtd`, `txt`, `mem`, `3u`…) and the path. */
export interface LsofFile {
  pid: number;
  fd: string;
  name: string;
}

/** `lsof -Fpfn`: a `p<pid>` line starts each process, then per file an `f<fd>` line and its `n<path>` line. */
export function parseLsofFiles(text: string): LsofFile[] {
  const out: LsofFile[] = [];
  let pid = 0;
  let fd = '';
  for (const line of text.split('\n')) {
    if (line.startsWith('p')) pid = Number(line.slice(1));
    else if (line.startsWith('f')) fd = line.slice(1);
    else if (line.startsWith('n') && pid > 0) out.push({ pid, fd, name: line.slice(1) });
  }
  return out;
}

/** The cwd of each process, as the older `lsof -d cwd -Fpn` listing gives it. */
export function parseLsof(text: string): Map<number, string> {
  const out = new Map<number, string>();
  for (const f of parseLsofFiles(text)) if (f.fd === 'cwd' || f.fd === '') out.set(f.pid, f.name);
  return out;
}

function lsofTouching(files: LsofFile[], inside: (p: string) => boolean, skip: Set<number>): Map<number, Touch> {
  const out = new Map<number, Touch>();
  for (const f of files) {
    if (skip.has(f.pid) || !f.name.startsWith('/') || !inside(f.name)) continue;
    const prev = out.get(f.pid);
    if (f.fd === 'cwd') out.set(f.pid, { cwd: f.name });
    else if (!prev) out.set(f.pid, { holds: f.name });
  }
  return out;
}

async function psCommand(pid: number): Promise<string | null> {
  try {
    const line = (await exec('ps', ['-o', 'command=', '-p', String(pid)])).trim();
    return line === '' ? null : line;
  } catch {
    return null;
  }
}
