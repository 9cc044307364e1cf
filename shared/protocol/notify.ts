// Notify targets (config.yaml `notify:`): the daemon tells them of each new inbox item by
// itself; the one method here is the person's check that a target works. Sender: the
// shim (`svc notify test`). Who must stay in sync: server/notify/notifyMethods.ts,
// cli/commands/notify.ts and docs/protocol.md ("notify").
import { z } from 'zod';
import { NOTIFY_KINDS } from '../config';
import { request } from './rpc';

export const NotifyTestParams = z
  .object({
    /** A target's `name` under notify: in config.yaml. */
    target: z.string().min(1).max(64),
  })
  .strict();

export const NotifyTestResult = z.object({
  target: z.string(),
  kind: z.enum(NOTIFY_KINDS),
  /** Whether the target acknowledged the test notice (answered 2xx). */
  delivered: z.boolean(),
  /** `HTTP 200`, `HTTP 500`, `network error ECONNREFUSED` …: never the URL or the secret. */
  outcome: z.string(),
});
export type NotifyTestResult = z.infer<typeof NotifyTestResult>;

/** Client → daemon (`svc notify test <target>`), person only. Sends one test notice now, outside the outbox (no retry). */
export const notifyTest = request('notify/test', NotifyTestParams, NotifyTestResult);
