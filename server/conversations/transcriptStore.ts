// The transcript: what the conversation view shows, appended in wire order. Rows are
// queued and written in one transaction per event-loop turn, on the store's second
// connection that runs synchronous=NORMAL (store/unsyncedWriter.ts, and see flush), so a
// burst of streamed chunks costs no fsync on the daemon's loop while every other write
// stays FULL.
import type { Db } from '../store/db';
import { isDiskFull, Retrier } from '../store/diskFull';
import { UnsyncedWriter } from '../store/unsyncedWriter';
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
const INSERT = 'INSERT INTO transcript (conv_id, seq, at, kind, payload) VALUES (?, ?, ?, ?, ?)';

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
  /** The connection rows are written on (synchronous=NORMAL), shared with the conversation rows' unsynced writes. */
  private readonly writer: UnsyncedWriter;
  /** Whether close() closes the writer: it was made here, not handed in. */
  private readonly ownsWriter: boolean;

  constructor(
    private readonly db: Db,
    private readonly now: () => number,
    /** Called after a flush with the conversations that got rows. */
    private readonly onFlushed: (ids: Set<number>) => void,
    writer?: UnsyncedWriter,
  ) {
    this.ownsWriter = writer === undefined;
    this.writer = writer ?? new UnsyncedWriter(db);
  }

  /** Writes what is queued and closes the NORMAL connection when it is its own (later rows go through the store's). */
  close(): void {
    this.flush();
    if (this.ownsWriter) this.writer.close();
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
    // Written without waiting for the disk: a transcript row is acknowledged to no caller,
    // and the daemon's loop must not stall on an fsync per turn of a streaming agent. The
    // rows have a connection of their own at synchronous=NORMAL, so nothing is switched per
    // flush and no other write runs at less than FULL. Still durable (unsyncedWriter.ts): in
    // WAL mode the rows are in the WAL file at commit, so a crash of the daemon loses none;
    // and the WAL is one file for both connections, so the next FULL commit of any state
    // change (or checkpoint) fsyncs it with these rows in it: a power cut can lose only rows
    // written since the last state change, never a state change. When the store's
    // connection is inside a transaction of its own (a flush a read asked for), the rows go
    // through it instead: the other connection would wait for that transaction's lock, on
    // the same thread.
    const conn = this.writer.connection();
    const insert = this.writer.statements.get(conn, INSERT);
    try {
      conn.transaction(() => {
        for (const r of rows) insert.run(r.convId, r.seq, r.at, r.kind, r.payload);
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
