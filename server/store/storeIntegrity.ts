// Checks of svc.db before the daemon trusts it: the file is the user's own real file (not
// a symlink that could lead anywhere, not another user's), and SQLite's quick_check finds
// no damage. A damaged store served anyway would answer lists and take new work on pages
// that may already be lost; refusing names the newest backup that passes the same check
// and the commands that restore it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { backupsDir } from './backups';
import { openSqlite } from './sqlite';

export class StoreRefused extends Error {}

/** Refuses a svc.db that is a symlink or owned by another user. Call before opening it. */
export function refuseForeignStore(dbFile: string): void {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(dbFile);
  } catch {
    return; // none yet: the daemon creates it
  }
  if (st.isSymbolicLink()) {
    throw new StoreRefused(
      `${dbFile} is a symlink (to ${fs.readlinkSync(dbFile)}); svc refuses it: the store must be a file in SVC_HOME that only you control. Move the file it leads to in its place (mv, after checking it is yours), then run svc again`,
    );
  }
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) {
    throw new StoreRefused(
      `${dbFile} belongs to uid ${st.uid}, not to you (uid ${uid}); svc refuses a store another user can change. Use your own SVC_HOME, or have its owner hand the file over (chown), then run svc again`,
    );
  }
}

/** The first problem quick_check reports for `file`, or undefined when it is sound. */
export function quickCheckProblem(file: string): string | undefined {
  let db;
  try {
    db = openSqlite(file, { readonly: true, fileMustExist: true });
    const rows = db.pragma('quick_check(5)', { simple: false }) as { quick_check: string }[];
    const problems = rows.map((r) => r.quick_check).filter((r) => r !== 'ok');
    return problems.length ? problems.join('; ') : undefined;
  } catch (e) {
    return (e as Error).message;
  } finally {
    db?.close();
  }
}

/** Refuses a damaged svc.db, naming the newest backup that passes quick_check. */
export function refuseDamagedStore(home: string, dbFile: string): void {
  if (!fs.existsSync(dbFile) || fs.statSync(dbFile).size === 0) return;
  const problem = quickCheckProblem(dbFile);
  if (problem === undefined) return;
  const good = newestGoodBackup(home);
  const restore = good
    ? `Restore the newest good backup: mv '${dbFile}' '${dbFile}.damaged' && rm -f '${dbFile}-wal' '${dbFile}-shm' && cp '${good}' '${dbFile}' && chmod 600 '${dbFile}', then run svc again (work recorded after ${fs.statSync(good).mtime.toISOString()} is not in it)`
    : `No backup in ${backupsDir(home)} passes the check: restore svc.db from a backup of your own, or move it away (mv '${dbFile}' '${dbFile}.damaged') to start with an empty store, then run svc again`;
  throw new StoreRefused(
    `${dbFile} is damaged (SQLite quick_check: ${problem.slice(0, 300)}); svc will not serve a damaged store. ${restore}.`,
  );
}

function newestGoodBackup(home: string): string | undefined {
  let names: string[];
  try {
    names = fs.readdirSync(backupsDir(home)).filter((n) => /^svc-\d{8}T\d{6}Z\.db$/.test(n));
  } catch {
    return undefined;
  }
  for (const n of names.sort().reverse()) {
    const file = path.join(backupsDir(home), n);
    if (quickCheckProblem(file) === undefined) return file;
  }
  return undefined;
}
