// Daemon lifecycle methods. Senders: the shim (`svc daemon …`) and the extension.
import { z } from 'zod';
import { notification, request } from './rpc';

export const DaemonInfo = z.object({
  pid: z.number().int(),
  version: z.string(),
  build: z.string(),
  socketPath: z.string(),
  httpPort: z.number().int(),
  svcHome: z.string(),
  startedAt: z.number(),
  uptimeMs: z.number(),
  conversations: z.number().int(),
  live: z.number().int(),
});
export type DaemonInfo = z.infer<typeof DaemonInfo>;

/** Client → daemon. Health and identity; the client compares `build` with its own. */
export const daemonStatus = request('daemon/status', z.object({}).strict(), DaemonInfo);

/** Client → daemon. Asks the daemon to stop gracefully (live agents get the stop door). */
export const daemonStop = request(
  'daemon/stop',
  z.object({ reason: z.string().max(200).optional() }).strict(),
  z.object({ stopping: z.literal(true) }),
);

/** What a `svc/changed` says changed; each view re-reads on the topics it shows. */
export const ChangeTopic = z.enum(['conversations', 'lanes', 'runs', 'reviews', 'config', 'transcript']);
export type ChangeTopic = z.infer<typeof ChangeTopic>;

export const ChangedParams = z.object({
  topic: ChangeTopic,
  /** The conversation or issue concerned, when there is one. */
  id: z.union([z.number(), z.string()]).optional(),
});

/** Daemon → every client. Something views show has changed; re-read it. */
export const changed = notification('svc/changed', ChangedParams);

/**
 * Client → daemon (a notification, so nothing waits for it). Whether this connection wants
 * the daemon's notifications (`svc/changed`, `lanes/reported`, `pr/headChanged`); each
 * connection gets them until it says otherwise, and may turn them back on. The shim sends
 * `{notifications: false}` first on every connection (a one-request command has no view to
 * refresh) and turns them on only for a command that follows changes.
 */
export const HelloParams = z.object({ notifications: z.boolean() }).strict();
export const hello = notification('svc/hello', HelloParams);

/** Test client → daemon. Moves the daemon clock forward; refused unless the daemon runs with SVC_TEST_CLOCK=1. */
export const daemonAdvanceClock = request(
  'daemon/advanceClock',
  z
    .object({
      ms: z
        .number()
        .int()
        .min(0)
        .max(366 * 24 * 3600 * 1000),
    })
    .strict(),
  z.object({ now: z.number() }),
);
