// The HTTP server's own error answers (a route's refusals are its feature's), each message
// made here and nowhere else (docs/style.md §16). Reasons: shared/refusals/http.ts.
import { refusalsOf } from '../../shared/errors';
import type { SvcError, SvcErrorBody } from '../../shared/errors';
import { HTTP_REFUSALS } from '../../shared/refusals/http';
import type { HttpRefusalReason } from '../../shared/refusals/http';

const { usage } = refusalsOf(HTTP_REFUSALS);

/** A route's body that is not JSON (thrown by HttpRequest.json(), answered 400). */
export function badJsonError(): SvcError<'badJson'> {
  return usage('badJson', 'the request body is not valid JSON');
}

/** An HTTP error answer: its status and body. */
export interface HttpRefusal {
  status: number;
  body: SvcErrorBody & { reason: HttpRefusalReason };
}

export const httpRefusals = {
  badHost: (host: string, port: number): HttpRefusal => ({
    status: 403,
    body: {
      error: `refused Host '${host.slice(0, 100)}': only 127.0.0.1:${port} and localhost:${port} are served`,
      reason: 'badHost',
    },
  }),
  unauthorized: (): HttpRefusal => ({
    status: 401,
    body: { error: 'missing or wrong bearer token (the token is in SVC_HOME/server.json)', reason: 'unauthorized' },
  }),
  noRoute: (path: string): HttpRefusal => ({ status: 404, body: { error: `no route ${path}`, reason: 'noRoute' } }),
  methodNotAllowed: (method: string | undefined, path: string): HttpRefusal => ({
    status: 405,
    body: { error: `${method} is not allowed on ${path}`, reason: 'methodNotAllowed' },
  }),
  badPath: (raw: string, name: string): HttpRefusal => ({
    status: 400,
    body: {
      error: `the path segment '${raw.slice(0, 100)}' (${name}) is not valid percent-encoding; encode it with encodeURIComponent`,
      reason: 'badPath',
    },
  }),
  /** `why`: the reader's own words, when it stopped reading a body that grew past the limit. */
  bodyTooLarge: (max: number, why?: string): HttpRefusal => ({
    status: 413,
    body: { error: why ?? `request body exceeds ${max} bytes`, reason: 'bodyTooLarge' },
  }),
  busy: (reading: number, path: string): HttpRefusal => ({
    status: 503,
    body: { error: `busy: ${reading} requests to ${path} are being read; try again shortly`, reason: 'busy' },
  }),
  /** `why`: the failure's message, when the answer may name it. */
  internal: (why?: string): HttpRefusal => ({
    status: 500,
    body: { error: why === undefined ? 'internal error' : `internal error: ${why}`, reason: 'internal' },
  }),
};
