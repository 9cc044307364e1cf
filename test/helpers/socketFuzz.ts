// Fuzzed clients of the daemon's socket, for the memory soak: each connection sends one
// kind of garbage (random bytes, a broken header, malformed or hostile JSON-RPC, a valid
// request) and is closed, many at a time. Deterministic for a seed, so a failing run can
// be replayed.
import * as crypto from 'node:crypto';
import * as net from 'node:net';

/** A small PRNG (mulberry32): the same seed gives the same connections. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const frame = (body: string | Buffer) =>
  Buffer.concat([Buffer.from(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n`), Buffer.from(body)]);

/** The bytes connection `n` sends; `rand` picks the kind and its details. */
export function fuzzPayload(rand: () => number): Buffer {
  const bytes = (n: number) => Buffer.from(Array.from({ length: n }, () => Math.floor(rand() * 256)));
  const id = Math.floor(rand() * 1e9);
  switch (Math.floor(rand() * 10)) {
    case 0:
      return bytes(1 + Math.floor(rand() * 2048)); // noise
    case 1:
      return Buffer.concat([Buffer.from('Content-Length: '), bytes(20), Buffer.from('\r\n\r\n')]); // a broken header
    case 2:
      return Buffer.from(`Content-Length: 99999999999\r\n\r\n`); // more than the limit
    case 3:
      return frame(bytes(1 + Math.floor(rand() * 512))); // a frame of noise
    case 4:
      return frame(`{"jsonrpc":"2.0","id":${id},"method":"daemon/status","params":`); // JSON cut short
    case 5:
      return frame(JSON.stringify({ jsonrpc: '2.0', id, method: `no/such/${id}`, params: {} })); // unknown method
    case 6:
      return frame(
        JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'lane/list',
          params: {
            caller: 'x'.repeat(Math.floor(rand() * 4096)),
            callerConversation: String(id),
            callerToken: 'forged',
          },
        }),
      ); // a forged caller
    case 7:
      return frame(
        JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params: { processId: null, capabilities: {} } }),
      ); // a real request
    case 8:
      return Buffer.from(`Content-Length: ${1000 + Math.floor(rand() * 1000)}\r\n\r\n{"jsonrpc":`); // a body left unfinished
    default:
      return Buffer.concat([
        frame(JSON.stringify({ jsonrpc: '2.0', method: '$/cancelRequest', params: { id } })),
        bytes(64),
      ]); // a notification, then noise
  }
}

/**
 * Opens one connection, sends `payload`, waits up to `lingerMs` for an answer, and closes it.
 * Resolves whether it connected: a full listen backlog refuses a connection (EAGAIN) before
 * the daemon sees it, which must not count as one it served.
 */
export function fuzzOnce(socketPath: string, payload: Buffer, lingerMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = net.createConnection(socketPath);
    let done = false;
    let connected = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      sock.destroy();
      resolve(connected);
    };
    const timer = setTimeout(finish, lingerMs);
    sock.on('error', finish);
    sock.on('close', finish);
    sock.on('data', finish);
    sock.on('connect', () => {
      connected = true;
      sock.write(payload);
    });
  });
}

/**
 * Drives `count` fuzzed connections that reach the daemon, `parallel` at a time; one the
 * backlog refused is tried again after a pause (so the daemon catches up), up to a bound.
 * Says how many attempts the backlog refused.
 */
export async function fuzzConnections(
  socketPath: string,
  count: number,
  opts: { parallel: number; seed: number; lingerMs?: number },
): Promise<{ refused: number }> {
  const rand = prng(opts.seed);
  let next = 0;
  let refused = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      const payload = fuzzPayload(rand);
      while (!(await fuzzOnce(socketPath, payload, opts.lingerMs ?? 20))) {
        if (++refused > 100 * count)
          throw new Error(`the daemon refused more than ${count} connections at ${socketPath}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  };
  await Promise.all(Array.from({ length: opts.parallel }, worker));
  return { refused };
}

export const randomSeed = () => crypto.randomInt(1, 2 ** 31);
