// The notify outbox (server/notify/outbox.ts) on an in-memory store, the backoff
// (backoff.ts) and svc doctor's checks (notifyCheck.ts): an event is enqueued once per
// (target, item as it began to wait); a failure is retried later or given up; a given-up
// target is a problem until it acknowledges again.
import * as assert from 'node:assert/strict';
import { MAX_ATTEMPTS, nextAttemptAt, retryBaseFromEnv, retryDelayMs } from '../../server/notify/backoff';
import { notifyMigrations } from '../../server/notify/migrations';
import { notifyChecks } from '../../server/notify/notifyCheck';
import { eventKey, KEEP_DONE_MS, Outbox } from '../../server/notify/outbox';
import { openDb } from '../../server/store/db';
import { storeMigrations } from '../../server/store/migrations';
import type { InboxItem } from '../../shared/protocol/inbox';

const item = (id: string, since: number): InboxItem => ({
  id,
  kind: 'failed-start',
  since,
  conversation: { id: 1, name: 'a' },
  lane: null,
  run: null,
  project: 'p',
  host: null,
  title: 'failed to start: x',
  lines: [],
  choices: [],
  command: 'svc conv resume a',
});

describe('notify outbox', () => {
  it('enqueues each (target, item as it began to wait) once; a new wait of the same item is a new event', () => {
    const o = new Outbox(openDb(':memory:', [storeMigrations, notifyMigrations]));
    assert.equal(
      o.enqueue(
        [
          { target: 't', item: item('ask-1', 100) },
          { target: 'u', item: item('ask-1', 100) },
        ],
        1000,
      ),
      2,
    );
    assert.equal(o.enqueue([{ target: 't', item: item('ask-1', 100) }], 1001), 0);
    assert.equal(o.enqueue([{ target: 't', item: item('ask-1', 200) }], 1002), 1);
    assert.deepEqual(
      o.due(['t'], 2000).map((e) => e.eventKey),
      ['ask-1@100', 'ask-1@200'],
    );
    assert.deepEqual(o.due(['v'], 2000), [], 'only configured targets are due');
  });

  it('a failure waits for its retry time; sent and given-up events are never due again', () => {
    const o = new Outbox(openDb(':memory:', [storeMigrations, notifyMigrations]));
    o.enqueue(
      [
        { target: 't', item: item('a', 1) },
        { target: 't', item: item('b', 2) },
      ],
      1000,
    );
    const [a, b] = o.due(['t'], 1000);
    o.markFailed(a.id, 'HTTP 500', 5000, 1000);
    o.markSent(b.id, 1000);
    assert.deepEqual(o.due(['t'], 4999), []);
    assert.equal(o.nextDue(['t']), 5000);
    assert.deepEqual(
      o.due(['t'], 5000).map((e) => [e.eventKey, e.attempts]),
      [['a@1', 1]],
    );
    o.markFailed(a.id, 'network error ECONNREFUSED', null, 6000);
    assert.deepEqual(o.due(['t'], 1e12), []);
    assert.equal(o.nextDue(['t']), undefined);
    assert.deepEqual(o.tallies(), [
      {
        target: 't',
        sent: 1,
        pending: 0,
        givenUp: 1,
        lastError: 'network error ECONNREFUSED',
        lastGivenUpAt: 6000,
        lastSentAt: 1000,
      },
    ]);
    // Pruned once old, unless the item still waits (its key would come back).
    o.prune(new Set(['a@1']), 6000 + KEEP_DONE_MS + 1);
    assert.deepEqual(
      o.tallies().map((t) => [t.sent, t.givenUp]),
      [[0, 1]],
    );
    assert.equal(eventKey({ id: 'x', since: 1.6 }), 'x@2');
  });

  it('backs off 1, 2, 4 … times the base, capped, and gives up after the limit', () => {
    assert.deepEqual(
      [1, 2, 3, 4].map((n) => retryDelayMs(n, 10_000)),
      [10_000, 20_000, 40_000, 80_000],
    );
    assert.equal(retryDelayMs(9, 10_000), 30 * 60 * 1000);
    assert.equal(nextAttemptAt(MAX_ATTEMPTS - 1, 0, 5), 5 * 2 ** (MAX_ATTEMPTS - 2));
    assert.equal(nextAttemptAt(MAX_ATTEMPTS, 0, 5), null);
    assert.deepEqual(
      [undefined, '5', '0', 'x', '9999999'].map((v) => retryBaseFromEnv({ SVC_NOTIFY_RETRY_BASE_MS: v })),
      [10_000, 5, 10_000, 10_000, 10_000],
    );
  });

  it('svc doctor: ok with counts; given up is a problem until sent again, then a note', () => {
    const t = { name: 'hook', kind: 'webhook' as const, url: 'https://secret.test/path' };
    const tally = {
      target: 'hook',
      sent: 2,
      pending: 1,
      givenUp: 0,
      lastError: null,
      lastGivenUpAt: null,
      lastSentAt: 5,
    };
    assert.deepEqual(notifyChecks([t], [tally], '~/.svc/config.yaml'), [
      {
        area: 'notify',
        subject: 'hook',
        status: 'ok',
        text: 'target hook (webhook, kinds: all): 2 sent, 1 pending',
        fix: null,
      },
    ]);
    const given = { ...tally, givenUp: 3, lastError: 'HTTP 500', lastGivenUpAt: 9 };
    const [problem] = notifyChecks([{ ...t, kinds: ['needs-you'] }], [given], '~/.svc/config.yaml');
    assert.equal(problem.status, 'problem');
    assert.equal(
      problem.text,
      'target hook (webhook, kinds: needs-you): 2 sent, 1 pending, 3 given up (retried 10 times, or refused by the target); last error: HTTP 500',
    );
    assert.equal(
      problem.fix,
      "check notify target hook's url and secret in ~/.svc/config.yaml, then svc notify test hook",
    );
    const [note] = notifyChecks([t], [{ ...given, lastSentAt: 10 }], '~/.svc/config.yaml');
    assert.equal(note.status, 'note');
    assert.match(note.text, /; sent again since$/);
    assert.ok(!JSON.stringify([problem, note]).includes('secret.test'), 'the URL is never shown');
    assert.equal(notifyChecks([t], [], 'x')[0].text, 'target hook (webhook, kinds: all): 0 sent, 0 pending');
  });
});
