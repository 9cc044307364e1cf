// The result of a reap: the JSON answer of `POST /api/lanes/:name/reap` and
// `lanes/reap`, and the text `svc lane reap` prints from it. Pure (no node imports), so
// the shim can format what the daemon answers. It says what was done and what was kept:
// the branch, unpushed commits, the parked patch and the exact command restoring it.
import type { z } from 'zod';
import type { ReapResult } from '../protocol/lanes';
import { mebibytes } from './bytes';

export type ReapReport = z.infer<typeof ReapResult>;
export type ArchiveOutcome = ReapReport['archive'];

const SHOWN_COMMITS = 10;
const short = (sha: string) => sha.slice(0, 7);

/** The one place this line is written (spec, Reap step 7). */
export function archiveFailedLine(error: string, convId: string | number): string {
  return `reaped, but archiving failed: ${error}; archive conv ${convId} from the Command Deck`;
}

export function formatReapReport(r: ReapReport): string {
  const lines = [`reaped conv ${r.conv.id} (${r.conv.name})`];
  if (r.park) {
    lines.push(`parked ${r.park.files} ${r.park.files === 1 ? 'path' : 'paths'} in ${r.park.patchFile}`);
    lines.push(
      `  restore with: ${r.removed === 'worktree' ? r.park.restoreAfterRemoveCommand : r.park.restoreCommand}`,
    );
  }
  if (r.park && r.largePark) {
    const largest = r.largePark.largest.map((f) => `${f.path} ${mebibytes(f.bytes)}`).join(', ');
    lines.push(
      `warning: parked ${mebibytes(r.largePark.bytes)} of files into ${r.park.patchFile}, over reap.park_warn_mb (${r.largePark.warnMb} MiB); largest: ${largest}`,
    );
  }
  for (const p of r.earlierParked ?? []) {
    lines.push(
      `note: an earlier park of this lane left ${p.patchFile}${p.paths === null ? '' : ` (${p.paths} ${p.paths === 1 ? 'path' : 'paths'})`}`,
    );
    if (p.restoreCommand !== null) lines.push(`  restore with: ${p.restoreCommand}`);
  }
  if (r.removed === 'worktree') lines.push(`removed worktree ${r.dir}`);
  else if (r.removed === 'playDir') lines.push(`removed play directory ${r.dir}`);
  else lines.push(`${r.dir} was already gone`);
  if (r.branch !== null) lines.push(`kept branch ${r.branch}${r.head ? ` at ${short(r.head)}` : ''}`);
  if (r.keptBranch !== null) lines.push(`kept the detached commits on new branch ${r.keptBranch}`);
  for (const k of r.keptRefs ?? []) {
    lines.push(
      `kept ${k.commits} ${k.commits === 1 ? 'commit' : 'commits'} only this worktree's reflog or its own refs held on new branch ${k.branch} at ${short(k.sha)}`,
    );
  }
  lines.push(...unpushedLines(r));
  if (r.orphaned.length && r.archive.state !== 'kept') {
    lines.push(orphanedLine(r.orphaned));
  }
  if (r.archive.state === 'archived') lines.push(`archived conv ${r.conv.id}`);
  else if (r.archive.state === 'kept') lines.push(`kept conv ${r.conv.id} in the Command Deck (--keep)`);
  else lines.push(archiveFailedLine(r.archive.error, r.conv.id));
  return lines.join('\n');
}

/** Lane names end `-<role>-i<n>` (`-r<k>` for a respawn): the form the daemon gives them. */
const NAME_ROLE = /-(builder|critic|verifier|play|orchestrator)-i\d+(?:-r\d+)?$/;
const ROLE_ORDER = ['builder', 'verifier', 'play', 'critic', 'orchestrator', 'lane'];

/** The orchestrator-first warning, naming the roles it lists: an orchestrator launches
 *  builders, verifiers and play lanes, and any of them may be left orphaned. */
function orphanedLine(names: string[]): string {
  const counts = new Map<string, number>();
  for (const n of names) {
    const role = NAME_ROLE.exec(n)?.[1] ?? 'lane';
    counts.set(role, (counts.get(role) ?? 0) + 1);
  }
  const noun = (role: string, n: number) => {
    const word = role === 'play' ? 'play lane' : role;
    return n === 1 ? word : `${word}s`;
  };
  if (names.length === 1) {
    const [role] = [...counts.keys()];
    return `warning: the ${noun(role, 1)} launched by this lane is not reaped and is now orphaned: ${names[0]}`;
  }
  const parts = [...counts.entries()]
    .sort((a, b) => ROLE_ORDER.indexOf(a[0]) - ROLE_ORDER.indexOf(b[0]))
    .map(([role, n]) => `${n} ${noun(role, n)}`);
  const what = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
  return `warning: ${what} launched by this lane are not reaped and are now orphaned: ${names.join(', ')}`;
}

function unpushedLines(r: ReapReport): string[] {
  const n = r.unpushed.length;
  if (n === 0) return [];
  const what = `${n} ${n === 1 ? 'commit' : 'commits'}`;
  const where = r.branch !== null ? `on ${r.branch}` : `at detached ${r.head ? short(r.head) : 'HEAD'}`;
  const against = r.upstream !== null ? `not on ${r.upstream}` : 'on no remote branch';
  const lines = [`warning: ${what} ${where} ${n === 1 ? 'is' : 'are'} ${against}:`];
  for (const c of r.unpushed.slice(0, SHOWN_COMMITS)) lines.push(`  ${short(c.sha)} ${c.subject}`);
  if (n > SHOWN_COMMITS) lines.push(`  … and ${n - SHOWN_COMMITS} more`);
  return lines;
}
