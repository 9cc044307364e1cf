// SVC_HOME's files are the user's alone (0600 in a 0700 folder): SQLite creates a file
// with the process umask (0644 here) and gives its journals the file's mode, so the file
// is made, or narrowed, to 0600 before SQLite opens it.
import * as fs from 'node:fs';

export function ensurePrivateFile(file: string): void {
  if (process.platform === 'win32') return;
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  const st = fs.statSync(file);
  if ((st.mode & 0o077) !== 0 && st.uid === process.getuid?.()) fs.chmodSync(file, 0o600);
}
