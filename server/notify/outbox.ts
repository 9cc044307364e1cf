// The notify outbox in SQLite: events enqueued once per (target, item as it began to
// wait), claimed by the sender when due, and marked sent or given up. A row stays
// `pending` until the target acknowledges it, so an attempt cut short by a daemon stop is
// made again after the restart; once `sent`, it is never sent again.
import type { InboxItem } from '../../shared/protocol/inbox';
import type { Db } from '../store/db';

export type OutboxState = 'pending' | 'sent' | 'given-up';

export interface OutboxEvent {
  id: number;
  target: string;
  eventKey: string;
  item: InboxItem;
  attempts: number;
  nextAt: number;
}

export interface TargetTally {
  target: string;
  sent: number;
  pending: number;
  givenUp: number;
  /** The last given-up event's error and when it was given up. */
  lastError: string | null;
  lastGivenUpAt: number | null;
  /** When the target last acknowledged an event. */
  lastSentAt: number | null;
}

/** What keeps an event unique: the item's id and when it began to wait (a new ask of the same conversation is a new event). */
export const eventKey = (item: Pick<InboxItem, 'id' | 'since'>): string => `${item.id}@${Math.round(item.since)}`;

/** Done rows older than this whose item no longer waits are pruned. */
export const KEEP_DONE_MS = 7 * 24 * 3600 * 1000;

interface Row {
  id: number;
  target: string;
  event_key: string;
  item: string;
  attempts: number;
  next_at: number;
}

export class Outbox {
  constructor(private readonly db: Db) {}

  /** Enqueues each (target, item) not enqueued before; returns how many were new. */
  enqueue(events: { target: string; item: InboxItem }[], now: number): number {
    const insert = this.db.prepare(
      `INSERT OR IGNORE INTO notify_outbox (target, event_key, kind, item, state, next_at, created_at)
       VALUES (?, ?, ?, ?, 'pending', ?, ?)`,
    );
    let added = 0;
    this.db.transaction(() => {
      for (const e of events) {
        added += insert.run(e.target, eventKey(e.item), e.item.kind, JSON.stringify(e.item), now, now).changes;
      }
    })();
    return added;
  }

  /** Pending events of `targets` due by `now`, oldest first. */
  due(targets: readonly string[], now: number, limit = 20): OutboxEvent[] {
    if (!targets.length) return [];
    const rows = this.db
      .prepare(
        `SELECT id, target, event_key, item, attempts, next_at FROM notify_outbox
         WHERE state = 'pending' AND next_at <= ? AND target IN (${targets.map(() => '?').join(',')})
         ORDER BY next_at, id LIMIT ?`,
      )
      .all(now, ...targets, limit) as Row[];
    return rows.map(toEvent);
  }

  /** When the next pending event of `targets` falls due, if any. */
  nextDue(targets: readonly string[]): number | undefined {
    if (!targets.length) return undefined;
    const at = this.db
      .prepare(
        `SELECT MIN(next_at) FROM notify_outbox WHERE state = 'pending' AND target IN (${targets.map(() => '?').join(',')})`,
      )
      .pluck()
      .get(...targets) as number | null;
    return at ?? undefined;
  }

  markSent(id: number, now: number): void {
    this.db
      .prepare(`UPDATE notify_outbox SET state = 'sent', attempts = attempts + 1, done_at = ? WHERE id = ?`)
      .run(now, id);
  }

  /** A failed attempt: retried at `nextAt`, or given up when `nextAt` is null. */
  markFailed(id: number, error: string, nextAt: number | null, now: number): void {
    if (nextAt === null) {
      this.db
        .prepare(
          `UPDATE notify_outbox SET state = 'given-up', attempts = attempts + 1, last_error = ?, done_at = ? WHERE id = ?`,
        )
        .run(error, now, id);
    } else {
      this.db
        .prepare(`UPDATE notify_outbox SET attempts = attempts + 1, last_error = ?, next_at = ? WHERE id = ?`)
        .run(error, nextAt, id);
    }
  }

  /** Per target: what was sent, waits, and was given up (svc doctor). */
  tallies(): TargetTally[] {
    const rows = this.db
      .prepare(
        `SELECT target,
                SUM(state = 'sent') AS sent, SUM(state = 'pending') AS pending, SUM(state = 'given-up') AS givenUp,
                MAX(CASE WHEN state = 'given-up' THEN done_at END) AS lastGivenUpAt,
                MAX(CASE WHEN state = 'sent' THEN done_at END) AS lastSentAt
         FROM notify_outbox GROUP BY target ORDER BY target`,
      )
      .all() as Omit<TargetTally, 'lastError'>[];
    const lastError = this.db.prepare(
      `SELECT last_error FROM notify_outbox WHERE target = ? AND state = 'given-up' ORDER BY done_at DESC, id DESC LIMIT 1`,
    );
    return rows.map((r) => ({ ...r, lastError: (lastError.pluck().get(r.target) as string | undefined) ?? null }));
  }

  /** Forgets done rows older than KEEP_DONE_MS whose item no longer waits (its key could not come back). */
  prune(waiting: ReadonlySet<string>, now: number): void {
    const old = this.db
      .prepare(`SELECT id, event_key FROM notify_outbox WHERE state != 'pending' AND done_at < ?`)
      .all(now - KEEP_DONE_MS) as { id: number; event_key: string }[];
    const del = this.db.prepare(`DELETE FROM notify_outbox WHERE id = ?`);
    this.db.transaction(() => {
      for (const r of old) if (!waiting.has(r.event_key)) del.run(r.id);
    })();
  }
}

function toEvent(r: Row): OutboxEvent {
  return {
    id: r.id,
    target: r.target,
    eventKey: r.event_key,
    item: JSON.parse(r.item) as InboxItem,
    attempts: r.attempts,
    nextAt: r.next_at,
  };
}
