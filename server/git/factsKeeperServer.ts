// The facts keeper's socket (factsKeeper.ts): one JSON request a line, answered in order.
// Each request is handled on the next turn of the event loop, after the watch events the
// kernel had queued when it arrived: a change the daemon's git saw before it sent `keep` or
// `recall` is heard before the request is, so it cannot be kept or recalled past.
import * as fs from 'node:fs';
import * as net from 'node:net';
import type { FactsKeeper } from './factsKeeper';
import { KEEPER_PROTOCOL } from './factsKeeperProtocol';
import type { KeeperAnswer, KeeperRequest } from './factsKeeperProtocol';

/** A line longer than this is not a request of the daemon's: the connection is closed. */
const MAX_LINE = 4 << 20;

export interface KeeperServer {
  keeper: FactsKeeper;
  server: net.Server;
  /** When a request last arrived (ms since the epoch). */
  lastRequest(): number;
  close(): void;
}

/** Listens on `socketPath` (replacing a stale socket file) and answers for `keeper`. */
export async function serveKeeper(
  socketPath: string,
  keeper: FactsKeeper,
  onQuit: () => void = () => undefined,
): Promise<KeeperServer> {
  let last = Date.now();
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let buffered = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      if (buffered.length > MAX_LINE) return socket.destroy();
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        last = Date.now();
        setImmediate(() => {
          const answer = answerOf(keeper, line, onQuit);
          if (answer && !socket.destroyed) socket.write(`${JSON.stringify(answer)}\n`);
        });
      }
    });
  });
  fs.rmSync(socketPath, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  fs.chmodSync(socketPath, 0o600);
  return {
    keeper,
    server,
    lastRequest: () => last,
    close: () => {
      server.close();
      for (const s of sockets) s.destroy();
      keeper.close();
    },
  };
}

function answerOf(keeper: FactsKeeper, line: string, onQuit: () => void): KeeperAnswer | undefined {
  let r: KeeperRequest;
  try {
    r = JSON.parse(line) as KeeperRequest;
  } catch {
    return undefined;
  }
  try {
    switch (r.op) {
      case 'hello':
        return { id: r.id, protocol: KEEPER_PROTOCOL, pid: process.pid };
      case 'watch':
        return { id: r.id, ...keeper.watch(r.dir, r.commonDir) };
      case 'keep':
        return { id: r.id, kept: keeper.keep(r.dir, r.gen, r.facts, r.context) };
      case 'recall': {
        const facts: Record<string, ReturnType<FactsKeeper['recall']>> = {};
        for (const dir of r.dirs) {
          const f = keeper.recall(dir, r.context);
          if (f) facts[dir] = f;
        }
        return { id: r.id, facts: facts as Record<string, NonNullable<(typeof facts)[string]>> };
      }
      case 'forget':
        keeper.forget(r.dir);
        return { id: r.id, done: true };
      case 'quit':
        setImmediate(onQuit);
        return { id: r.id, done: true };
      default:
        return { id: (r as { id: number }).id, error: 'unknown request' };
    }
  } catch (e) {
    return { id: r.id, error: e instanceof Error ? e.message : String(e) };
  }
}
