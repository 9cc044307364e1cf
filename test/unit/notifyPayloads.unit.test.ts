// What each notify target kind receives (server/notify/payloads.ts) for a hand-made inbox
// item: the fields that decide it, the age at sending, the exact command; Slack's markup
// escaped; ntfy's headers printable ASCII whatever the agent wrote; never a secret.
import * as assert from 'node:assert/strict';
import {
  headerSafe,
  noticeOf,
  ntfyPayload,
  payloadFor,
  slackPayload,
  testNotice,
  webhookPayload,
} from '../../server/notify/payloads';
import type { InboxItem } from '../../shared/protocol/inbox';

const SINCE = Date.parse('2026-12-02T09:00:00.000Z');
const item: InboxItem = {
  id: 'blocked-14',
  kind: 'blocked',
  since: SINCE,
  conversation: { id: 14, name: 'r-a-builder-i1' },
  lane: 'r-a-builder-i1',
  run: 'r',
  project: 'web',
  host: 'box',
  title: 'blocked: RULING: keep <old> API & docs?',
  lines: ['Option A keeps it.', 'Option B breaks it.'],
  choices: [],
  command: 'svc tell r-a-builder-i1 <your ruling>',
};
const n = noticeOf('blocked-14@' + SINCE, item);
const NOW = SINCE + 3 * 60_000;

describe('notify payloads', () => {
  it('a webhook gets the item as JSON with its event id, ISO since, age and command', () => {
    const p = webhookPayload(n, NOW);
    assert.equal(p.contentType, 'application/json');
    assert.equal(p.headers['X-Svc-Event'], `blocked-14@${SINCE}`);
    assert.match(p.headers['User-Agent'], /^svc\//);
    assert.deepEqual(JSON.parse(p.body), {
      source: 'svc',
      event: `blocked-14@${SINCE}`,
      kind: 'blocked',
      item: 'blocked-14',
      title: 'blocked: RULING: keep <old> API & docs?',
      lines: ['Option A keeps it.', 'Option B breaks it.'],
      conversation: { id: 14, name: 'r-a-builder-i1' },
      lane: 'r-a-builder-i1',
      run: 'r',
      project: 'web',
      host: 'box',
      since: '2026-12-02T09:00:00.000Z',
      age: '3m',
      choices: [],
      command: 'svc tell r-a-builder-i1 <your ruling>',
    });
  });

  it('ntfy gets text with the command, and Title, Tags and Priority headers', () => {
    const p = ntfyPayload(n, NOW);
    assert.equal(p.contentType, 'text/plain; charset=utf-8');
    assert.equal(
      p.body,
      'blocked: RULING: keep <old> API & docs?\nOption A keeps it.\nOption B breaks it.\n-> svc tell r-a-builder-i1 <your ruling>',
    );
    assert.equal(p.headers.Title, 'svc blocked: lane r-a-builder-i1 - run r - web - on box (3m)');
    assert.equal(p.headers.Tags, 'svc,blocked');
    assert.equal(p.headers.Priority, '3');
    const ask = ntfyPayload(
      noticeOf('ask-1@1', {
        ...item,
        kind: 'needs-you',
        lane: null,
        run: null,
        host: null,
        choices: [{ id: 'allow', name: 'Allow' }],
      }),
      NOW,
    );
    assert.equal(ask.headers.Priority, '4');
    assert.equal(ask.headers.Title, 'svc needs-you: #14 r-a-builder-i1 - web (3m)');
    assert.match(ask.body, /\nchoices: allow\n-> /);
  });

  it('Slack gets one text with &, < and > escaped and the command as code', () => {
    const p = slackPayload(n, NOW);
    assert.deepEqual(JSON.parse(p.body), {
      text: [
        '*svc blocked* · lane r-a-builder-i1 · run r · web · on box · 3m',
        'blocked: RULING: keep &lt;old&gt; API &amp; docs?',
        '> Option A keeps it.',
        '> Option B breaks it.',
        '`svc tell r-a-builder-i1 &lt;your ruling&gt;`',
      ].join('\n'),
    });
  });

  it('picks the builder by target kind; no payload carries an Authorization header', () => {
    for (const kind of ['webhook', 'ntfy', 'slack'] as const) {
      const p = payloadFor({ kind }, n, NOW);
      assert.equal(p.headers.Authorization, undefined, kind);
      assert.equal(p.headers['X-Svc-Event'], `blocked-14@${SINCE}`);
    }
  });

  it('header values are printable ASCII and bounded, whatever the text', () => {
    assert.equal(headerSafe('déjà vu\r\nInjected: yes · ✓'), 'deja vu  Injected: yes -');
    assert.equal(headerSafe('x'.repeat(300)).length, 250);
  });

  it('the test notice acts on nothing and says so', () => {
    const t = testNotice(SINCE);
    assert.equal(t.kind, 'test');
    assert.equal(t.eventId, `test@${SINCE}`);
    assert.equal((JSON.parse(webhookPayload(t, SINCE).body) as { command: string }).command, 'svc inbox');
  });
});
