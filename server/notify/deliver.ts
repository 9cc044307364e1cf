// One attempt to post a payload to a target: node's http(s) client, a time limit, and an
// abort for the daemon's stop. The secret goes in the Authorization header only. What an
// attempt says went wrong never holds the URL (a Slack webhook's path is its credential)
// nor the secret: the status code, or the network error's code.
import * as http from 'node:http';
import * as https from 'node:https';
import type { NotifyTarget } from '../../shared/config';
import type { Payload } from './payloads';

/** How long one attempt may take before it counts as a network error. */
export const ATTEMPT_TIMEOUT_MS = 10_000;

export type Outcome =
  /** The target acknowledged it (2xx). */
  | { ok: true; status: number }
  /** Worth retrying (5xx, 408, 429, a network error or a time-out) or not (another 4xx, a 3xx). */
  | { ok: false; retry: boolean; error: string }
  /** Cut short by the daemon's stop: not an attempt; the event stays pending. */
  | { ok: false; aborted: true };

export function deliver(
  target: Pick<NotifyTarget, 'url' | 'secret'>,
  payload: Payload,
  signal: AbortSignal,
  timeoutMs = ATTEMPT_TIMEOUT_MS,
): Promise<Outcome> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve({ ok: false, aborted: true });
    const url = new URL(target.url);
    const body = Buffer.from(payload.body, 'utf8');
    const headers: Record<string, string> = {
      ...payload.headers,
      'Content-Type': payload.contentType,
      'Content-Length': String(body.length),
    };
    if (target.secret !== undefined) headers.Authorization = `Bearer ${target.secret}`;
    const send = url.protocol === 'https:' ? https.request : http.request;
    let done = false;
    const finish = (o: Outcome) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(o);
    };
    const req = send(url, { method: 'POST', headers }, (res) => {
      res.resume();
      const status = res.statusCode ?? 0;
      res.on('end', () => finish(outcomeOf(status)));
      res.on('error', () => finish(outcomeOf(status)));
    });
    const onAbort = () => {
      finish({ ok: false, aborted: true });
      req.destroy();
    };
    const timer = setTimeout(() => {
      finish({ ok: false, retry: true, error: `no answer within ${Math.round(timeoutMs / 1000)} s` });
      req.destroy();
    }, timeoutMs);
    signal.addEventListener('abort', onAbort);
    req.on('error', (e: NodeJS.ErrnoException) =>
      finish({ ok: false, retry: true, error: `network error ${e.code ?? 'unknown'}` }),
    );
    req.end(body);
  });
}

export function outcomeOf(status: number): Outcome {
  if (status >= 200 && status < 300) return { ok: true, status };
  const retry = status >= 500 || status === 408 || status === 429;
  return { ok: false, retry, error: `HTTP ${status}` };
}
