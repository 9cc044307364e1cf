// Daemon start and stop: lock, store, config, socket, HTTP, discovery file, features.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { daemonOfHomeAnswers } from '../../shared/client/homeDaemon';
import { checkHomeFolder } from '../../shared/discovery';
import type { Discovery } from '../../shared/discovery';
import { changed } from '../../shared/protocol/daemon';
import { homePaths } from '../../shared/svcHome';
import { SVC_BUILD, SVC_VERSION } from '../../shared/version';
import type { App } from '../app';
import { ConfigStore, writeAtomic } from '../config/configStore';
import { HttpServer } from '../http/httpServer';
import { RpcServer } from '../rpc/rpcServer';
import { backupDue, backupNow } from '../store/backups';
import { refuseLostHistory, writeMarker } from '../store/storeHistory';
import { refuseDamagedStore, refuseForeignStore } from '../store/storeIntegrity';
import { escapeForLog, logger } from '../util/log';
import { openFeatureStore, registerFeatures } from './features';
import { HomeGuard } from './homeGuard';
import { InstanceLock } from './lock';
import { ensurePrivateSocketFolder } from './socketFolder';

const log = logger('daemon');

export interface RunningDaemon {
  app: App;
  stop(reason: string): Promise<void>;
}

/** Starts the daemon for `home`; undefined when another daemon already holds the lock. */
export async function startDaemon(home: string, distDir: string): Promise<RunningDaemon | undefined> {
  const paths = homePaths(home);
  ensurePrivateFolder(home);
  fs.mkdirSync(paths.logs, { recursive: true, mode: 0o700 });
  fs.mkdirSync(paths.agents, { recursive: true, mode: 0o700 });

  const lock = InstanceLock.tryAcquire(paths.lock);
  if (!lock) {
    log.info('another daemon holds the lock; exiting');
    return undefined;
  }
  // The lock file may have been deleted under a daemon that still runs: one that answers
  // keeps the home (it locks the file again within a second).
  const running = await daemonOfHomeAnswers(home, process.pid).catch(() => undefined);
  if (running) {
    lock.release();
    log.warn(`another daemon serves this home (${running}) though daemon.lock was not held; exiting`);
    return undefined;
  }

  try {
    ensurePrivateSocketFolder(paths.socket, home);
    refuseForeignStore(paths.db);
    refuseLostHistory(home, paths.db, paths.agents);
    refuseDamagedStore(home, paths.db);
  } catch (e) {
    lock.release();
    throw e;
  }
  // We hold the lock, so any socket or discovery file left behind is stale.
  fs.rmSync(paths.socket, { force: true });
  fs.rmSync(paths.discovery, { force: true });
  fs.rmSync(paths.stopped, { force: true });

  // Every feature's tables exist before any feature registers (server/daemon/features.ts).
  const db = openFeatureStore(paths.db);
  writeMarker(home, db.prepare('SELECT MAX(id) FROM schema_migrations').pluck().get() as number);
  const token = crypto.randomBytes(32).toString('hex');
  const rpc = new RpcServer({ name: 'svc', version: SVC_VERSION });
  const http = new HttpServer(token);
  const stoppers: (() => Promise<void> | void)[] = [];
  const clock = testClock(process.env.SVC_TEST_CLOCK === '1');
  const notified = new Set<() => void>();
  const app: App = {
    paths,
    db,
    config: new ConfigStore(paths.projects, paths.config),
    rpc,
    http,
    distDir,
    notify: (p) => {
      rpc.broadcast(changed, p);
      for (const fn of notified) fn();
    },
    onNotify: (fn) => {
      notified.add(fn);
      return () => notified.delete(fn);
    },
    onStop: (fn) => stoppers.push(fn),
    now: () => Date.now() + clock.offset,
    clock,
  };

  let stopping: Promise<void> | undefined;
  let guard: HomeGuard | undefined;
  let heal: NodeJS.Timeout | undefined;
  let backups: NodeJS.Timeout | undefined;
  const stop = (reason: string): Promise<void> =>
    (stopping ??= (async () => {
      log.info(`stopping: ${reason}`);
      // Before the agents stop: a dying agent's last `svc` call reads it and does not
      // start this daemon again (shared/client/ensureDaemon.ts).
      writeStoppedMarker(paths.stopped, reason);
      clearInterval(heal);
      clearInterval(backups);
      // Only our own: a file of the daemon that keeps this home stays.
      if (!guard || guard.ownsDiscovery()) fs.rmSync(paths.discovery, { force: true });
      for (const fn of stoppers.reverse()) {
        try {
          await fn();
        } catch (e) {
          log.error('stop hook failed', e);
        }
      }
      await rpc.close();
      await http.close();
      if (!guard || guard.ownsSocket()) fs.rmSync(paths.socket, { force: true });
      // A stopped home keeps a backup of its final state.
      await backupNow(db, home, Date.now()).catch((e) => log.warn('store backup at stop failed', e));
      db.close();
      (guard?.lock ?? lock).release();
      log.info('stopped');
    })());

  registerFeatures(app, stop);
  await rpc.listen(paths.socket);
  fs.chmodSync(paths.socket, 0o600);
  const port = await http.listen(fixedHttpPort(app));

  const discovery: Discovery = {
    pid: process.pid,
    version: SVC_VERSION,
    build: SVC_BUILD,
    socketPath: paths.socket,
    httpPort: port,
    token,
    home: fs.realpathSync(home),
  };
  const discoveryText = JSON.stringify(discovery, null, 2) + '\n';
  writeAtomic(paths.discovery, discoveryText, 0o600);
  const homeGuard = (guard = new HomeGuard(paths, lock, rpc, discoveryText));
  heal = setInterval(() => void homeGuard.check(), 1000);
  heal.unref();
  const backup = () => {
    if (stopping || !backupDue(home, Date.now())) return;
    backupNow(db, home, Date.now()).then(
      (file) => log.info(`backed up the store to ${file}`),
      (e) => log.warn('store backup failed', e),
    );
  };
  backup();
  backups = setInterval(backup, 60_000);
  backups.unref();
  log.info(`started pid ${process.pid} build ${SVC_BUILD} socket ${paths.socket} http 127.0.0.1:${port}`);
  return { app, stop };
}

