import * as assert from 'node:assert/strict';
import * as crypto from 'node:crypto';
import type { HeadChange } from '../../server/codehost/codeHost';
import { GithubHost } from '../../server/codehost/github/githubHost';
import { handleGithubWebhook, webhookBeforeBody } from '../../server/codehost/github/webhook';
import type { WebhookDeps } from '../../server/codehost/github/webhook';
import { PERSON } from '../../server/authority/caller';
import type { HttpRequest } from '../../server/http/httpServer';
import { codeHostMigrations } from '../../server/codehost/migrations';
import { storeMigrations } from '../../server/store/migrations';
import { openDb } from '../../server/store/db';
import type { Db } from '../../server/store/db';

const SECRET = 'It’s a Secret to Everybody';
const A = 'a'.repeat(40);
const B = 'b'.repeat(40);

const sign = (body: Buffer, secret = SECRET) =>
  'sha256=' + crypto.createHmac('sha256', secret).update(body).digest('hex');

function request(body: Buffer, headers: Record<string, string | undefined>): HttpRequest {
  for (const k of Object.keys(headers)) if (headers[k] === undefined) delete headers[k];
  return {
    method: 'POST',
    path: '/api/webhooks/github',
    params: {},
    query: new URLSearchParams(),
    headers,
    rawBody: body,
    caller: PERSON,
    json: () => JSON.parse(body.toString()),
  };
}

function prEvent(action: string, extra: Record<string, unknown> = {}, repo = 'acme/web'): Buffer {
  return Buffer.from(
    JSON.stringify({
      action,
      number: 7,
      pull_request: { number: 7, head: { ref: 'issue/web-7', sha: B } },
      repository: { full_name: repo },
      ...extra,
    }),
  );
}

