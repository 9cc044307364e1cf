// The single-instance lock: an open `BEGIN EXCLUSIVE` transaction on SVC_HOME/daemon.lock,
// held for the daemon's life. SQLite takes it with an fcntl lock, so it vanishes with the
// process, even after kill -9: a stale lock file can never block the next daemon.
// Normal locking mode, not `locking_mode=EXCLUSIVE`: in that mode a starter keeps its
// shared lock after failing, and two daemons starting together could both give up
// (measured: 2 races in 30 left no daemon). Here the loser lets go and the winner's
// short busy wait outlasts it; nothing is ever written, so no journal is left behind.
import Database from 'better-sqlite3';

export class InstanceLock {
  private constructor(private readonly db: Database.Database) {}

  /** The lock, or undefined when another daemon holds it. */
  static tryAcquire(file: string): InstanceLock | undefined {
    const db = new Database(file, { timeout: 1000 });
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
