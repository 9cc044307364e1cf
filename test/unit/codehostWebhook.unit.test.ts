import * as assert from 'node:assert/strict';
import * as crypto from 'node:crypto';
import type { HeadChange } from '../../server/codehost/codeHost';
import { GithubHost } from '../../server/codehost/github/githubHost';
import { handleGithubWebhook } from '../../server/codehost/github/webhook';
import type { WebhookDeps } from '../../server/codehost/github/webhook';
import type { HttpRequest } from '../../server/http/httpServer';
import { openDb } from '../../server/store/db';
import type { Db } from '../../server/store/db';

const SECRET = 'It’s a Secret to Everybody';
const A = 'a'.repeat(40);
const B = 'b'.repeat(40);

const sign = (body: Buffer, secret = SECRET) => 'sha256=' + crypto.createHmac('sha256', secret).update(body).digest('hex');

function request(body: Buffer, headers: Record<string, string | undefined>): HttpRequest {
  return { method: 'POST', path: '/api/webhooks/github', params: {}, query: new URLSearchParams(), headers, rawBody: body, json: () => JSON.parse(body.toString()) };
}

function prEvent(action: string, extra: Record<string, unknown> = {}, repo = 'acme/web'): Buffer {
  return Buffer.from(JSON.stringify({ action, number: 7, pull_request: { number: 7, head: { ref: 'issue/web-7', sha: B } }, repository: { full_name: repo }, ...extra }));
}

describe('GitHub webhook route (verified, de-duplicated)', () => {
  let db: Db;
  let host: GithubHost;
  let seen: HeadChange[];
  let deps: WebhookDeps;
  let secret: string | undefined;
  const deliveries = () => db.prepare('SELECT delivery_id, event, action, repo, outcome FROM webhook_deliveries ORDER BY received_at, delivery_id').all();
  const send = (body: Buffer, o: { id?: string; event?: string; signature?: string | null } = {}) =>
    handleGithubWebhook(
      deps,
      request(body, {
        'x-hub-signature-256': o.signature === null ? undefined : (o.signature ?? sign(body)),
        'x-github-delivery': o.id ?? crypto.randomUUID(),
        'x-github-event': o.event ?? 'pull_request',
      }),
    );

  beforeEach(() => {
    db = openDb(':memory:');
    host = new GithubHost({ project: 'web', owner: 'acme', repo: 'web', token: 't', baseUrl: 'http://127.0.0.1:9', defaultBase: 'main' });
    seen = [];
    host.onHeadChange((c) => seen.push(c));
    secret = SECRET;
    deps = { db, secret: () => secret, hostForRepo: (n) => (n.toLowerCase() === 'acme/web' ? host : undefined), now: () => 1 };
  });
  afterEach(() => db.close());

  it('a synchronize delivery reports the head change with before and after', async () => {
    const out = await send(prEvent('synchronize', { before: A, after: B }), { id: 'd-1' });
    assert.deepEqual(out, { status: 200, body: { ok: true, delivery: 'd-1', event: 'pull_request', outcome: 'headChange' } });
    assert.deepEqual(seen, [{ project: 'web', number: 7, branch: 'issue/web-7', before: A, after: B, source: 'webhook', action: 'synchronize' }]);
    assert.deepEqual(deliveries(), [{ delivery_id: 'd-1', event: 'pull_request', action: 'synchronize', repo: 'acme/web', outcome: 'headChange' }]);
  });

  it('opened, reopened and ready_for_review report the head with no before; other actions and before == after are ignored', async () => {
    for (const action of ['opened', 'reopened', 'ready_for_review']) assert.equal(((await send(prEvent(action))).body as { outcome: string }).outcome, 'headChange');
    assert.deepEqual(seen.map((c) => [c.action, c.before, c.after]), [['opened', null, B], ['reopened', null, B], ['ready_for_review', null, B]]);
    assert.equal(((await send(prEvent('synchronize', { before: B, after: B }))).body as { outcome: string }).outcome, 'ignored');
    assert.equal(((await send(prEvent('closed'))).body as { outcome: string }).outcome, 'ignored');
    assert.equal(((await send(prEvent('opened', {}, 'someone/else'))).body as { outcome: string }).outcome, 'unknownRepository');
    assert.equal(((await send(Buffer.from('{"zen":"Keep it logically awesome."}'), { event: 'ping' })).body as { outcome: string }).outcome, 'pong');
    assert.equal(seen.length, 3);
  });

  it('a replayed delivery id answers {duplicate: true} and does nothing else', async () => {
    const body = prEvent('synchronize', { before: A, after: B });
    await send(body, { id: 'd-2' });
    const again = await send(body, { id: 'd-2' });
    assert.deepEqual(again, { status: 200, body: { duplicate: true, delivery: 'd-2' } });
    assert.equal(seen.length, 1);
    assert.equal(deliveries().length, 1);
  });

  it('a bad, missing or foreign signature is refused with 401; nothing is recorded or reported', async () => {
    const body = prEvent('synchronize', { before: A, after: B });
    const bad = { status: 401, body: { error: 'X-Hub-Signature-256 does not match the body', reason: 'badSignature' } };
    assert.deepEqual(await send(body, { id: 'd-3', signature: sign(body, 'wrong secret') }), bad);
    assert.deepEqual(await send(body, { id: 'd-3', signature: sign(prEvent('opened')) }), bad);
    assert.deepEqual(await send(body, { id: 'd-3', signature: null }), { status: 401, body: { error: 'missing or malformed X-Hub-Signature-256', reason: 'badSignature' } });
    assert.deepEqual(await send(body, { id: 'd-3', signature: 'sha1=abc' }), { status: 401, body: { error: 'missing or malformed X-Hub-Signature-256', reason: 'badSignature' } });
    assert.deepEqual([seen, deliveries()], [[], []]);
    // A forged attempt does not use up the delivery id: the genuine delivery still counts.
    assert.equal(((await send(body, { id: 'd-3' })).body as { outcome: string }).outcome, 'headChange');
    assert.equal(seen.length, 1);
  });

  it('refuses everything while no secret is configured', async () => {
    secret = undefined;
    const out = await send(prEvent('opened'));
    assert.equal(out.status, 409);
    assert.equal((out.body as { reason: string }).reason, 'webhookNotConfigured');
    assert.deepEqual([seen, deliveries()], [[], []]);
  });

  it('refuses a body that is not UTF-8 or not JSON, and a delivery without its headers', async () => {
    const latin1 = Buffer.from([0x7b, 0xff, 0x7d]);
    assert.deepEqual(await send(latin1), { status: 400, body: { error: 'the webhook body is not UTF-8', reason: 'badBody' } });
    const notJson = Buffer.from('action=opened');
    assert.deepEqual(await send(notJson, { id: 'd-4' }), { status: 400, body: { error: 'delivery d-4: the body is not JSON', reason: 'badJson' } });
    const body = prEvent('opened');
    const noId = await handleGithubWebhook(deps, request(body, { 'x-hub-signature-256': sign(body), 'x-github-event': 'pull_request' }));
    assert.deepEqual(noId, { status: 400, body: { error: 'missing X-GitHub-Delivery or X-GitHub-Event', reason: 'badDelivery' } });
    assert.deepEqual(seen, []);
  });
});
