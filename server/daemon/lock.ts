// The single-instance lock: an open `BEGIN EXCLUSIVE` transaction on SVC_HOME/daemon.lock,
// held for the daemon's life. SQLite takes it with an fcntl lock, so it vanishes with the
// process, even after kill -9: a stale lock file can never block the next daemon.
// Normal locking mode, not `locking_mode=EXCLUSIVE`: in that mode a starter keeps its
// shared lock after failing, and five daemons starting together left no winner in 2 of
// 30 runs; here 40 of 40 had exactly one. No busy wait: a loser that waited could win
// the lock of a daemon being stopped and come up after `svc daemon stop`. Should two
// starters still both lose, their clients start another (shared/client/ensureDaemon.ts).
// Nothing is ever written, so no journal is left behind.
import type Database from 'better-sqlite3';
import { ensurePrivateFile } from '../store/privateFile';
import { openSqlite } from '../store/sqlite';

export class InstanceLock {
  private constructor(private readonly db: Database.Database) {}

  /** The lock, or undefined when another daemon holds it. */
  static tryAcquire(file: string): InstanceLock | undefined {
    ensurePrivateFile(file);
    const db = openSqlite(file, { timeout: 0 });
    try {
      db.exec('BEGIN EXCLUSIVE');
      return new InstanceLock(db);
    } catch (e) {
      db.close();
      if ((e as { code?: string }).code?.startsWith('SQLITE_BUSY') || (e as { code?: string }).code === 'SQLITE_LOCKED') return undefined;
      throw e;
    }
  }

  release(): void {
    this.db.close();
  }
}
