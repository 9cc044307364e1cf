// The facts keeper's process (factsKeeper.ts), started detached by a daemon that found none
// (keeperLink.ts) and outliving it: `node factsKeeper.js <socket> <svc home>`. It ends when
// asked (a daemon of another protocol), when its socket or SVC_HOME is gone (a removed home,
// a test's scratch), when another keeper took the socket, or after IDLE_MS without a request
// (no daemon has asked for hours: its watches are let go).
import * as fs from 'node:fs';
import { FactsKeeper } from './factsKeeper';
import { serveKeeper } from './factsKeeperServer';

const IDLE_MS = 6 * 3600_000;
const CHECK_MS = 2000;

/** A quarter of the kernel's per-user inotify watches: the person's editor and tools share the rest. */
function folderBudget(): number {
  try {
    const max = Number(fs.readFileSync('/proc/sys/fs/inotify/max_user_watches', 'utf8').trim());
    if (max > 0) return Math.floor(max / 4);
  } catch {
    // not Linux: the platform watches trees natively
  }
  return 100_000;
}

async function main(): Promise<void> {
  const [socketPath, home] = process.argv.slice(2);
  if (!socketPath || !home) throw new Error('usage: factsKeeper <socket> <svc home>');
  const served = await serveKeeper(socketPath, new FactsKeeper(folderBudget()), () => process.exit(0));
  const ours = fs.statSync(socketPath).ino;
  setInterval(() => {
    let stillOurs = false;
    try {
      stillOurs = fs.statSync(socketPath).ino === ours && fs.existsSync(home);
    } catch {
      stillOurs = false;
    }
    // Not ours any more: exit without closing the server, whose close would unlink the
    // socket path, now another keeper's.
    if (!stillOurs) process.exit(0);
    if (Date.now() - served.lastRequest() > IDLE_MS) {
      served.close();
      process.exit(0);
    }
  }, CHECK_MS);
}

main().catch((e: unknown) => {
  process.stderr.write(`facts keeper: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
