// The folder of a socket that lives outside SVC_HOME (a long home; see shared/svcHome.ts)
// must be private to this user before the daemon listens in it: another local user who
// created it first could otherwise block the daemon or stand in for it.
import * as fs from 'node:fs';
import * as path from 'node:path';

export class SocketFolderRefused extends Error {}

/** Creates the socket's folder 0700 when absent; refuses one another user owns or may write. */
export function ensurePrivateSocketFolder(socketPath: string, home: string): void {
  if (process.platform === 'win32') return;
  const dir = path.dirname(socketPath);
  if (dir === home) return;
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  const st = fs.lstatSync(dir);
  const uid = process.getuid?.() ?? 0;
  const fix = `remove it (as its owner or root) or set XDG_RUNTIME_DIR to a folder only you can use, then run svc again`;
  if (st.isSymbolicLink() || !st.isDirectory()) {
    throw new SocketFolderRefused(
      `socket folder ${dir} is not a plain folder (a symlink or a file); svc refuses to listen there: ${fix}`,
    );
  }
  if (st.uid !== uid) {
    throw new SocketFolderRefused(
      `socket folder ${dir} belongs to uid ${st.uid}, not to you (uid ${uid}); svc refuses to listen there: ${fix}`,
    );
  }
  if ((st.mode & 0o077) !== 0) {
    throw new SocketFolderRefused(
      `socket folder ${dir} has mode ${(st.mode & 0o777).toString(8)}, so other users can reach it; svc needs 700 (run: chmod 700 '${dir}')`,
    );
  }
}
