// The single-instance lock: an open `BEGIN EXCLUSIVE` transaction on SVC_HOME/daemon.lock,
// held for the daemon's life. SQLite takes it with an fcntl lock, so it vanishes with the
// process, even after kill -9: a stale lock file can never block the next daemon.
// Normal locking mode, not `locking_mode=EXCLUSIVE`: in that mode a starter keeps its
// shared lock after failing, and five daemons starting together left no winner in 2 of
// 30 runs; here 40 of 40 had exactly one. No busy wait: a loser that waited could win
// the lock of a daemon being stopped and come up after `svc daemon stop`. Should two
// starters still both lose, their clients start another (shared/client/ensureDaemon.ts).
// Nothing is ever written, so no journal is left behind.
// A kernel lock lives on the file, not the name: once daemon.lock is deleted, a starter
// would lock a new file of that name. So the daemon checks every second that the name
// still leads to its locked file and locks it again when not (server/daemon/homeGuard.ts).
import type Database from 'better-sqlite3';
import * as fs from 'node:fs';
import { ensurePrivateFile } from '../store/privateFile';
import { openSqlite } from '../store/sqlite';

export class InstanceLock {
  private constructor(
    private readonly db: Database.Database,
    private readonly id: string,
  ) {}

  /** The lock, or undefined when another daemon holds it. */
  static tryAcquire(file: string): InstanceLock | undefined {
    ensurePrivateFile(file);
    const db = openSqlite(file, { timeout: 0 });
    try {
      db.exec('BEGIN EXCLUSIVE');
      return new InstanceLock(db, identity(file) ?? '');
    } catch (e) {
      db.close();
      if ((e as { code?: string }).code?.startsWith('SQLITE_BUSY') || (e as { code?: string }).code === 'SQLITE_LOCKED')
        return undefined;
      throw e;
    }
  }

  /** Whether `file` is still the file this lock holds (not deleted, not replaced). */
  isAt(file: string): boolean {
    return identity(file) === this.id;
  }

  release(): void {
    this.db.close();
  }
}

function identity(file: string): string | undefined {
  try {
    const st = fs.statSync(file);
    return `${st.dev}:${st.ino}`;
  } catch {
    return undefined;
  }
}
