// Clients that start a message and never finish it are closed after an idle time, so
// they cannot hold the daemon's descriptors; garbage is logged as a bounded, escaped
// excerpt (never raw bytes); daemon.log rotates at its size limit, keeping a few files.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { discoveryOf } from '../helpers/daemonProcs';
import { makeScratch, sleep } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';

const CLIENTS = 300;

function openFds(pid: number): number {
  return fs.readdirSync(`/proc/${pid}/fd`).length;
}

function connectRaw(socketPath: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const c = net.connect(socketPath);
    c.on('error', () => undefined);
    c.once('connect', () => resolve(c));
    c.once('error', reject);
  });
}

describe('daemon socket: half-sent frames, escaped garbage, rotating log', function () {
  this.timeout(120_000);
  let s: Scratch;
  const logFile = () => path.join(s.svcHome, 'logs', 'daemon.log');

  before(async () => {
    s = makeScratch('daemonFrames');
    assert.equal((await s.svc(['daemon', 'status'])).code, 0);
  });
  after(async () => s.dispose());

  it(`closes ${CLIENTS} clients that each left a message half-sent, and gives their descriptors back`, async () => {
    const { socketPath, pid } = discoveryOf(s);
    const before = openFds(pid);
    const clients: net.Socket[] = [];
    for (let i = 0; i < CLIENTS; i++) {
      const c = await connectRaw(socketPath);
      // Half a header, or a whole header and half a body.
      c.write(i % 2 ? 'Content-Length: 200\r\n\r\n{"jsonrpc":"2.0",' : 'Content-Len');
      clients.push(c);
    }
    const closed = clients.map((c) => new Promise<void>((r) => (c.destroyed ? r() : c.once('close', () => r()))));
    const t0 = Date.now();
    await Promise.all(closed);
    const waited = Date.now() - t0;
    assert.ok(waited < 20_000, `closed after ${waited} ms`);
    await sleep(200);
    assert.ok(openFds(pid) <= before + 2, `descriptors back: ${openFds(pid)} vs ${before} before`);
    // A client that keeps sending whole messages is never cut off by the idle rule.
    assert.equal((await s.svc(['daemon', 'status'])).code, 0);
    const log = fs.readFileSync(logFile(), 'utf8');
    assert.match(log, /closing client: an unfinished header sat idle for 10 s; it sent "Content-Len"\n/);
    assert.match(log, /closing client: a message body with \d+ bytes still to come sat idle for 10 s/);
  });

  it('logs a bounded, escaped excerpt of garbage, never its raw bytes', async () => {
    const { socketPath } = discoveryOf(s);
    const evil = Buffer.concat([
      Buffer.from('\x1b[2J\x00EVIL\r\n2026-01-01T00:00:00.000Z INFO  [daemon] forged\r\n\r\n', 'latin1'),
      Buffer.from([0xff, 0xfe]),
    ]);
    for (const bytes of [evil, Buffer.alloc(64 * 1024, 0x07)]) {
      const c = await connectRaw(socketPath);
      c.write(bytes);
      await new Promise<void>((r) => c.once('close', () => r()));
    }
    await sleep(200);
    const raw = fs.readFileSync(logFile());
    // eslint-disable-next-line no-control-regex
    assert.equal(/[\x00-\x08\x0b-\x1f\x7f]/.test(raw.toString('latin1')), false, 'no control bytes in daemon.log');
    const lines = raw.toString('utf8').split('\n');
    assert.ok(!lines.some((l) => l.startsWith('2026-01-01T00:00:00.000Z')), 'no forged line');
    assert.ok(
      lines.some((l) =>
        l.includes(
          'closing client: missing or bad Content-Length header; it sent "\\x1b[2J\\x00EVIL\\x0d\\x0a2026-01-01T00:00:00.000Z INFO  [daemon] forged\\x0d\\x0a\\x0d\\x0a\\xff\\xfe"',
        ),
      ),
    );
    const long = lines.find((l) => l.includes('closing client: header too long'));
    assert.ok(long && long.length < 800, `bounded: ${long?.length}`);
    assert.match(long, /it sent "(\\x07){120}" \(\+\d+ bytes\)$/);
  });

  it('rotates daemon.log at 5 MiB and keeps three old files', async () => {
    for (let round = 1; round <= 4; round++) {
      await s.svc(['daemon', 'stop']);
      fs.appendFileSync(logFile(), `round ${round}\n` + 'x'.repeat(5 * 1024 * 1024) + '\n');
      assert.equal((await s.svc(['daemon', 'status'])).code, 0);
      assert.ok(fs.statSync(logFile()).size < 64 * 1024, 'a fresh daemon.log after rotation');
      assert.match(fs.readFileSync(`${logFile()}.1`, 'utf8'), new RegExp(`round ${round}\\n`));
    }
    assert.deepEqual(fs.readdirSync(path.dirname(logFile())).sort(), [
      'daemon.log',
      'daemon.log.1',
      'daemon.log.2',
      'daemon.log.3',
    ]);
    assert.match(fs.readFileSync(`${logFile()}.3`, 'utf8'), /round 2\n/);
    for (const f of fs.readdirSync(path.dirname(logFile())))
      assert.equal(fs.statSync(path.join(path.dirname(logFile()), f)).mode & 0o777, 0o600, f);
  });
});
