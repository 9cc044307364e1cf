// A store that lost its history must not be mistaken for a new one. Outside svc.db the
// home keeps evidence that a store existed (a marker written after every open, and the
// agents' folders); a daemon that finds that evidence beside an empty svc.db refuses to
// start, naming the newest backup and the commands that restore it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { writeAtomic } from '../config/configStore';
import { newestBackup } from './backups';

export const MARKER = 'store.json';

export class StoreLostHistory extends Error {}

/** True when `file` holds no applied migration: absent, 0 bytes, or without its schema table. */
function isEmptyStore(file: string): boolean {
  let st: fs.Stats;
  try {
    st = fs.statSync(file);
  } catch {
    return true;
  }
  if (st.size === 0) return true;
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
    return !table || (db.prepare('SELECT COUNT(*) FROM schema_migrations').pluck().get() as number) === 0;
  } catch {
    return false; // not a database at all: let the open fail with SQLite's own message
  } finally {
    db?.close();
  }
}

/** Refuses an empty svc.db in a home that shows a store existed. Call before opening it. */
export function refuseLostHistory(home: string, dbFile: string, agentsDir: string): void {
  if (!isEmptyStore(dbFile)) return;
  const evidence: string[] = [];
  const marker = path.join(home, MARKER);
  if (fs.existsSync(marker)) evidence.push(`${MARKER} records a store of schema ${readMarker(marker) ?? 'unknown'}`);
  const agents = fs.existsSync(agentsDir) ? fs.readdirSync(agentsDir).filter((n) => n.startsWith('conv-')).length : 0;
  if (agents > 0) evidence.push(`${agents} agent folder${agents === 1 ? '' : 's'} in ${agentsDir}`);
  if (evidence.length === 0) return;
  const backup = newestBackup(home);
  const restore = backup
    ? `restore the newest backup: rm -f '${dbFile}-wal' '${dbFile}-shm' && cp '${backup}' '${dbFile}' && chmod 600 '${dbFile}', then run svc again`
    : `restore svc.db from your own backup, then run svc again (svc found none in ${path.join(home, 'backups')})`;
  throw new StoreLostHistory(
    `${dbFile} is empty, but this home had a store (${evidence.join('; ')}): it was truncated or deleted while the daemon was stopped, and svc will not start on an empty store. To ${restore}. To start over on purpose, move '${marker}' and '${agentsDir}' away first.`,
  );
}

/** Records, outside the database, that this home has a store (and its schema). */
export function writeMarker(home: string, schema: number): void {
  writeAtomic(path.join(home, MARKER), JSON.stringify({ schema }) + '\n', 0o600);
}

function readMarker(file: string): number | undefined {
  try {
    const v = (JSON.parse(fs.readFileSync(file, 'utf8')) as { schema?: unknown }).schema;
    return typeof v === 'number' ? v : undefined;
  } catch {
    return undefined;
  }
}
