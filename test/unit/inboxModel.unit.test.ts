// The Inbox view's rows (extension/inbox/inboxModel.ts) from hand-made inbox items: one row
// per item in the daemon's order, its context value, what the badge and the status bar say,
// which items a notification announces (new ones, not muted ones, none on the first read)
// and the buttons each kind's notification offers.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { InboxItem } from '../../shared/protocol/inbox';
import { INBOX_KINDS } from '../../shared/protocol/inbox';
import {
  inboxBadge,
  inboxContextValue,
  inboxNodes,
  inboxStatus,
  itemKey,
  newItems,
  noticeOf,
} from '../../extension/inbox/inboxModel';

const NOW = 10_000_000;

const item = (o: Partial<InboxItem> = {}): InboxItem => ({
  id: 'ask-12',
  kind: 'needs-you',
  since: NOW - 5 * 60_000,
  conversation: { id: 12, name: 'b-x-builder-i1' },
  lane: 'b-x-builder-i1',
  run: 'b',
  project: 'proj',
  host: null,
  title: 'permission: Run the migration?',
  lines: [],
  choices: [
    { id: 'allow', name: 'Allow' },
    { id: 'reject', name: 'Reject' },
  ],
  command: 'svc inbox answer ask-12 --option <allow|reject>',
  ...o,
});

const spend = item({
  id: 'spend-14',
  kind: 'spend',
  since: NOW - 3 * 3_600_000,
  conversation: { id: 14, name: 'b-y-builder-i1' },
  lane: 'b-y-builder-i1',
  title: 'held at its spend cap: $0.60 of $0.50 (120%)',
  lines: ['SPEND: lane cap reached'],
  choices: [],
  command: 'svc inbox answer spend-14 --budget <usd>',
});

const review = item({
  id: 'review-web-1',
  kind: 'changes-requested',
  conversation: null,
  lane: null,
  run: 'r2',
  project: 'web',
  title: 'changes requested by review r2 of WEB-1 (PR #4); no work agent is alive',
  choices: [],
  command: "svc show 'WEB-1'",
});

describe('inbox view model', () => {
  it('makes one row per item, oldest first as given, with where it is and its age', () => {
    const nodes = inboxNodes([spend, item(), review], NOW);
    assert.deepEqual(
      nodes.map((n) => [n.id, n.label, n.description, n.contextValue, n.convId, n.icon.id]),
      [
        [
          'inbox:spend-14',
          'held at its spend cap: $0.60 of $0.50 (120%)',
          'lane b-y-builder-i1 · run b · proj · 3h',
          'svc:inbox+spend+conv+lane',
          14,
          'credit-card',
        ],
        [
          'inbox:ask-12',
          'permission: Run the migration?',
          'lane b-x-builder-i1 · run b · proj · 5m',
          'svc:inbox+needs-you+conv+lane',
          12,
          'bell-dot',
        ],
        [
          'inbox:review-web-1',
          'changes requested by review r2 of WEB-1 (PR #4); no work agent is alive',
          'run r2 · web · 5m',
          'svc:inbox+changes-requested',
          undefined,
          'request-changes',
        ],
      ],
    );
    assert.equal(
      nodes[1].tooltip,
      [
        '**permission: Run the migration?**',
        '',
        '- choices: Allow, Reject',
        '- where: lane b\\-x\\-builder\\-i1 · run b · proj',
        '- waiting for 5m',
        '',
        'In a terminal: `svc inbox answer ask-12 --option <allow|reject>`',
      ].join('\n'),
    );
    assert.equal(inboxContextValue(item({ lane: null })), 'svc:inbox+needs-you+conv');
    assert.deepEqual(inboxNodes([], NOW), []);
  });

  it('counts every item on the badge and in the status bar item', () => {
    assert.equal(inboxBadge(0), undefined);
    assert.deepEqual(inboxBadge(1), { value: 1, tooltip: '1 svc item waits on you' });
    assert.deepEqual(inboxBadge(3), { value: 3, tooltip: '3 svc items wait on you' });
    assert.deepEqual(inboxStatus([]), {
      text: '$(inbox) 0',
      tooltip: 'svc: nothing waits on you. Click to open the Inbox.',
    });
    assert.deepEqual(inboxStatus([spend, item(), item({ id: 'ask-13' })]), {
      text: '$(inbox) 3',
      tooltip: 'svc: 3 items wait on you (1 spend, 2 needs-you). Click to open the Inbox.',
    });
  });

  it('announces only items new since the previous read, not on the first read, and not muted kinds', () => {
    const ask = item();
    assert.deepEqual(newItems(undefined, [ask, spend], []), [], 'the first read sets what was seen');
    const seen = new Set([itemKey(ask)]);
    assert.deepEqual(newItems(seen, [ask, spend], []), [spend]);
    assert.deepEqual(newItems(seen, [ask, spend], ['spend']), []);
    // The same conversation asking again is a new item: its request opened later.
    const again = item({ since: NOW });
    assert.deepEqual(newItems(seen, [again], []), [again]);
  });

  it("offers a request's few choices as buttons, else Answer…, and each kind's next step", () => {
    const labels = (i: InboxItem) => noticeOf(i).actions.map((a) => a.label);
    assert.deepEqual(noticeOf(item()), {
      message: 'svc: b-x-builder-i1: permission: Run the migration?',
      actions: [
        { label: 'Allow', run: 'option', option: 'allow' },
        { label: 'Reject', run: 'option', option: 'reject' },
        { label: 'Open Inbox', run: 'openInbox' },
      ],
    });
    const four = ['a', 'b', 'c', 'd'].map((id) => ({ id, name: id.toUpperCase() }));
    assert.deepEqual(labels(item({ choices: four })), ['Answer…', 'Open Inbox']);
    assert.deepEqual(labels(item({ title: 'question: Which port?', choices: [] })), ['Answer…', 'Open Inbox']);
    assert.deepEqual(labels(item({ kind: 'blocked' })), ['Tell…', 'Open Inbox']);
    assert.deepEqual(labels(spend), ['Raise Spend Cap…', 'Open Inbox']);
    assert.deepEqual(labels(item({ kind: 'failed-start' })), ['Resume', 'Reap…', 'Open Inbox']);
    assert.deepEqual(labels(item({ kind: 'failed-start', lane: null })), ['Resume', 'Open Inbox']);
    assert.deepEqual(labels(item({ kind: 'stalled' })), ['Open', 'Stop', 'Open Inbox']);
    assert.deepEqual(labels(review), ['Open Inbox']);
    assert.equal(
      noticeOf(review).message,
      'svc: r2: changes requested by review r2 of WEB-1 (PR #4); no work agent is alive',
    );
  });

  it('lets the person mute every kind the window announces (spend holds have their own notice)', () => {
    const pkg = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', 'package.json'), 'utf8')) as {
      contributes: { configuration: { properties: Record<string, { default: unknown; items: { enum: string[] } }> } };
    };
    const setting = pkg.contributes.configuration.properties['svc.inbox.mutedKinds'];
    assert.deepEqual(setting.default, []);
    assert.deepEqual(
      setting.items.enum,
      INBOX_KINDS.filter((k) => k !== 'spend'),
    );
  });
});
