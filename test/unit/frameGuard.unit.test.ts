// FrameGuard (server/rpc/frameGuard.ts): passes well-framed LSP bytes through unchanged,
// however they are split into chunks, and reports broken headers or an oversized message.
import * as assert from 'node:assert/strict';
import { FrameGuard, MAX_MESSAGE_BYTES } from '../../server/rpc/frameGuard';

function frame(body: string, headers = ''): Buffer {
  const b = Buffer.from(body, 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${b.length}\r\n${headers}\r\n`, 'ascii'), b]);
}

/** Feeds `chunks` through a guard; what came out and the violations reported. */
async function feed(chunks: Buffer[], maxBytes?: number): Promise<{ out: Buffer; violations: string[] }> {
  const violations: string[] = [];
  const guard = new FrameGuard((why) => violations.push(why), maxBytes);
  const out: Buffer[] = [];
  guard.on('data', (c: Buffer) => out.push(c));
  for (const c of chunks) {
    if (violations.length) break; // the daemon destroys the socket at the first violation
    await new Promise<void>((resolve, reject) => guard.write(c, (e) => (e ? reject(e) : resolve())));
  }
  await new Promise((r) => setImmediate(r));
  return { out: Buffer.concat(out), violations };
}

/** Every way of cutting `b` into pieces of `size` bytes. */
function split(b: Buffer, size: number): Buffer[] {
  const parts: Buffer[] = [];
  for (let i = 0; i < b.length; i += size) parts.push(b.subarray(i, i + size));
  return parts;
}

describe('FrameGuard', () => {
  const stream = Buffer.concat([
    frame('{"jsonrpc":"2.0","id":1,"method":"daemon/status","params":{}}'),
    frame(
      '{"jsonrpc":"2.0","method":"svc/changed","params":{"topic":"lanes"}}',
      'Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n',
    ),
    frame('{"jsonrpc":"2.0","id":2,"result":"ünïcödé ✓"}'),
    frame(''),
  ]);

  it('passes well-framed messages through byte for byte, in one chunk', async () => {
    const r = await feed([stream]);
    assert.deepEqual(r.violations, []);
    assert.ok(r.out.equals(stream));
  });

  it('passes them through however they are split (every chunk size from 1 to 70)', async () => {
    for (let size = 1; size <= 70; size++) {
      const r = await feed(split(stream, size));
      assert.deepEqual(r.violations, [], `chunks of ${size}`);
      assert.ok(r.out.equals(stream), `chunks of ${size}`);
    }
  });

  it('accepts the header name in any case and extra headers in any order', async () => {
    const b = Buffer.from('content-type: x\r\nCONTENT-LENGTH: 2\r\n\r\n{}', 'ascii');
    const r = await feed([b]);
    assert.deepEqual(r.violations, []);
    assert.ok(r.out.equals(b));
  });

  it('reports a missing Content-Length', async () => {
    assert.deepEqual((await feed([Buffer.from('Content-Type: x\r\n\r\n{}')])).violations, [
      'missing or bad Content-Length header',
    ]);
  });

  it('reports a bad Content-Length value', async () => {
    for (const v of ['abc', '-1', '1.5', '', '0x10', '12345678901']) {
      const r = await feed([Buffer.from(`Content-Length: ${v}\r\n\r\n`)]);
      assert.deepEqual(r.violations, ['missing or bad Content-Length header'], v);
    }
  });

  it('reports a header line without a colon', async () => {
    assert.deepEqual((await feed([Buffer.from('Content-Length: 2\r\ngarbage\r\n\r\n{}')])).violations, [
      'missing or bad Content-Length header',
    ]);
  });

  it('reports broken framing after good messages: a body longer than announced', async () => {
    const good = frame('{}');
    const r = await feed([good, Buffer.from('Content-Length: 2\r\n\r\n{}}'), Buffer.from('\r\n\r\n')]);
    assert.deepEqual(r.violations, ['missing or bad Content-Length header']);
  });

  it('reports a header that never ends (more than 8 KiB without a blank line), also across chunks', async () => {
    const r = await feed(split(Buffer.alloc(9000, 'x'), 1000));
    assert.deepEqual(r.violations, ['header too long']);
    const one = await feed([Buffer.from('Content-Length: 5\r\n' + 'X-Pad: ' + 'y'.repeat(9000))]);
    assert.deepEqual(one.violations, ['header too long']);
  });

  it('reports a message over the limit from its header alone, before any body arrives', async () => {
    const r = await feed([Buffer.from(`Content-Length: ${MAX_MESSAGE_BYTES + 1}\r\n\r\n`)]);
    assert.deepEqual(r.violations, [
      `message of ${MAX_MESSAGE_BYTES + 1} bytes exceeds the ${MAX_MESSAGE_BYTES}-byte limit`,
    ]);
    assert.equal(r.out.length, 0, 'nothing of it is passed on');
    assert.equal(MAX_MESSAGE_BYTES, 16 * 1024 * 1024);
  });

  it('a message of exactly the limit passes; one byte more does not (custom limit)', async () => {
    assert.deepEqual((await feed([frame('x'.repeat(100))], 100)).violations, []);
    assert.deepEqual((await feed([frame('x'.repeat(101))], 100)).violations, [
      'message of 101 bytes exceeds the 100-byte limit',
    ]);
  });

  it('a body that contains a blank line and header-like text is not mistaken for a header', async () => {
    const tricky = frame('{"a":"Content-Length: 999999999\\r\\n\\r\\n"}\r\n\r\nnot a header');
    const after = frame('{}');
    const r = await feed(split(Buffer.concat([tricky, after]), 7));
    assert.deepEqual(r.violations, []);
    assert.ok(r.out.equals(Buffer.concat([tricky, after])));
  });
});
