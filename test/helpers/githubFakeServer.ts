// The GitHub fake's HTTP server: reads each request's token and JSON body, answers 401 for
// bad credentials and the failures a test queued (failNext), else what its routes say;
// gives every 200 GET an ETag and answers 304 to a matching If-None-Match; and records
// every request and answer on the fake for the tests to check.
import { createHash } from 'node:crypto';
import * as http from 'node:http';
import type { GithubFake } from './githubFakeApi';
import { err } from './githubFakeReplies';
import type { Reply } from './githubFakeReplies';
import { route } from './githubFakeRoutes';
import type { FakeState, Json } from './githubFakeState';

/** Listens on 127.0.0.1 on a free port; sets `fake.url` (and so the state's address) once it does. */
export async function serveFake(s: FakeState, fake: GithubFake): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', fake.url);
      const token = /^(?:token|bearer) (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
      const login = token ? s.tokens.get(token) : undefined;
      fake.requests.push({ method: req.method ?? 'GET', path: url.pathname, login });
      let reply: Reply;
      const failure = s.failures.shift();
      if (failure) reply = { ...err(failure.status, failure.message), headers: failure.headers };
      else if (!login) reply = err(401, 'Bad credentials');
      else {
        let body: Json = {};
        try {
          body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Json) : {};
        } catch {
          reply = err(400, 'Problems parsing JSON');
        }
        reply ??= route(s, req.method ?? 'GET', url, login, body);
      }
      const text = JSON.stringify(reply.body);
      // GitHub's conditional requests: a GET carries an ETag, and the same ETag in
      // If-None-Match is answered 304 with no body (not counted against the rate limit).
      if (req.method === 'GET' && reply.status === 200) {
        const etag = `W/"${createHash('sha1')
          .update(text + (reply.headers?.link ?? ''))
          .digest('hex')}"`;
        if (req.headers['if-none-match'] === etag) reply = { status: 304, body: null, headers: { etag } };
        else reply = { ...reply, headers: { ...reply.headers, etag } };
      }
      fake.requests[fake.requests.length - 1].status = reply.status;
      if (reply.status !== 304)
        fake.responses.push({
          method: req.method ?? 'GET',
          path: url.pathname,
          status: reply.status,
          body: reply.body,
        });
      res.writeHead(
        reply.status,
        reply.status === 304
          ? { ...reply.headers }
          : { 'content-type': 'application/json; charset=utf-8', ...reply.headers },
      );
      res.end(reply.status === 304 ? undefined : text);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  fake.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  s.at.url = fake.url;
  return server;
}
