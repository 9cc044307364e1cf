// The single-instance lock: an exclusive SQLite lock on SVC_HOME/daemon.lock, held for
// the daemon's life. It is a kernel (fcntl) lock, so it vanishes with the process, even
// after kill -9: a stale lock file can never block the next daemon.
import Database from 'better-sqlite3';

export class InstanceLock {
  private constructor(private readonly db: Database.Database) {}

  /** The lock, or undefined when another daemon holds it. */
  static tryAcquire(file: string): InstanceLock | undefined {
    // A short busy wait, not 0: two daemons starting together both hold a shared lock
    // while they read the schema, and with no wait each would see the other and both
    // would give up, leaving no daemon. With it, one waits for the other to back off.
    const db = new Database(file, { timeout: 1000 });
    try {
      db.pragma('journal_mode = DELETE');
      db.pragma('locking_mode = EXCLUSIVE');
      db.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER)');
      db.exec('BEGIN EXCLUSIVE');
      db.prepare('DELETE FROM holder').run();
      db.prepare('INSERT INTO holder (pid) VALUES (?)').run(process.pid);
      db.exec('COMMIT');
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
