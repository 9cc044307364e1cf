// GitHub's answers turned into svc's typed errors. The own-PR refusal is recognised by
// status 422 plus the texts GitHub has used (docs/codehost.md), never by the message alone.
import { SvcError } from '../../../shared/errors';
import {
  githubRateLimitedError,
  githubStatusError,
  githubUnreachableError,
  selfReviewRefusedError,
} from '../codehostRefusals';

const OWN_PR = /can ?not (approve|request changes on) your own pull request/i;
// An org setting refuses the Actions token the same way; the marker path applies too.
const ACTIONS_NOT_PERMITTED = /not permitted to approve pull requests/i;

interface OctokitLikeError {
  status?: number;
  message?: string;
  response?: { data?: { message?: unknown; errors?: unknown }; headers?: Record<string, string | undefined> };
}

/** Every text GitHub put in the error: message and each entry of `errors`. */
function texts(e: OctokitLikeError): string[] {
  const data = e.response?.data;
  const out: string[] = [];
  if (typeof data?.message === 'string') out.push(data.message);
  if (Array.isArray(data?.errors)) {
    for (const x of data.errors) {
      if (typeof x === 'string') out.push(x);
      else if (x && typeof (x as { message?: unknown }).message === 'string')
        out.push((x as { message: string }).message);
    }
  }
  if (out.length === 0 && typeof e.message === 'string') out.push(e.message);
  return out;
}

export function ownPrRefusal(e: unknown, pr: number, login: string): SvcError<'selfReviewRefused'> | undefined {
  const err = e as OctokitLikeError;
  if (err?.status !== 422) return undefined;
  const hit = texts(err).find((t) => OWN_PR.test(t) || ACTIONS_NOT_PERMITTED.test(t));
  return hit ? selfReviewRefusedError(pr, login, hit) : undefined;
}

export function asGithubError(e: unknown, what: string): SvcError {
  if (SvcError.is(e)) return e;
  const err = e as OctokitLikeError;
  const status = err?.status;
  const detail = texts(err ?? {}).join('; ') || String(e);
  const headers = err?.response?.headers ?? {};
  if (status === 429 || (status === 403 && (headers['x-ratelimit-remaining'] === '0' || /rate limit/i.test(detail)))) {
    const reset = Number(headers['x-ratelimit-reset']);
    const retryAfter = Number(headers['retry-after']);
    const when =
      retryAfter > 0
        ? `in ${retryAfter} s`
        : reset > 0
          ? `after ${new Date(reset * 1000).toISOString()}`
          : 'in a minute';
    return githubRateLimitedError(what, status, detail, when);
  }
  if (status === undefined) return githubUnreachableError(what, (e as Error)?.message ?? String(e));
  return githubStatusError(what, status, detail);
}
