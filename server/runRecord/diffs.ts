// Each builder iteration's diff against the commit it started at, for the run record:
// read in the project's checkout (worktrees share its objects, and a reaped lane's branch
// is kept), capped per iteration and in total so the page stays a few MB at most.
import type { RunRecord } from '../../shared/protocol/runRecord';
import { git } from '../git/git';
import type { LanesContext } from '../lanes/lanesContext';
import type { LaneRow } from '../lanes/laneStore';
import { isHere } from '../lanes/laneWhere';

/** Per builder iteration, and for the whole page. */
export const DIFF_CAP_BYTES = 200_000;
export const DIFFS_TOTAL_BYTES = 2_000_000;

export async function builderDiffs(
  ctx: LanesContext,
  rows: LaneRow[],
  reports: RunRecord['reports'],
): Promise<RunRecord['diffs']> {
  const out: RunRecord['diffs'] = [];
  let budget = DIFFS_TOTAL_BYTES;
  const iterations = new Map<string, LaneRow[]>();
  for (const l of rows.filter((r) => r.role === 'builder')) {
    const id = `${l.key}\0${l.dir}`;
    iterations.set(id, [...(iterations.get(id) ?? []), l]);
  }
  for (const lanes of iterations.values()) {
    const first = lanes[0];
    const newest = lanes[lanes.length - 1];
    const ids = new Set(lanes.map((l) => l.id));
    const headReport = reports
      .filter((r) => ids.has(r.laneId) && r.headSha)
      .sort((a, b) => a.at - b.at)
      .pop();
    const base = { key: first.key, iteration: first.iteration, lane: newest.name };
    const repo = ctx.repoOf(first.project);
    if (!isHere(first) || !repo) {
      out.push({
        ...base,
        base: first.startSha,
        head: headReport?.headSha ?? null,
        stat: '',
        patch: '',
        note: isHere(first)
          ? 'the project is no longer configured'
          : `ran on host ${first.host}: its diff is read there, not here`,
      });
      continue;
    }
    const head = headReport?.headSha ?? (first.branch ? await revParse(repo, `refs/heads/${first.branch}`) : null);
    const start = first.startSha;
    if (!head || !start) {
      out.push({
        ...base,
        base: start,
        head,
        stat: '',
        patch: '',
        note: !start ? 'the commit it started at was not recorded' : 'no commit to show',
      });
      continue;
    }
    try {
      const stat = await git(repo, ['diff', '--stat', '--end-of-options', start, head]);
      const patch = await git(repo, ['diff', '--end-of-options', start, head]);
      const cap = Math.max(0, Math.min(DIFF_CAP_BYTES, budget));
      const bytes = Buffer.byteLength(patch);
      const cut = bytes > cap;
      const shown = cut ? cutAtLine(patch, cap) : patch;
      budget -= Buffer.byteLength(shown);
      out.push({
        ...base,
        base: start,
        head,
        stat,
        patch: shown,
        note: cut
          ? `diff cut at ${Buffer.byteLength(shown).toLocaleString('en')} of ${bytes.toLocaleString('en')} bytes; the whole of it: git diff ${start.slice(0, 12)} ${head.slice(0, 12)}`
          : null,
      });
    } catch (e) {
      out.push({
        ...base,
        base: start,
        head,
        stat: '',
        patch: '',
        note: `git could not show it: ${(e as Error).message.split('\n')[0]}`,
      });
    }
  }
  return out;
}

async function revParse(repo: string, ref: string): Promise<string | null> {
  return git(repo, ['rev-parse', '--verify', '--quiet', '--end-of-options', ref]).then(
    (s) => s.trim() || null,
    () => null,
  );
}

function cutAtLine(text: string, bytes: number): string {
  const slice = Buffer.from(text).subarray(0, bytes).toString('utf8');
  const nl = slice.lastIndexOf('\n');
  return nl > 0 ? slice.slice(0, nl + 1) : slice;
}
