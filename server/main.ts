// Daemon entry point: `node dist/daemon.js`, normally started detached by the shim or
// the extension with SVC_HOME set and stdout/stderr going to SVC_HOME/logs/daemon.log.
import { svcHomeFrom, homePaths } from '../shared/svcHome';
import { startDaemon, distDirOf } from './daemon/daemon';
import { bindingForThisNode } from '../shared/node/nativeBinding';
import { useNativeBinding } from './store/sqlite';
import { logger, logLine, logToFile } from './util/log';
import * as fs from 'node:fs';

const log = logger('main');

async function main(): Promise<void> {
  const home = svcHomeFrom(process.env);
  const paths = homePaths(home);
  if (fs.existsSync(paths.logs)) logToFile(paths.daemonLog);
  const distDir = distDirOf(__filename);
  // Before anything opens a database: the SQLite binary built for this Node, or a refusal.
  const binding = bindingForThisNode(distDir);
  if (!binding.ok) throw new Error(binding.message);
  useNativeBinding(binding.file);
  const running = await startDaemon(home, distDir);
  if (!running) process.exit(0);
  logToFile(paths.daemonLog);
  log.info(
    `running on Node ${process.version} (ABI ${process.versions.modules}, ${process.execPath}) with the SQLite module ${binding.file}`,
  );
  const shutdown = (sig: string) => void running.stop(sig).then(() => process.exit(0));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGHUP', () => undefined); // detached: a closing terminal must not stop us
  process.on('uncaughtException', (e) => log.error('uncaught exception (daemon keeps running)', e));
  process.on('unhandledRejection', (e) => log.error('unhandled rejection (daemon keeps running)', e));
}

main().catch((e) => {
  log.error('daemon failed to start', e);
  // Clients quote this line (shared/client/ensureDaemon.ts): the current log file gets it.
  logLine(`svc daemon failed to start: ${(e as Error).message}`);
  process.exit(1);
});
