// A local HTTP server on 127.0.0.1 standing in for notify targets: it records every
// request (path, headers, body) and answers as the test says: a status, or holding the
// request open (to stop the daemon while an event is in flight).
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SinkRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Whether the client hung up before an answer (a held request cut short). */
  cut: boolean;
}

/** How to answer a request: a status, or 'hold' (never answer; the client's close is recorded). */
export type Answer = number | 'hold';

export interface HttpSink {
  url(path: string): string;
  requests: SinkRequest[];
  /** Requests to `path`. */
  to(path: string): SinkRequest[];
  /** How each request is answered (default 200). */
  answer: (r: SinkRequest) => Answer;
  close(): Promise<void>;
}

export async function startHttpSink(): Promise<HttpSink> {
  const held = new Set<http.ServerResponse>();
  const sink: HttpSink = {
    url: (p) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${p}`,
    requests: [],
    to: (p) => sink.requests.filter((r) => r.path === p),
    answer: () => 200,
    close: () =>
      new Promise((resolve) => {
        for (const res of held) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: SinkRequest = {
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
        cut: false,
      };
      sink.requests.push(r);
      const a = sink.answer(r);
      if (a === 'hold') {
        held.add(res);
        res.on('close', () => {
          held.delete(res);
          if (!res.writableEnded) r.cut = true;
        });
        return;
      }
      res.writeHead(a, { 'Content-Type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return sink;
}
