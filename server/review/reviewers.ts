// The convoy's agents are ordinary conversations (kind `agent`) whose row carries the
// issue and, in its environment, the run and lane (SVC_REVIEW_RUN, SVC_REVIEW_LANE): who
// reviews what is read from the rows, never stored separately. Agent names are fixed by
// the spec (`agent-<issue>-review-<lane>`), so a reviewer of an earlier run gives its name
// up when it is retired: it is renamed `<name>.<runId>` and archived.
import type { ReviewerRole } from '../../shared/protocol/review';
import type { ConversationRow } from '../conversations/conversationService';
import { uniqueName } from '../conversations/names';
import { reviewSeatOf } from '../conversations/reviewSeat';
import { logger } from '../util/log';
import type { ReviewCtx } from './context';

const log = logger('review');

export interface Reviewer {
  row: ConversationRow;
  role: ReviewerRole;
  runId: string;
}

export function reviewerOf(row: ConversationRow): Reviewer | undefined {
  const seat = reviewSeatOf(row);
  return seat ? { row, role: seat.role, runId: seat.runId } : undefined;
}

/** Reviewers of an issue (of one run when given), oldest first, archived ones included. */
export function reviewersOf(ctx: ReviewCtx, issue: string, runId?: string): Reviewer[] {
  const out: Reviewer[] = [];
  const ids = ctx.app.db
    .prepare('SELECT id FROM conversations WHERE issue_id = ? ORDER BY id')
    .pluck()
    .all(issue) as number[];
  for (const id of ids) {
    const row = ctx.conv.get(id);
    if (!row) continue;
    const r = reviewerOf(row);
    if (r && (runId === undefined || r.runId === runId)) out.push(r);
  }
  return out;
}

/** Not ended and no spawn error: it may still write its report. */
export function running(row: ConversationRow): boolean {
  return row.endedAt === null && row.spawnError === null;
}

/** Stops a reviewer through the stop door (no-op when it is not running). */
export async function stopReviewer(ctx: ReviewCtx, r: Reviewer): Promise<boolean> {
  const row = ctx.conv.get(r.row.id)!;
  if (!running(row) && !ctx.conv.facts(row.id).alive) return false;
  await ctx.conv.stop(row.id, { timeoutMs: 30_000 });
  return true;
}

/** A reviewer renamed `<name>.<runId>`: it gave its name up to a later run. */
export function retiredName(name: string): boolean {
  return /\.r\d+(-\d+)?$/.test(name);
}

/**
 * Frees a reviewer's name for the next run: renamed `<name>.<runId>`. False when it gave it up
 * already. An agent calls svc as its conversation (id and credential), never by name, so a
 * reviewer still stopping may be renamed under it.
 */
export function giveUpName(ctx: ReviewCtx, r: Reviewer): boolean {
  const row = ctx.conv.get(r.row.id)!;
  if (retiredName(row.name)) return false;
  const name = uniqueName(`${row.name}.${r.runId}`, (n) => ctx.conv.store.nameTaken(n));
  ctx.app.db.prepare('UPDATE conversations SET name = ? WHERE id = ?').run(name, row.id);
  ctx.app.notify({ topic: 'conversations', id: row.id });
  return true;
}

/**
 * Stops a reviewer, frees its name for the next run and archives it. `named`: its name was
 * given up already (giveUpName, before the stop), so it is archived once stopped.
 */
export async function retire(ctx: ReviewCtx, r: Reviewer, named = false): Promise<void> {
  await stopReviewer(ctx, r);
  if (!giveUpName(ctx, r) && !named) return; // already retired
  const row = ctx.conv.get(r.row.id)!;
  const name = row.name;
  try {
    ctx.conv.archive(row.id);
  } catch (e) {
    log.warn(`retired reviewer #${row.id} (${name}) could not be archived: ${(e as Error).message}`);
  }
  ctx.app.notify({ topic: 'conversations', id: row.id });
}
