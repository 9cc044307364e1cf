// When a failed event is tried again, and when svc stops trying: exponential backoff from
// a base delay (10 s; SVC_NOTIFY_RETRY_BASE_MS in the daemon's environment shortens it
// for tests), each delay capped at 30 minutes, given up after MAX_ATTEMPTS attempts
// (about 72 minutes of trying with the default base).
export const DEFAULT_RETRY_BASE_MS = 10_000;
export const MAX_DELAY_MS = 30 * 60 * 1000;
export const MAX_ATTEMPTS = 10;

/** The delay after the `attempts`-th failed attempt (1-based): base, 2·base, 4·base … capped. */
export function retryDelayMs(attempts: number, baseMs: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempts - 1), MAX_DELAY_MS);
}

/** When to try again after the `attempts`-th failed attempt, or null: give up. */
export function nextAttemptAt(attempts: number, now: number, baseMs: number): number | null {
  return attempts >= MAX_ATTEMPTS ? null : now + retryDelayMs(attempts, baseMs);
}

/** The base delay from the daemon's environment: whole milliseconds 1 to 600000, else the default. */
export function retryBaseFromEnv(env: NodeJS.ProcessEnv): number {
  const raw = env.SVC_NOTIFY_RETRY_BASE_MS;
  if (raw === undefined || !/^\d{1,6}$/.test(raw)) return DEFAULT_RETRY_BASE_MS;
  const n = Number(raw);
  return n >= 1 && n <= 600_000 ? n : DEFAULT_RETRY_BASE_MS;
}
