// `pr.reviewState` (docs/architecture.md §8), derived on every read from the journal and the PR's
// live head; nothing is stored. The newest verdict decides while it is for the head; a
// verdict for an older head is `stale` (a push after a verdict leaves the new head
// unreviewed until the next verdict, spec rule 2), even while the next review runs — the
// run itself is shown beside it (`run.phase`). Without any verdict, the newest run says
// `requested` or `in_review` (`none` in mode none: there is no AI review).
import type { JournalEntry, ReviewState } from '../../shared/protocol/review';
import { latestRun, latestVerdict } from './runs';

const FROM_VERDICT = { APPROVED: 'approved', CHANGES_REQUESTED: 'changes_requested', FAILED: 'failed' } as const;

export function reviewState(entries: JournalEntry[], head: string | null): ReviewState {
  const v = latestVerdict(entries);
  if (v) return v.sha !== null && v.sha === head ? FROM_VERDICT[v.verdict] : 'stale';
  const run = latestRun(entries);
  if (!run || run.mode === 'none') return 'none';
  if (run.phase === 'requested') return 'requested';
  if (run.phase === 'dispatched') return 'in_review';
  return 'none';
}