describe('GitHub webhook route (verified, de-duplicated)', () => {
  let db: Db;
  let host: GithubHost;
  let seen: HeadChange[];
  let deps: WebhookDeps;
  let secret: string | undefined;
  const deliveries = () =>
    db
      .prepare(
        'SELECT delivery_id, event, action, repo, outcome FROM webhook_deliveries ORDER BY received_at, delivery_id',
      )
      .all();
  const send = (body: Buffer, o: { id?: string; event?: string; signature?: string | null; type?: string } = {}) =>
    handleGithubWebhook(
      deps,
      request(body, {
        'x-hub-signature-256': o.signature === null ? undefined : (o.signature ?? sign(body)),
        'x-github-delivery': o.id ?? crypto.randomUUID(),
        'x-github-event': o.event ?? 'pull_request',
        'content-type': o.type,
      }),
    );

  beforeEach(() => {
    db = openDb(':memory:', [storeMigrations, codeHostMigrations]);
    host = new GithubHost({
      project: 'web',
      owner: 'acme',
      repo: 'web',
      token: 't',
      baseUrl: 'http://127.0.0.1:9',
      defaultBase: 'main',
    });
    seen = [];
    host.onHeadChange((c) => seen.push(c));
    secret = SECRET;
    deps = {
      db,
      secret: () => secret,
      hostForRepo: (n) => (n.toLowerCase() === 'acme/web' ? host : undefined),
      now: () => 1,
    };
  });
  afterEach(() => db.close());

  it('a synchronize delivery reports the head change with before and after', async () => {
    const out = await send(prEvent('synchronize', { before: A, after: B }), { id: 'd-1' });
    assert.deepEqual(out, {
      status: 200,
      body: { ok: true, delivery: 'd-1', event: 'pull_request', outcome: 'headChange' },
    });
    assert.deepEqual(seen, [
      {
        project: 'web',
        number: 7,
        branch: 'issue/web-7',
        before: A,
        after: B,
        source: 'webhook',
        action: 'synchronize',
      },
    ]);
    assert.deepEqual(deliveries(), [
      { delivery_id: 'd-1', event: 'pull_request', action: 'synchronize', repo: 'acme/web', outcome: 'headChange' },
    ]);
  });

  it('opened, reopened and ready_for_review report the head with no before; other actions and before == after are ignored', async () => {
    for (const action of ['opened', 'reopened', 'ready_for_review'])
      assert.equal(((await send(prEvent(action))).body as { outcome: string }).outcome, 'headChange');
    assert.deepEqual(
      seen.map((c) => [c.action, c.before, c.after]),
      [
        ['opened', null, B],
        ['reopened', null, B],
        ['ready_for_review', null, B],
      ],
    );
    assert.equal(
      ((await send(prEvent('synchronize', { before: B, after: B }))).body as { outcome: string }).outcome,
      'ignored',
    );
    assert.equal(((await send(prEvent('closed'))).body as { outcome: string }).outcome, 'ignored');
    assert.equal(
      ((await send(prEvent('opened', {}, 'someone/else'))).body as { outcome: string }).outcome,
      'unknownRepository',
    );
    assert.equal(
      ((await send(Buffer.from('{"zen":"Keep it logically awesome."}'), { event: 'ping' })).body as { outcome: string })
        .outcome,
      'pong',
    );
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
    assert.deepEqual(await send(body, { id: 'd-3', signature: null }), {
      status: 401,
      body: { error: 'missing or malformed X-Hub-Signature-256', reason: 'badSignature' },
    });
    assert.deepEqual(await send(body, { id: 'd-3', signature: 'sha1=abc' }), {
      status: 401,
      body: { error: 'missing or malformed X-Hub-Signature-256', reason: 'badSignature' },
    });
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
    assert.deepEqual(await send(latin1), {
      status: 400,
      body: { error: 'the webhook body is not UTF-8', reason: 'badBody' },
    });
    const notJson = Buffer.from('action=opened');
    assert.deepEqual(await send(notJson, { id: 'd-4' }), {
      status: 400,
      body: { error: 'delivery d-4: the body is not JSON', reason: 'badJson' },
    });
    const body = prEvent('opened');
    const noId = await handleGithubWebhook(
      deps,
      request(body, { 'x-hub-signature-256': sign(body), 'x-github-event': 'pull_request' }),
    );
    assert.deepEqual(noId, {
      status: 400,
      body: { error: 'missing X-GitHub-Delivery or X-GitHub-Event', reason: 'badDelivery' },
    });
    assert.deepEqual(seen, []);
  });

  it('a signed body that is null, or names its repository with an object, is refused with 400 and nothing is recorded', async () => {
    for (const [raw, error] of [
      ['null', 'not a pull_request payload: the payload: Invalid input: expected object, received null'],
      [
        JSON.stringify({
          action: 'opened',
          pull_request: { number: 7, head: { ref: 'x', sha: B } },
          repository: { full_name: {} },
        }),
        'not a pull_request payload: repository.full_name: Invalid input: expected string, received object',
      ],
      [
        JSON.stringify({ action: 'opened', repository: { full_name: 'acme/web' } }),
        'not a pull_request payload: pull_request: Invalid input: expected object, received undefined',
      ],
    ]) {
      const out = await send(Buffer.from(raw), { id: 'd-null' });
      assert.deepEqual(out, { status: 400, body: { error: `delivery d-null: ${error}`, reason: 'badPayload' } });
    }
    assert.deepEqual(await send(Buffer.from('null'), { id: 'd-ping', event: 'ping' }), {
      status: 400,
      body: {
        error: 'delivery d-ping: not a ping payload: the payload: Invalid input: expected object, received null',
        reason: 'badPayload',
      },
    });
    assert.deepEqual([seen, deliveries()], [[], []]);
  });

  it("GitHub's default form content type (payload=<json>) is read like JSON; other content types are refused before the body", async () => {
    const json = prEvent('synchronize', { before: A, after: B });
    const form = Buffer.from(new URLSearchParams({ payload: json.toString() }).toString());
    const out = await send(form, { id: 'd-form', type: 'application/x-www-form-urlencoded' });
    assert.deepEqual(out, {
      status: 200,
      body: { ok: true, delivery: 'd-form', event: 'pull_request', outcome: 'headChange' },
    });
    assert.deepEqual(
      seen.map((c) => [c.before, c.after]),
      [[A, B]],
    );
    const noField = Buffer.from('zen=hi');
    assert.deepEqual(await send(noField, { id: 'd-f2', type: 'application/x-www-form-urlencoded; charset=utf-8' }), {
      status: 400,
      body: { error: 'delivery d-f2: the form-encoded body has no payload field', reason: 'badPayload' },
    });
    assert.deepEqual(await send(json, { id: 'd-f3', type: 'text/plain' }), {
      status: 415,
      body: {
        error:
          "content type 'text/plain' is not accepted; set the webhook's content type to application/json or application/x-www-form-urlencoded",
        reason: 'badContentType',
      },
    });
    assert.deepEqual(deliveries(), [
      { delivery_id: 'd-form', event: 'pull_request', action: 'synchronize', repo: 'acme/web', outcome: 'headChange' },
    ]);
  });

  it('a delivery whose handling failed is not recorded, so its redelivery is handled', async () => {
    const body = prEvent('synchronize', { before: A, after: B });
    const healthy = deps.hostForRepo;
    deps.hostForRepo = () => {
      throw new Error('projects.yaml is unreadable');
    };
    const failed = await send(body, { id: 'd-re' });
    assert.deepEqual(failed, {
      status: 503,
      body: {
        error: 'delivery d-re could not be handled (projects.yaml is unreadable); redeliver it later',
        reason: 'notHandled',
      },
    });
    assert.deepEqual([seen, deliveries()], [[], []]);
    deps.hostForRepo = healthy;
    assert.deepEqual(await send(body, { id: 'd-re' }), {
      status: 200,
      body: { ok: true, delivery: 'd-re', event: 'pull_request', outcome: 'headChange' },
    });
    assert.deepEqual(await send(body, { id: 'd-re' }), { status: 200, body: { duplicate: true, delivery: 'd-re' } });
    assert.equal(seen.length, 1);
  });

  it("a fork's PR whose branch is named like an issue branch starts nothing", async () => {
    const fork = (full: string | null) =>
      Buffer.from(
        JSON.stringify({
          action: 'synchronize',
          before: A,
          after: B,
          pull_request: {
            number: 9,
            head: { ref: 'issue/web-7', sha: B, repo: full === null ? null : { full_name: full } },
          },
          repository: { full_name: 'acme/web' },
        }),
      );
    assert.equal(((await send(fork('mallory/web'))).body as { outcome: string }).outcome, 'fork');
    assert.equal(((await send(fork(null))).body as { outcome: string }).outcome, 'fork');
    assert.deepEqual(seen, []);
    assert.equal(((await send(fork('ACME/web'))).body as { outcome: string }).outcome, 'headChange');
    assert.deepEqual(
      (seen as HeadChange[]).map((c) => c.number),
      [9],
    );
  });

  it('a comment written, edited or deleted on a PR tells the views to read its readiness again', async () => {
    const told: unknown[] = [];
    host.onPrActivity((pr) => told.push(pr));
    const comment = (action: string, pr = true) =>
      Buffer.from(
        JSON.stringify({
          action,
          issue: { number: 7, ...(pr ? { pull_request: { url: 'x' } } : {}) },
          comment: { id: 5, body: 'edited' },
          repository: { full_name: 'acme/web' },
        }),
      );
    for (const action of ['edited', 'deleted', 'created'])
      assert.equal(
        ((await send(comment(action), { event: 'issue_comment' })).body as { outcome: string }).outcome,
        'prActivity',
      );
    assert.equal(
      ((await send(comment('edited', false), { event: 'issue_comment' })).body as { outcome: string }).outcome,
      'ignored',
    );
    assert.deepEqual(told, [
      { project: 'web', number: 7 },
      { project: 'web', number: 7 },
      { project: 'web', number: 7 },
    ]);
  });

  it('refuses from the headers alone, before any body is read: no secret, no signature, an event svc does not act on', () => {
    const headers = {
      'x-hub-signature-256': sign(Buffer.from('x')),
      'x-github-delivery': 'd-h',
      'x-github-event': 'pull_request',
    };
    assert.equal(webhookBeforeBody(deps, headers), undefined);
    assert.equal(webhookBeforeBody(deps, { ...headers, 'x-hub-signature-256': undefined })?.status, 401);
    assert.deepEqual(webhookBeforeBody(deps, { ...headers, 'x-github-event': 'push' }), {
      status: 200,
      body: { ok: true, delivery: 'd-h', event: 'push', outcome: 'ignored' },
    });
    secret = undefined;
    assert.equal(webhookBeforeBody(deps, headers)?.status, 409);
    assert.deepEqual(deliveries(), []);
  });
});

