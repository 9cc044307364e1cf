// The daemon's composition context: what every feature module receives. Features
// register their RPC methods and HTTP routes from a `register…(app)` call in
// server/daemon/features.ts; their migrations are listed there too and have run by then
// (the daemon opens `db` with them first). Nothing else is global.
import type { z } from 'zod';
import type { ChangedParams } from '../shared/protocol/daemon';
import type { homePaths } from '../shared/svcHome';
import type { ConfigStore } from './config/configStore';
import type { HttpServer } from './http/httpServer';
import type { RpcServer } from './rpc/rpcServer';
import type { Db } from './store/db';

export interface TestClock {
  /** Moves app.now() forward; time-based rules (idle 10 minutes, review stall) re-check. */
  advance(ms: number): void;
  /** Called after every advance; returns an unsubscribe. */
  onAdvance(fn: () => void): () => void;
  readonly enabled: boolean;
}

export interface App {
  paths: ReturnType<typeof homePaths>;
  db: Db;
  config: ConfigStore;
  rpc: RpcServer;
  http: HttpServer;
  /** Absolute folder holding the built bundles (dist/): the shim, the script agent. */
  distDir: string;
  /** Tells every client that something changed (views re-read; no polling). */
  notify(params: z.input<typeof ChangedParams>): void;
  /** Calls `fn` after every notify (what is read at read time, such as the inbox, re-reads); returns an unsubscribe. */
  onNotify(fn: () => void): () => void;
  /** Run at graceful stop, newest first. */
  onStop(fn: () => Promise<void> | void): void;
  /** Milliseconds since the epoch; tests may move it forward (see `clock`). */
  now: () => number;
  /** The daemon clock. `advance` exists only when the daemon runs with SVC_TEST_CLOCK=1. */
  clock: TestClock;
}
