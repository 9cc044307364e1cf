// daemon/status and daemon/stop.
import { daemonAdvanceClock, daemonStatus, daemonStop } from '../../shared/protocol/daemon';
import { SVC_BUILD, SVC_VERSION } from '../../shared/version';
import type { App } from '../app';
import { clockFixedError } from './daemonRefusals';

const startedAt = Date.now();

export function registerDaemonMethods(
  app: App,
  stop: (reason: string) => Promise<void>,
  counts: () => { conversations: number; live: number },
): void {
  const info = () => ({
    pid: process.pid,
    version: SVC_VERSION,
    build: SVC_BUILD,
    socketPath: app.paths.socket,
    httpPort: app.http.port,
    svcHome: app.paths.home,
    startedAt,
    uptimeMs: Date.now() - startedAt,
    ...counts(),
  });
  app.rpc.handle(daemonStatus, () => info());
  app.rpc.handle(daemonStop, (p) => {
    // Answer first, then stop: the client is waiting for the reply.
    setTimeout(() => void stop(p.reason ?? 'requested by a client').then(() => process.exit(0)), 10);
    return { stopping: true as const };
  });
  app.rpc.handle(daemonAdvanceClock, (p) => {
    if (!app.clock.enabled) throw clockFixedError();
    app.clock.advance(p.ms);
    return { now: app.now() };
  });
  app.http.route('GET', '/api/health', () => ({ status: 200, body: { ok: true, ...info() } }));
}
