// Which processes of a process group still run, and their command lines. In util/ because
// both ends use it: the daemon's agents (harness/) and svc's helper on a host (hosts/helper),
// and hosts sits below harness; the reap (reap/) names the processes it finds the same way.
import * as fs from 'node:fs';

/**
 * Live (non-zombie) processes of process group `pgid`. On Linux read from /proc, because
 * an orphan reparented to an init that reaps slowly stays a zombie that kill(-pgid, 0)
 * still counts; elsewhere kill(-pgid, 0) decides (an empty list means gone).
 */
export function groupMembers(pgid: number): number[] {
  if (process.platform !== 'linux') {
    try {
      process.kill(-pgid, 0);
      return [pgid];
    } catch {
      return [];
    }
  }
  // No process in the group at all (the usual answer once an agent stopped): say so without
  // reading every /proc/<pid>/stat, which a stop door polling every 25 ms would do many times.
  try {
    process.kill(-pgid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ESRCH') return [];
  }
  return [...(liveGroups().get(pgid) ?? [])];
}

/** How long one read of every process serves other groups' questions (several agents stopping at once poll together). */
const SCAN_REUSE_MS = 3;
let scan: { at: number; groups: Map<number, number[]> } | undefined;

/** Linux: every live (non-zombie) process by process group, read from /proc at most once per SCAN_REUSE_MS. */
function liveGroups(): Map<number, number[]> {
  const now = performance.now();
  if (scan && now - scan.at < SCAN_REUSE_MS) return scan.groups;
  const groups = new Map<number, number[]>();
  let entries: string[] = [];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return groups;
  }
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    const pgrp = liveGroupOf(Number(e));
    if (pgrp === undefined) continue;
    const list = groups.get(pgrp);
    if (list) list.push(Number(e));
    else groups.set(pgrp, [Number(e)]);
  }
  scan = { at: performance.now(), groups };
  return groups;
}

/** Linux: the process group of `pid`, unless it is gone or a zombie. */
function liveGroupOf(pid: number): number | undefined {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // pid (comm) state ppid pgrp …; comm may hold spaces and parentheses.
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return rest[0] === 'Z' ? undefined : Number(rest[2]);
}

/** Linux: `pid` runs (is no zombie) in process group `pgid`. A reused pid is in that group only if it truly is a member. */
export function liveMemberOf(pid: number, pgid: number): boolean {
  return liveGroupOf(pid) === pgid;
}

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
