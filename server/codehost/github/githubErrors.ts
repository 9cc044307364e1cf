// GitHub's answers turned into svc's typed errors. The own-PR refusal is recognised by
// status 422 plus the texts GitHub has used (CODEHOST.md), never by the message alone.
import { conflict, notFound, refused, SvcError, usageError } from '../../../shared/errors';
import { SelfReviewRefused } from '../errors';

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
      else if (x && typeof (x as { message?: unknown }).message === 'string') out.push((x as { message: string }).message);
    }
  }
  if (out.length === 0 && typeof e.message === 'string') out.push(e.message);
  return out;
}

export function ownPrRefusal(e: unknown, pr: number, login: string): SelfReviewRefused | undefined {
  const err = e as OctokitLikeError;
  if (err?.status !== 422) return undefined;
  const hit = texts(err).find((t) => OWN_PR.test(t) || ACTIONS_NOT_PERMITTED.test(t));
  return hit ? new SelfReviewRefused(pr, login, hit) : undefined;
}

export function asGithubError(e: unknown, what: string): SvcError {
  if (e instanceof SvcError) return e;
  const err = e as OctokitLikeError;
  const status = err?.status;
  const detail = texts(err ?? {}).join('; ') || String(e);
  const headers = err?.response?.headers ?? {};
  if (status === 429 || (status === 403 && (headers['x-ratelimit-remaining'] === '0' || /rate limit/i.test(detail)))) {
    const reset = Number(headers['x-ratelimit-reset']);
    const retryAfter = Number(headers['retry-after']);
    const when = retryAfter > 0 ? `in ${retryAfter} s` : reset > 0 ? `after ${new Date(reset * 1000).toISOString()}` : 'in a minute';
    return conflict('githubRateLimited', `GitHub's rate limit stopped svc when asked to ${what} (${status} ${detail}); try again ${when}`);
  }
  switch (status) {
    case undefined:
      return new SvcError('internal', 'githubUnreachable', `cannot reach GitHub to ${what}: ${(e as Error)?.message ?? String(e)}`);
    case 401:
      return refused('githubAuth', `GitHub refused the token when asked to ${what} (401 ${detail}); set GITHUB_TOKEN or codehost.github.token`);
    case 403:
      return refused('githubForbidden', `GitHub forbade it when asked to ${what} (403 ${detail})`);
    case 404:
      return notFound('githubNotFound', `GitHub found nothing when asked to ${what} (404 ${detail})`);
    case 405:
      return conflict('notMergeable', `GitHub will not ${what} (405 ${detail})`);
    case 409:
      return conflict('headMoved', `GitHub refused to ${what}: the head moved (409 ${detail}); check readiness again`);
    case 422:
      if (/pull request already exists/i.test(detail)) return conflict('prExists', `GitHub refused to ${what}: ${detail}`);
      return usageError('githubUnprocessable', `GitHub refused to ${what} (422 ${detail})`);
    default:
      return conflict('githubError', `GitHub answered ${status} when asked to ${what}: ${detail}`);
  }
}
