// The store: one SQLite file per SVC_HOME. WAL, foreign keys, synchronous=FULL
// (everything acknowledged to a caller is on disk), migrations at open: the lists the
// caller names (the daemon: every feature's, server/daemon/features.ts).
import type Database from 'better-sqlite3';
import { inOrder } from './migrations';
import type { Migration } from './migrations';
import { ensurePrivateFile } from './privateFile';
import { openSqlite } from './sqlite';

export type Db = Database.Database;

export function openDb(file: string, migrations: readonly (readonly Migration[])[]): Db {
  if (file !== ':memory:') ensurePrivateFile(file);
  const db = openSqlite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  migrate(db, inOrder(migrations));
  return db;
}

function migrate(db: Db, migrations: Migration[]): void {
  db.exec(
    `CREATE TABLE IF NOT EXISTS schema_migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`,
  );
  const applied = new Set(db.prepare('SELECT id FROM schema_migrations').pluck().all() as number[]);
  for (const m of migrations) {
    if (applied.has(m.id)) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migrations (id, name, applied_at) VALUES (?, ?, ?)').run(m.id, m.name, Date.now());
    })();
  }
}
