// Every SQLite database of the process opens through here, so all of them use the
// better-sqlite3 binary chosen for the running Node (nativeBinding.ts). Code run from
// source (unit tests) chooses none and gets the package's own build in node_modules.
import Database from 'better-sqlite3';

let binding: string | undefined;

/** Loads `file` once (so a binary that does not fit fails here, with its reason) and uses it for every later open. */
export function useNativeBinding(file: string): void {
  try {
    new Database(':memory:', { nativeBinding: file }).close();
  } catch (e) {
    throw new Error(
      `the SQLite module ${file} does not load on Node ${process.version} (${process.execPath}): ${(e as Error).message}`,
    );
  }
  binding = file;
}

export function openSqlite(file: string, options: Database.Options = {}): Database.Database {
  return new Database(file, binding ? { ...options, nativeBinding: binding } : options);
}
