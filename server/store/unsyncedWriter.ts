// A second connection to the store's file whose commits do not wait for the disk
// (synchronous=NORMAL), for writes no caller is told of as kept: transcript rows, and a
// conversation's start facts and the exact words of an end already recorded. The store's
// own connection stays at FULL for everything else, and nothing is switched per write.
//
// Why such a write is still kept (docs/decisions/performance.md): in WAL mode a commit at
// NORMAL is in the WAL file when it returns, so a crash or kill -9 of the daemon loses none,
// and the other connection reads it at once. The WAL is one file for both connections and
// SQLite keeps commits in order, so the next FULL commit of any state change (or a
// checkpoint) fsyncs it too: a power cut can lose only what was written this way since the
// last FULL commit, never a FULL commit, and what is left is a state the store was in.
import type { Db } from './db';
import { openSqlite } from './sqlite';
import { StatementCache } from './statementCache';

export class UnsyncedWriter {
  /** The NORMAL connection, when the store is a file. */
  private readonly own?: Db;
  /** Statements for whichever connection `connection()` chose. */
  readonly statements = new StatementCache();

  constructor(private readonly db: Db) {
    if (db.memory) return;
    this.own = openSqlite(db.name, { fileMustExist: true });
    this.own.pragma('busy_timeout = 5000');
    this.own.pragma('foreign_keys = ON');
    this.own.pragma('synchronous = NORMAL');
  }

  /**
   * The connection to write through now: its own; the store's when that one is inside a
   * transaction (its own would wait for that transaction's lock, on this same thread, and
   * the write then commits with that transaction), when the store is in memory, or once
   * its own is closed.
   */
  connection(): Db {
    return this.own?.open && !this.db.inTransaction ? this.own : this.db;
  }

  /** Closes its own connection; later writes go through the store's. */
  close(): void {
    this.own?.close();
  }
}
