// Where svc keeps its state. Shared by the daemon, the shim and the extension, so
// they always agree on one SVC_HOME.
import { homedir, tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

export function svcHomeFrom(env: NodeJS.ProcessEnv): string {
  const fromEnv = env.SVC_HOME;
  if (fromEnv && fromEnv.trim() !== '') return resolve(fromEnv);
  return join(env.HOME && env.HOME !== '' ? env.HOME : homedir(), '.svc');
}

export const homePaths = (home: string) => ({
  home,
  discovery: join(home, 'server.json'),
  lock: join(home, 'daemon.lock'),
  /** Written when the daemon stops on purpose, removed when one starts: a crash leaves none. */
  stopped: join(home, 'daemon.stopped'),
  db: join(home, 'svc.db'),
  logs: join(home, 'logs'),
  daemonLog: join(home, 'logs', 'daemon.log'),
  projects: join(home, 'projects.yaml'),
  config: join(home, 'config.yaml'),
  agents: join(home, 'agents'),
  socket: defaultSocketPath(home),
});

/** Unix socket paths are limited to ~107 bytes. A longer home puts its socket in a
 *  private per-user folder: `$XDG_RUNTIME_DIR` (0700 by the XDG rules), else
 *  `<tmp>/svc-<uid>/`, which the daemon creates 0700 and refuses when another user
 *  owns it or others may write it (server/daemon/socketFolder.ts). Never a predictable
 *  name directly in a shared folder, where another user could take it first. */
function defaultSocketPath(home: string): string {
  if (process.platform === 'win32') return `\\\\.\\pipe\\svc-${hash(home)}`;
  const p = join(home, 'svc.sock');
  if (Buffer.byteLength(p) <= 100) return p;
  const name = `svc-${hash(home)}.sock`;
  const runtime = process.env.XDG_RUNTIME_DIR;
  if (runtime && isAbsolute(runtime) && Buffer.byteLength(join(runtime, name)) <= 100) return join(runtime, name);
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
  return join(tmpdir(), `svc-${uid}`, name);
}

function hash(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}
