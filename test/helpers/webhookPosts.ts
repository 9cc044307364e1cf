// Raw POSTs at the daemon's webhook route that send their body in chunks, as a flood
// would, and record how much of it had been taken by the server when the answer came:
// an answer that arrives before the client has sent its body shows the body was never
// needed. Shared by the flood integration test and bench/webhookFlood.bench.ts.
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';

export interface PostResult {
  status: number;
  body: unknown;
  /** Body bytes the client had handed to the socket (write callbacks fired) when the answer arrived. */
  sentBeforeAnswer: number;
  declared: number;
  retryAfter?: string;
}

const CHUNK = Buffer.alloc(64 * 1024, 0x61);

/** Declares `declared` bytes, sends up to `sendAtMost` of them (default all) in 64 KiB
 *  chunks, and stops sending once the answer arrives. */
export function postChunked(
  port: number,
  headers: Record<string, string>,
  declared: number,
  sendAtMost = declared,
  signal?: AbortSignal,
): Promise<PostResult> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/webhooks/github',
      headers: { ...headers, 'content-length': String(declared) },
      signal,
    });
    req.on('response', (res) => {
      answered = true;
      const at = sent;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON: keep the text
        }
        resolve({
          status: res.statusCode ?? 0,
          body,
          sentBeforeAnswer: at,
          declared,
          retryAfter: res.headers['retry-after'],
        });
        req.destroy();
      });
    });
    // The server closes the connection after an early answer: writes after that fail.
    req.on('error', (e) => (answered ? undefined : reject(e)));
    let queued = 0;
    const limit = Math.min(declared, sendAtMost);
    const pump = (): void => {
      while (!answered && queued < limit) {
        const n = Math.min(CHUNK.length, limit - queued);
        queued += n;
        const more = req.write(n === CHUNK.length ? CHUNK : CHUNK.subarray(0, n), (err) => {
          if (!err) sent += n;
        });
        if (!more) return void req.once('drain', pump);
      }
    };
    pump();
  });
}

/** The daemon's pid and HTTP port from SVC_HOME/server.json. */
export function daemonInfo(svcHome: string): { pid: number; httpPort: number } {
  return JSON.parse(fs.readFileSync(path.join(svcHome, 'server.json'), 'utf8')) as { pid: number; httpPort: number };
}

/** Resident set size of a process, in bytes (Linux /proc). */
export function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(m[1]) * 1024;
}

export interface FloodResult {
  results: PostResult[];
  rssBefore: number;
  rssPeak: number;
}

/** `n` concurrent posts of `size` bytes each, sampling the daemon's RSS every 20 ms. */
export async function flood(
  svcHome: string,
  n: number,
  size: number,
  headers: Record<string, string>,
): Promise<FloodResult> {
  const { pid, httpPort } = daemonInfo(svcHome);
  const rssBefore = rssOf(pid);
  let rssPeak = rssBefore;
  const timer = setInterval(() => (rssPeak = Math.max(rssPeak, rssOf(pid))), 20);
  try {
    const results = await Promise.all(Array.from({ length: n }, () => postChunked(httpPort, headers, size)));
    rssPeak = Math.max(rssPeak, rssOf(pid));
    return { results, rssBefore, rssPeak };
  } finally {
    clearInterval(timer);
  }
}
