// The webhook route under a flood, through the real daemon: with no secret configured, or
// with no signature header, or a declared body over the limit, the answer comes before
// the body is sent (the server never waits for it, so it never holds it), and 60
// concurrent 25 MB posts leave the daemon's memory flat.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { makeScratch, sleep } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import { daemonInfo, flood, postChunked } from '../helpers/webhookPosts';

const MB = 1024 * 1024;
const HEADERS = { 'content-type': 'application/json', 'x-github-event': 'pull_request', 'x-github-delivery': 'flood' };
const FAKE_SIGNATURE = `sha256=${'0'.repeat(64)}`;

async function daemon(name: string, config?: string): Promise<Scratch> {
  const s = makeScratch(name);
  s.env.GITHUB_WEBHOOK_SECRET = '';
  if (config !== undefined) {
    fs.mkdirSync(s.svcHome, { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(s.svcHome, 'config.yaml'), config);
  }
  const up = await s.svc(['daemon', 'status']);
  assert.equal(up.code, 0, up.stderr);
  return s;
}

describe('webhook flood: refused before the body is read, memory flat', function () {
  this.timeout(180_000);
  let noSecret: Scratch;
  let withSecret: Scratch;

  before(async () => {
    noSecret = await daemon('flood-nosecret');
    withSecret = await daemon('flood-secret', 'codehost:\n  github:\n    webhook_secret: flood-secret\n');
  });
  after(async () => {
    await noSecret?.dispose();
    await withSecret?.dispose();
  });

  it('answers without waiting for a body it will not read: no secret, no signature, too large', async () => {
    // Each client sends 64 KiB of a declared 25 MB and then waits: only an answer that
    // does not need the body can arrive.
    const partial = (s: Scratch, headers: Record<string, string>) =>
      postChunked(daemonInfo(s.svcHome).httpPort, headers, 25 * MB, 64 * 1024);
    const a = await partial(noSecret, { ...HEADERS, 'x-hub-signature-256': FAKE_SIGNATURE });
    assert.deepEqual(
      [a.status, a.body],
      [
        409,
        {
          error:
            'no webhook secret configured (codehost.github.webhook_secret in config.yaml, or GITHUB_WEBHOOK_SECRET)',
          reason: 'webhookNotConfigured',
        },
      ],
    );
    const b = await partial(withSecret, HEADERS);
    assert.deepEqual(
      [b.status, b.body],
      [401, { error: 'missing or malformed X-Hub-Signature-256', reason: 'badSignature' }],
    );
    const c = await partial(withSecret, { ...HEADERS, 'x-hub-signature-256': FAKE_SIGNATURE });
    assert.deepEqual(
      [c.status, c.body],
      [413, { error: `request body exceeds ${4 * MB} bytes`, reason: 'bodyTooLarge' }],
    );
    for (const r of [a, b, c]) assert.ok(r.sentBeforeAnswer <= 64 * 1024);
  });

  it('reads at most 4 webhook bodies at once: a fifth is answered 503 with Retry-After before its body is sent', async () => {
    const port = daemonInfo(withSecret.svcHome).httpPort;
    const signed = { ...HEADERS, 'x-hub-signature-256': FAKE_SIGNATURE };
    const hold = new AbortController();
    const held = Array.from({ length: 4 }, () =>
      postChunked(port, signed, 2 * MB, 64 * 1024, hold.signal).catch(() => 'aborted'),
    );
    await sleep(500);
    const fifth = await postChunked(port, signed, 2 * MB, 64 * 1024);
    assert.deepEqual(
      [fifth.status, fifth.retryAfter, fifth.body],
      [
        503,
        '1',
        { error: 'busy: 4 requests to /api/webhooks/github are being read; try again shortly', reason: 'busy' },
      ],
    );
    hold.abort();
    assert.deepEqual(await Promise.all(held), ['aborted', 'aborted', 'aborted', 'aborted']);
    await sleep(200);
    // The slots are free again: a whole body is read, and its signature checked.
    const next = await postChunked(port, signed, 1024);
    assert.deepEqual(
      [next.status, next.body, next.sentBeforeAnswer],
      [401, { error: 'X-Hub-Signature-256 does not match the body', reason: 'badSignature' }, 1024],
    );
  });

  for (const [label, pick, headers, status] of [
    ['with no secret configured', () => noSecret, HEADERS, 409],
    ['unsigned, with a secret configured', () => withSecret, HEADERS, 401],
  ] as const) {
    it(`60 concurrent 25 MB posts ${label}: every one refused before its body was read; RSS within +50 MB`, async () => {
      const s = pick();
      const { results, rssBefore, rssPeak } = await flood(s.svcHome, 60, 25 * MB, headers);
      assert.deepEqual([...new Set(results.map((r) => r.status))], [status]);
      const unread = results.filter((r) => r.sentBeforeAnswer < r.declared).length;
      assert.equal(unread, 60, 'every answer came before its body was sent');
      const grew = (rssPeak - rssBefore) / MB;
      assert.ok(grew < 50, `daemon RSS grew by ${grew.toFixed(1)} MB`);
      // The daemon still answers.
      assert.equal((await s.svc(['daemon', 'status'])).code, 0);
    });
  }

  it('http.port in config.yaml fixes the port across daemon restarts, so a webhook forwarder keeps its target', async () => {
    const free = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const s = await daemon('fixed-port', `http:\n  port: ${free}\n`);
    try {
      assert.equal(daemonInfo(s.svcHome).httpPort, free);
      assert.equal((await s.svc(['daemon', 'stop'])).code, 0);
      assert.equal((await s.svc(['daemon', 'status'])).code, 0);
      assert.equal(daemonInfo(s.svcHome).httpPort, free);
      const health = await fetch(`http://127.0.0.1:${free}/api/webhooks/github`, {
        method: 'POST',
        headers: HEADERS,
        body: '{}',
      });
      assert.equal(health.status, 409);
    } finally {
      await s.dispose();
    }
  });
});
