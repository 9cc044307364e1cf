// The Octokit client every GitHub host uses: @octokit/rest with @octokit/plugin-retry
// (5xx and network failures are retried, with growing waits) and
// @octokit/plugin-throttling (GitHub's request spacing, and a retry after a primary or
// secondary rate limit or a 429 when the wait is short). A limit that would keep svc
// waiting longer comes back as `githubRateLimited` with the time to try again, never as
// "GitHub forbade it". GitHub asks for a second between content-creating requests; an
// API root on this machine (a test fake, a local proxy) is not GitHub and is not spaced.
import { Octokit } from '@octokit/rest';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import Bottleneck from 'bottleneck/light.js';
import { logger } from '../../util/log';

const log = logger('github');
const REQUEST_TIMEOUT_MS = 30_000;
/** The longest wait for a rate limit that svc sits out; longer ones are reported. */
const MAX_RATE_LIMIT_WAIT_S = 60;
const MAX_RATE_LIMIT_RETRIES = 2;

const GithubOctokit = Octokit.plugin(retry, throttling);
export type GithubClient = InstanceType<typeof GithubOctokit>;

const isLoopback = (baseUrl?: string) =>
  !!baseUrl && /^https?:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?(\/|$)/i.test(baseUrl);

export function githubClient(token: string, baseUrl?: string): GithubClient {
  const onLimit =
    (kind: string) =>
    (retryAfter: number, options: { method?: string; url?: string }, _o: unknown, retryCount: number) => {
      const again = retryCount < MAX_RATE_LIMIT_RETRIES && retryAfter <= MAX_RATE_LIMIT_WAIT_S;
      log.warn(
        `GitHub ${kind} on ${options.method ?? ''} ${options.url ?? ''}: ${again ? `retrying in ${retryAfter} s` : `not retried (retry after ${retryAfter} s)`}`,
      );
      return again;
    };
  return new GithubOctokit({
    auth: token,
    baseUrl,
    userAgent: 'svc',
    // Failed requests come back as typed errors to whoever asked; Octokit's own line is a trace.
    log: {
      debug: () => undefined,
      info: () => undefined,
      warn: (m: string) => log.warn(m),
      error: (m: string) => log.info(m),
    },
    request: {
      fetch: (url: string, init: RequestInit) =>
        fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }),
    },
    // Only failures that may pass on their own: 5xx and 429. A refusal (405 not mergeable,
    // 409 head moved, 422 …) is an answer, and a retry would only delay it.
    retry: { retries: 3, doNotRetry: [400, 401, 403, 404, 405, 409, 410, 422, 451] },
    throttle: {
      onRateLimit: onLimit('rate limit'),
      onSecondaryRateLimit: onLimit('secondary rate limit'),
      ...(isLoopback(baseUrl) ? { write: new Bottleneck.Group({ maxConcurrent: 1, minTime: 0 }) } : {}),
    },
  });
}