describe("GitHub's documented webhook payloads (@octokit/webhooks-examples) through the webhook handler", () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a JSON package with no types
  const definitions = require('@octokit/webhooks-examples') as { name: string; examples: Record<string, unknown>[] }[];

  it('every example, as JSON and form-encoded, answers 200 with the outcome its event and action call for', async () => {
    const db = openDb(':memory:', [storeMigrations, codeHostMigrations]);
    let n = 0;
    let handled = 0;
    try {
      for (const def of definitions) {
        for (const example of def.examples) {
          const full = (example.repository as { full_name?: string } | undefined)?.full_name;
          const host = new GithubHost({
            project: 'p',
            owner: (full ?? 'x/y').split('/')[0],
            repo: (full ?? 'x/y').split('/')[1],
            token: 't',
            baseUrl: 'http://127.0.0.1:9',
            defaultBase: 'main',
          });
          const changes: HeadChange[] = [];
          host.onHeadChange((c) => changes.push(c));
          const deps: WebhookDeps = { db, secret: () => SECRET, hostForRepo: () => host, now: () => 1 };
          const pr = example.pull_request as
            { number: number; head: { sha: string; repo: { full_name: string } | null } } | undefined;
          const action = example.action as string | undefined;
          let want: string;
          if (def.name === 'ping') want = 'pong';
          else if (!['pull_request', 'issue_comment'].includes(def.name)) want = 'ignored';
          else if (!action || !full) want = 'ignored';
          else if (def.name === 'issue_comment')
            want = (example.issue as { pull_request?: unknown }).pull_request ? 'prActivity' : 'ignored';
          else if (pr!.head.repo?.full_name !== full) want = 'fork';
          else if (['opened', 'reopened', 'ready_for_review'].includes(action)) want = 'headChange';
          else if (action === 'synchronize') want = example.before === example.after ? 'ignored' : 'headChange';
          else want = 'ignored';
          for (const type of ['application/json', 'application/x-www-form-urlencoded']) {
            const json = JSON.stringify(example);
            const body = Buffer.from(
              type === 'application/json' ? json : new URLSearchParams({ payload: json }).toString(),
            );
            const headers = {
              'x-hub-signature-256': sign(body),
              'x-github-delivery': `ex-${n++}`,
              'x-github-event': def.name,
              'content-type': type,
            };
            const out = await handleGithubWebhook(deps, request(body, headers));
            assert.deepEqual(
              [def.name, action, type, out.status, (out.body as { outcome?: string }).outcome],
              [def.name, action, type, 200, want],
            );
          }
          if (want === 'headChange') {
            handled++;
            assert.deepEqual(
              changes.map((c) => [c.number, c.after]),
              [
                [pr!.number, (example.after as string | undefined) ?? pr!.head.sha],
                [pr!.number, (example.after as string | undefined) ?? pr!.head.sha],
              ],
            );
          } else assert.deepEqual(changes, []);
        }
      }
    } finally {
      db.close();
    }
    assert.ok(definitions.length > 50 && handled >= 9, `${definitions.length} events, ${handled} head changes`);
  });
});
