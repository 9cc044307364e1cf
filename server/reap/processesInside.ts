// Every process whose working directory is inside a folder (reap step 3). Linux reads
// /proc/<pid>/cwd (the kernel gives real paths); elsewhere `lsof -d cwd`. The calling
// process is excluded: the probe must not refuse itself. Processes of other users whose
// cwd cannot be read are not seen (neither source can see them without privileges).
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ProcessInside } from './reapErrors';

export type ProcessSource = 'proc' | 'lsof';

export interface ProcessesInsideOptions {
  /** Default: 'proc' on Linux, 'lsof' elsewhere. */
  source?: ProcessSource;
  /** PIDs to leave out besides the calling process. */
  exclude?: number[];
}

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
  const cwds = source === 'proc' ? procCwds() : await lsofCwds();
  const found: ProcessInside[] = [];
  for (const [pid, cwd] of cwds) {
    if (skip.has(pid) || !within(cwd, root)) continue;
    const command = source === 'proc' ? procCommand(pid) : await psCommand(pid);
    if (command !== null) found.push({ pid, command });
  }
  return found.sort((a, b) => a.pid - b.pid);
}

function within(cwd: string, root: string): boolean {
  return cwd === root || cwd.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

function procCwds(): Map<number, string> {
  const out = new Map<number, string>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // A cwd deleted from under a process reads as "<path> (deleted)"; it is inside
      // nothing any more, and the suffix keeps it from matching.
      out.set(Number(name), fs.readlinkSync(`/proc/${name}/cwd`));
    } catch {
      // gone meanwhile, or another user's process
    }
  }
  return out;
}

/** The command line from /proc, `[comm]` for a process without one; null when it has exited. */
/** The command line of a live process, or null once it is gone (Linux: /proc). */
export function procCommand(pid: number): string | null {
  try {
    const argv = fs
      .readFileSync(`/proc/${pid}/cmdline`)
      .toString('utf8')
      .split('\0')
      .filter((a, i, all) => a !== '' || i < all.length - 1);
    if (argv.length) return argv.join(' ');
    return `[${fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim()}]`;
  } catch {
    return null;
  }
}

function exec(cmd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { maxBuffer: 64 * 1024 * 1024 }, (err, stdout) => {
      // lsof exits 1 when some process could not be read; its output is still good.
      if (err && !stdout) reject(err);
      else resolve(stdout);
    });
  });
}

/** `lsof -d cwd -Fpn`: a `p<pid>` line starts each process, its `n<path>` line names the cwd. */
async function lsofCwds(): Promise<Map<number, string>> {
  return parseLsof(await exec('lsof', ['-w', '-n', '-P', '-d', 'cwd', '-Fpn']));
}

export function parseLsof(text: string): Map<number, string> {
  const out = new Map<number, string>();
  let pid = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('p')) pid = Number(line.slice(1));
    else if (line.startsWith('n') && pid > 0) out.set(pid, line.slice(1));
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
