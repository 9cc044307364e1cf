// The transcript: what the conversation view shows, appended in wire order. Rows are
// queued and written in one transaction per event-loop turn, so a burst of streamed
// chunks costs one fsync instead of one each (the store runs synchronous=FULL).
import type { Statement } from 'better-sqlite3';
import type { Db } from '../store/db';
import { isDiskFull, Retrier } from '../store/diskFull';
import { logger } from '../util/log';

export interface TranscriptRow {
  seq: number;
  at: number;
  kind: string;
  payload: unknown;
}

interface Pending {
  convId: number;
  seq: number;
  at: number;
  kind: string;
  payload: string;
}

const log = logger('conversations');

export class TranscriptStore {
  private readonly nextSeq = new Map<number, number>();
  private pending: Pending[] = [];
  private scheduled = false;
  /** The last flush found the disk full: the retrier writes what is pending. */
  private full = false;
  private readonly retrier = new Retrier(() => {
    this.flush();
    return !this.full;
  });
  private readonly insertStmt;
  /** The two switches of every flush, prepared once (a pragma call prepares anew each time). */
  private normalSync?: Statement<unknown[]>;
  private fullSync?: Statement<unknown[]>;

  constructor(
    private readonly db: Db,
    private readonly now: () => number,
    /** Called after a flush with the conversations that got rows. */
    private readonly onFlushed: (ids: Set<number>) => void,
  ) {
    this.insertStmt = db.prepare('INSERT INTO transcript (conv_id, seq, at, kind, payload) VALUES (?, ?, ?, ?, ?)');
  }

  /** Queues a row; returns its seq. Order of calls is the order of rows. */
  append(convId: number, kind: string, payload: unknown): number {
    let seq = this.nextSeq.get(convId);
    if (seq === undefined)
      seq =
        ((this.db.prepare('SELECT MAX(seq) FROM transcript WHERE conv_id = ?').pluck().get(convId) as number | null) ??
          0) + 1;
    this.nextSeq.set(convId, seq + 1);
    this.pending.push({ convId, seq, at: this.now(), kind, payload: JSON.stringify(payload ?? null) });
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
    return seq;
  }

  flush(): void {
    this.scheduled = false;
    if (this.pending.length === 0) return;
    const rows = this.pending;
    this.pending = [];
    if (!this.db.open) return; // the daemon is stopping; nothing more can be kept
    // Written without waiting for the disk (WAL, synchronous=NORMAL): a transcript row is
    // acknowledged to no caller, and the daemon's loop must not stall on an fsync per turn of
    // a streaming agent. A crash of the daemon loses none of them (they are in the WAL); a
    // power cut may lose the last ones, until the next state change's FULL commit syncs them.
    (this.normalSync ??= this.db.prepare('PRAGMA synchronous = NORMAL')).run();
    try {
      this.db.transaction(() => {
        for (const r of rows) this.insertStmt.run(r.convId, r.seq, r.at, r.kind, r.payload);
      })();
    } catch (e) {
      if (!isDiskFull(e)) throw e;
      // Kept, in order, ahead of anything appended since, and written once there is space.
      if (!this.full)
        log.warn(
          `the store refused transcript rows (${(e as Error).message}); kept in memory until they can be written`,
        );
      this.full = true;
      this.pending = [...rows, ...this.pending];
      this.retrier.schedule();
      return;
    } finally {
      (this.fullSync ??= this.db.prepare('PRAGMA synchronous = FULL')).run();
    }
    if (this.full) log.info('the kept transcript rows are written');
    this.full = false;
    this.onFlushed(new Set(rows.map((r) => r.convId)));
  }

  /** Rows after `afterSeq` (oldest first), at most `limit`. */
  after(convId: number, afterSeq: number, limit = 100_000): TranscriptRow[] {
    this.flush();
    return this.decode(
      this.db
        .prepare('SELECT seq, at, kind, payload FROM transcript WHERE conv_id = ? AND seq > ? ORDER BY seq LIMIT ?')
        .all(convId, afterSeq, limit),
    );
  }

  /** The newest `limit` rows, oldest first. */
  tail(convId: number, limit: number): TranscriptRow[] {
    this.flush();
    return this.decode(
      this.db
        .prepare('SELECT seq, at, kind, payload FROM transcript WHERE conv_id = ? ORDER BY seq DESC LIMIT ?')
        .all(convId, limit),
    ).reverse();
  }

  /** The tool call rows up to `uptoSeq` of the calls named in `ids` (their earlier state, for rendering later updates). */
  toolRows(convId: number, ids: string[], uptoSeq: number): TranscriptRow[] {
    if (ids.length === 0) return [];
    this.flush();
    const marks = ids.map(() => '?').join(', ');
    return this.decode(
      this.db
        .prepare(
          `SELECT seq, at, kind, payload FROM transcript WHERE conv_id = ? AND seq <= ? AND kind IN ('tool_call', 'tool_call_update') AND json_extract(payload, '$.toolCallId') IN (${marks}) ORDER BY seq`,
        )
        .all(convId, uptoSeq, ...ids),
    );
  }

  lastSeq(convId: number): number {
    this.flush();
    return (
      (this.db.prepare('SELECT MAX(seq) FROM transcript WHERE conv_id = ?').pluck().get(convId) as number | null) ?? 0
    );
  }

  private decode(rows: unknown[]): TranscriptRow[] {
    return (rows as { seq: number; at: number; kind: string; payload: string }[]).map((r) => ({
      seq: r.seq,
      at: r.at,
      kind: r.kind,
      payload: JSON.parse(r.payload) as unknown,
    }));
  }
}
