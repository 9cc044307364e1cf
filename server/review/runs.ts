// Review runs derived from the journal (pure): a run is born by `review.requested` or
// `review.redispatched` and ends with `review.verdict` or `review.aborted`. Nothing about
// runs is stored anywhere else.
import type { ServiceVerdicts } from '../codehost/prState';
import type { JournalEntry, ReviewModeName, RunInfo, VerdictName } from '../../shared/protocol/review';

export interface Run extends RunInfo {
  pr: number | null;
  /** When the run was born (requested or redispatched), epoch ms. */
  bornAt: number;
}

export const ACTIVE_KINDS = new Set(['review.requested', 'review.dispatched', 'review.redispatched']);

export function runsOf(entries: JournalEntry[]): Map<string, Run> {
  const runs = new Map<string, Run>();
  for (const e of entries) {
    if (!e.runId) continue;
    const x = e as JournalEntry & { mode?: ReviewModeName; pr?: number; worktree?: string; verdict?: VerdictName };
    let r = runs.get(e.runId);
    if (e.kind === 'review.requested' || e.kind === 'review.redispatched' || !r) {
      r = {
        runId: e.runId,
        mode: x.mode ?? r?.mode ?? 'full',
        sha: e.sha ?? r?.sha ?? '',
        pr: x.pr ?? r?.pr ?? null,
        phase: e.kind === 'review.redispatched' ? 'dispatched' : 'requested',
        verdict: null,
        worktree: x.worktree ?? null,
        bornAt: Date.parse(e.at),
      };
      runs.set(e.runId, r);
      if (e.kind !== 'review.requested' && e.kind !== 'review.redispatched') apply(r, e, x);
      continue;
    }
    apply(r, e, x);
  }
  return runs;
}

function apply(r: Run, e: JournalEntry, x: { worktree?: string; verdict?: VerdictName }): void {
  if (e.kind === 'review.dispatched') {
    r.phase = 'dispatched';
    r.worktree = x.worktree ?? r.worktree;
  } else if (e.kind === 'review.verdict') {
    r.phase = 'verdict';
    r.verdict = x.verdict ?? null;
  } else if (e.kind === 'review.aborted') r.phase = 'aborted';
}

export function latestRun(entries: JournalEntry[]): Run | undefined {
  let latest: Run | undefined;
  for (const r of runsOf(entries).values()) if (!latest || r.bornAt >= latest.bornAt) latest = r;
  return latest;
}

/** `r<n+1>` after the highest run number in the journal. */
export function nextRunId(entries: JournalEntry[]): string {
  let max = 0;
  for (const e of entries) {
    const m = e.runId ? /^r(\d+)$/.exec(e.runId) : null;
    if (m) max = Math.max(max, Number(m[1]));
  }
  return `r${max + 1}`;
}

/** The newest `review.verdict` entry (any run). */
export function latestVerdict(entries: JournalEntry[]): (JournalEntry & { verdict: VerdictName }) | undefined {
  for (let i = entries.length - 1; i >= 0; i--)
    if (entries[i].kind === 'review.verdict') return entries[i] as JournalEntry & { verdict: VerdictName };
  return undefined;
}

/** What the service's journal says it posted on PR `pr`: the sha of each formal review, and
 *  for each reviewed head the newest verdict recorded for it (only that one counts: an
 *  older verdict whose newer successor was deleted from the PR does not come back). */
export function serviceVerdicts(entries: JournalEntry[], pr: number): ServiceVerdicts {
  const newest = new Map<string, { id: number; via: string }>();
  for (const e of entries) {
    const x = e as JournalEntry & { via?: string; id?: number; pr?: number };
    if (e.kind === 'review.verdict' && x.pr === pr && typeof x.id === 'number' && typeof x.via === 'string' && e.sha)
      newest.set(e.sha, { id: x.id, via: x.via });
  }
  return { reviewed: reviewedShas(entries, pr), newest };
}

/** Review id → the sha it reviewed, for every formal review (`via` review or comment) the
 *  service posted on PR `pr`: readiness trusts these over the host's commit_id. */
export function reviewedShas(entries: JournalEntry[], pr: number): Map<number, string> {
  const out = new Map<number, string>();
  for (const e of entries) {
    const x = e as JournalEntry & { via?: string; id?: number; pr?: number };
    if (
      e.kind === 'review.verdict' &&
      x.pr === pr &&
      (x.via === 'review' || x.via === 'comment') &&
      typeof x.id === 'number' &&
      e.sha
    )
      out.set(x.id, e.sha);
  }
  return out;
}
