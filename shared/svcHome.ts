// Where svc keeps its state. Shared by the daemon, the shim and the extension, so
// they always agree on one SVC_HOME.
import * as os from 'node:os';
import * as path from 'node:path';

export function svcHomeFrom(env: NodeJS.ProcessEnv): string {
  const fromEnv = env.SVC_HOME;
  if (fromEnv && fromEnv.trim() !== '') return path.resolve(fromEnv);
  return path.join(env.HOME && env.HOME !== '' ? env.HOME : os.homedir(), '.svc');
}

export const homePaths = (home: string) => ({
  home,
  discovery: path.join(home, 'server.json'),
  lock: path.join(home, 'daemon.lock'),
  /** Written when the daemon stops on purpose, removed when one starts: a crash leaves none. */
  stopped: path.join(home, 'daemon.stopped'),
  db: path.join(home, 'svc.db'),
  logs: path.join(home, 'logs'),
  daemonLog: path.join(home, 'logs', 'daemon.log'),
  projects: path.join(home, 'projects.yaml'),
  config: path.join(home, 'config.yaml'),
  agents: path.join(home, 'agents'),
  socket: defaultSocketPath(home),
});

/** Unix socket paths are limited to ~107 bytes. A longer home puts its socket in a
 *  private per-user folder: `$XDG_RUNTIME_DIR` (0700 by the XDG rules), else
 *  `<tmp>/svc-<uid>/`, which the daemon creates 0700 and refuses when another user
 *  owns it or others may write it (server/daemon/socketFolder.ts). Never a predictable
 *  name directly in a shared folder, where another user could take it first. */
function defaultSocketPath(home: string): string {
  if (process.platform === 'win32') return `\\\\.\\pipe\\svc-${hash(home)}`;
  const p = path.join(home, 'svc.sock');
  if (Buffer.byteLength(p) <= 100) return p;
  const name = `svc-${hash(home)}.sock`;
  const runtime = process.env.XDG_RUNTIME_DIR;
  if (runtime && path.isAbsolute(runtime) && Buffer.byteLength(path.join(runtime, name)) <= 100)
    return path.join(runtime, name);
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
  return path.join(os.tmpdir(), `svc-${uid}`, name);
}

function hash(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}
