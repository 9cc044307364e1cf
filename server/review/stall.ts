// The `auto` row of the lifecycle: when an issue's last journal entry is
// `review.requested`, `review.dispatched` or `review.redispatched`, at least 15 minutes
// old, and none of its reviewers is alive, the review is re-dispatched
// (`review.redispatched`) — at most once per hour per issue. Times are app.now() (a test
// daemon's clock moves with daemon/advanceClock); the plan is re-made after every
// advance, journal change and reviewer end, and a timer waits for the next due time.
import type { JournalEntry } from '../../shared/protocol/review';
import { logger } from '../util/log';
import type { ReviewCtx } from './context';
import { readJournal } from './journal';
import type { ReviewPipeline } from './pipeline';
import { reviewersOf, running } from './reviewers';
import { ACTIVE_KINDS, runsOf } from './runs';

const log = logger('review');

export const STALL_MS = 15 * 60_000;
export const REDISPATCH_EVERY_MS = 60 * 60_000;

/** When the stall rule may fire for this journal (epoch ms), or undefined when it cannot. */
export function stallDue(entries: JournalEntry[]): number | undefined {
  const last = entries[entries.length - 1];
  if (!last || !ACTIVE_KINDS.has(last.kind) || !last.runId) return undefined;
  if (runsOf(entries).get(last.runId)?.mode === 'none') return undefined;
  let due = Date.parse(last.at) + STALL_MS;
  for (let i = entries.length - 1; i >= 0; i--) {
    if (entries[i].kind === 'review.redispatched') {
      due = Math.max(due, Date.parse(entries[i].at) + REDISPATCH_EVERY_MS);
      break;
    }
  }
  return due;
}

export class StallWatch {
  private timer?: NodeJS.Timeout;
  private planned = false;
  /** Attempts per issue (also failed ones), so a broken dispatch is not retried more than hourly. */
  private attempts = new Map<string, number>();
  private closed = false;

  constructor(
    private readonly ctx: ReviewCtx,
    private readonly pipeline: ReviewPipeline,
  ) {}

  /** Re-plan soon (coalesced). */
  kick(): void {
    if (this.planned || this.closed) return;
    this.planned = true;
    setImmediate(() => {
      this.planned = false;
      this.scan();
    });
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
  }

  private scan(): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    const now = this.ctx.app.now();
    let next = Infinity;
    for (const issue of this.ctx.issues.all()) {
      const entries = readJournal(issue.workspace);
      let due = stallDue(entries);
      if (due === undefined) continue;
      const tried = this.attempts.get(issue.id);
      if (tried !== undefined) due = Math.max(due, tried + REDISPATCH_EVERY_MS);
      if (due > now) {
        next = Math.min(next, due);
        continue;
      }
      // Due: only when no reviewer of the issue is alive (a reviewer's end re-plans).
      if (
        reviewersOf(this.ctx, issue.id).some(
          (r) => running(this.ctx.conv.get(r.row.id)!) || this.ctx.conv.facts(r.row.id).alive,
        )
      )
        continue;
      const last = entries[entries.length - 1];
      this.attempts.set(issue.id, now);
      log.info(
        `${issue.id}: no reviewer alive and the last journal entry (${last.kind} ${last.runId}) is ${Math.round((now - Date.parse(last.at)) / 60_000)} minutes old; re-dispatching`,
      );
      this.pipeline.redispatch(issue.id, last.runId!).then(
        (runId) => runId && log.info(`${issue.id}: re-dispatched as ${runId}`),
        (e) => log.error(`${issue.id}: re-dispatch failed`, e),
      );
    }
    if (next !== Infinity) {
      // Capped so a long wait re-checks now and then (timers drift; the clock may be moved).
      this.timer = setTimeout(() => this.scan(), Math.min(Math.max(next - now, 10), 10 * 60_000));
      this.timer.unref();
    }
  }
}