function writeStoppedMarker(file: string, reason: string): void {
  try {
    // The reason may come from a client (daemon/stop): escaped, since agents print it.
    writeAtomic(
      file,
      JSON.stringify({ reason: escapeForLog(reason, 200), at: new Date().toISOString(), pid: process.pid }) + '\n',
      0o600,
    );
  } catch (e) {
    log.warn(`could not write ${file}`, e);
  }
}

/** `http.port` of config.yaml (0: any free port); an unreadable config leaves it to the OS. */
function fixedHttpPort(app: App): number {
  try {
    return app.config.config().http?.port ?? 0;
  } catch (e) {
    log.warn(`config.yaml unreadable; the HTTP port is any free one: ${(e as Error).message}`);
    return 0;
  }
}

/** The daemon clock: real time plus an offset that only a test daemon may move. */
function testClock(enabled: boolean) {
  const listeners = new Set<() => void>();
  const clock = {
    enabled,
    offset: 0,
    advance(ms: number) {
      if (!enabled) throw new Error('the daemon clock can only be moved when SVC_TEST_CLOCK=1');
      clock.offset += ms;
      for (const fn of [...listeners]) fn();
    },
    onAdvance(fn: () => void) {
      listeners.add(fn);
      return () => void listeners.delete(fn);
    },
  };
  return clock;
}

function ensurePrivateFolder(home: string): void {
  if (!fs.existsSync(home)) fs.mkdirSync(home, { recursive: true, mode: 0o700 });
  checkHomeFolder(home);
}

export function distDirOf(entryFile: string): string {
  return path.dirname(entryFile);
}
