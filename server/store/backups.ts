// Rotating online backups of svc.db through SQLite's backup API (consistent while the
// daemon writes): SVC_HOME/backups/svc-<UTC time>.db, mode 0600, the newest KEEP kept.
// One at daemon start when the newest is older than the interval, then one per interval.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Db } from './db';

export const BACKUP_KEEP = 5;
export const BACKUP_INTERVAL_MS = 60 * 60 * 1000;
const NAME = /^svc-\d{8}T\d{6}Z\.db$/;

export const backupsDir = (home: string) => path.join(home, 'backups');

function listBackups(home: string): string[] {
  try {
    return fs
      .readdirSync(backupsDir(home))
      .filter((n) => NAME.test(n))
      .sort();
  } catch {
    return [];
  }
}

/** Absolute path of the newest backup, if any. */
export function newestBackup(home: string): string | undefined {
  const all = listBackups(home);
  return all.length ? path.join(backupsDir(home), all[all.length - 1]) : undefined;
}

const stamp = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z');

/** Takes one backup now and drops the oldest beyond BACKUP_KEEP. */
export async function backupNow(db: Db, home: string, now: number): Promise<string> {
  fs.mkdirSync(backupsDir(home), { recursive: true, mode: 0o700 });
  const file = path.join(backupsDir(home), `svc-${stamp(now)}.db`);
  const partial = `${file}.partial`;
  fs.rmSync(partial, { force: true });
  fs.closeSync(fs.openSync(partial, 'w', 0o600)); // SQLite keeps an existing file's mode
  await db.backup(partial);
  fs.chmodSync(partial, 0o600);
  fs.renameSync(partial, file);
  const all = listBackups(home);
  for (const old of all.slice(0, Math.max(0, all.length - BACKUP_KEEP)))
    fs.rmSync(path.join(backupsDir(home), old), { force: true });
  return file;
}

/** Whether the newest backup is older than the interval (or there is none). */
export function backupDue(home: string, now: number): boolean {
  const newest = newestBackup(home);
  if (!newest) return true;
  return now - fs.statSync(newest).mtimeMs >= BACKUP_INTERVAL_MS;
}
