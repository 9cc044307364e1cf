// Whether a daemon already serves an SVC_HOME even though its lock file or socket was
// deleted: a second daemon on one home would rewrite its files against the first. Asked by
// a client before it starts a daemon and by a daemon that just took the lock.
import { existsSync, realpathSync } from 'node:fs';
import { readDiscovery } from '../discovery';
import { homePaths } from '../svcHome';
import { isAlive, tryConnect } from './daemonProcess';

/** How the running daemon of `home` answers, or undefined when none does. `selfPid` is
 *  the asking daemon, which must not find itself. */
export async function daemonOfHomeAnswers(home: string, selfPid?: number): Promise<string | undefined> {
  const paths = homePaths(home);
  let d;
  try {
    d = readDiscovery(paths.discovery);
  } catch {
    d = undefined; // a refused file is the client's to report; it names no live daemon here
  }
  if (d && d.pid !== selfPid && isAlive(d.pid)) {
    const health = await healthOf(d.httpPort, d.token);
    if (health && health.pid === d.pid && sameFolder(health.svcHome, home))
      return `daemon pid ${d.pid} answers on http://127.0.0.1:${d.httpPort}`;
  }
  if (selfPid !== undefined && existsSync(paths.socket)) {
    const socket = await tryConnect(paths.socket, 1000);
    if (socket) {
      socket.destroy();
      return `a daemon answers on ${paths.socket}`;
    }
  }
  return undefined;
}

function sameFolder(a: unknown, b: string): boolean {
  if (typeof a !== 'string') return false;
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return a === b;
  }
}

/** The daemon's /api/health answer, proving it holds the token of the discovery file. */
async function healthOf(port: number, token: string): Promise<{ pid?: unknown; svcHome?: unknown } | undefined> {
  // Loaded only here: the shim's every run does without an HTTP client.
  const http = await import('node:http');
  return new Promise((resolve) => {
    const req = http.get(
      { host: '127.0.0.1', port, path: '/api/health', headers: { authorization: `Bearer ${token}` }, timeout: 2000 },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          if (body.length < 65_536) body += c;
        });
        res.on('end', () => {
          try {
            resolve(res.statusCode === 200 ? (JSON.parse(body) as { pid?: unknown; svcHome?: unknown }) : undefined);
          } catch {
            resolve(undefined);
          }
        });
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(undefined));
  });
}
