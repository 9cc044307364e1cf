// Reconnect delays after the daemon connection drops: quick at first (a restart takes a
// second or two), then capped so a stopped daemon costs one discovery-file read per cap.
// Reconnecting only attaches to a daemon someone started; it never starts one, so a
// daemon that keeps dying can never become a restart loop (see reconnect in daemonConnection.ts).
export const BACKOFF_FIRST_MS = 250;
export const BACKOFF_CAP_MS = 10_000;

export function backoffDelay(attempt: number): number {
  return Math.min(BACKOFF_FIRST_MS * 2 ** Math.max(0, attempt), BACKOFF_CAP_MS);
}
