// The discovery file SVC_HOME/server.json: how clients find the daemon. Written by
// server/daemon, read by the shim and the extension. Mode 0600 in a 0700 folder;
// readers refuse a symlink or a wrong mode rather than trust another user's file.
import { lstatSync, readFileSync, realpathSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { basename, dirname } from 'node:path';
import { homePaths } from './svcHome';

// Checked by hand, not with zod: the shim reads this file on every run and must stay light.
export interface Discovery {
  pid: number;
  version: string;
  build: string;
  socketPath: string;
  httpPort: number;
  token: string;
  /** The real path of the SVC_HOME this daemon serves. Absent in files of older builds. */
  home?: string;
}

function isDiscovery(v: unknown): v is Discovery {
  const d = v as Partial<Discovery> | null;
  return (
    typeof d === 'object' &&
    d !== null &&
    Number.isInteger(d.pid) &&
    (d.pid as number) > 0 &&
    typeof d.version === 'string' &&
    typeof d.build === 'string' &&
    typeof d.socketPath === 'string' &&
    Number.isInteger(d.httpPort) &&
    (d.httpPort as number) > 0 &&
    (d.httpPort as number) < 65536 &&
    typeof d.token === 'string' &&
    d.token.length >= 32 &&
    (d.home === undefined || typeof d.home === 'string')
  );
}

export class DiscoveryError extends Error {}

/** Refuses a home folder that is a symlink, another user's, or readable by others. */
export function checkHomeFolder(home: string): void {
  const st = lstatSync(home);
  if (st.isSymbolicLink())
    throw new DiscoveryError(`${home} is a symlink; svc refuses to use it (set SVC_HOME to a real folder)`);
  if (!st.isDirectory()) throw new DiscoveryError(`${home} is not a folder`);
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) {
    throw new DiscoveryError(
      `${home} belongs to uid ${st.uid}, not to you (uid ${uid}); svc refuses an SVC_HOME another user controls (set SVC_HOME to a folder of your own)`,
    );
  }
  if (process.platform !== 'win32' && (st.mode & 0o077) !== 0) {
    throw new DiscoveryError(
      `${home} has mode ${(st.mode & 0o777).toString(8)}; svc needs 700 (run: chmod 700 '${home}')`,
    );
  }
}

/** Reads and checks server.json; undefined when there is none. */
export function readDiscovery(file: string): Discovery | undefined {
  let st: Stats;
  try {
    st = lstatSync(file);
  } catch {
    return undefined;
  }
  if (st.isSymbolicLink())
    throw new DiscoveryError(`${file} is a symlink; svc refuses it (remove it and run svc again)`);
  if (process.platform !== 'win32' && (st.mode & 0o777) !== 0o600) {
    throw new DiscoveryError(
      `${file} has mode ${(st.mode & 0o777).toString(8)}; svc needs 600 (remove it and run svc again)`,
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined; // half-written or garbage: treated as absent, the daemon rewrites it
  }
  return isDiscovery(raw) && servesHomeOf(file, raw) ? raw : undefined;
}

/** Whether the daemon a discovery file names serves the home the file lies in. A file
 *  copied from another home names that home's daemon: trusting it would send this home's
 *  commands (a stop, say) to a daemon that keeps another home's work. Such a file counts as
 *  absent, so a daemon of this home starts and replaces it. A file of an older build names
 *  no home; its socket must then be this folder's (in it, or named by its hash). */
function servesHomeOf(file: string, d: Discovery): boolean {
  const folder = dirname(file);
  if (d.home !== undefined) return d.home === realPathOr(folder);
  return dirname(d.socketPath) === folder || basename(d.socketPath) === basename(homePaths(folder).socket);
}

function realPathOr(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}
