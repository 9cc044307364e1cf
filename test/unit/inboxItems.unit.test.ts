// The inbox rules (server/inbox/inboxItems.ts) on hand-made facts: each kind appears with
// its cause and not without it, oldest first; a report carries only its first lines.
import * as assert from 'node:assert/strict';
import type { ConversationInfo } from '../../shared/protocol/conversations';
import type { LaneRecord } from '../../shared/protocol/lanes';
import { inboxItems } from '../../server/inbox/inboxItems';
import type { InboxFacts } from '../../server/inbox/inboxItems';
import { ageText, parseDuration } from '../../shared/format/duration';

const NOW = 10_000_000;

const conv = (o: Partial<ConversationInfo> = {}): ConversationInfo =>
  ({
    id: 7,
    name: 'agent-web-1',
    project: 'web',
    activity: 'stopped',
    alive: false,
    ask: null,
    createdAt: 1000,
    endedAt: 2000,
    spawnError: null,
    ...o,
  }) as ConversationInfo;

const lane = (o: Partial<LaneRecord> = {}): LaneRecord =>
  ({
    id: 3,
    name: 'b-x-builder-i1',
    run: 'b',
    project: 'proj',
    role: 'builder',
    host: null,
    activity: 'working',
    reaped: false,
    createdAt: 500,
    budget: { state: 'ok', text: '$0.10 of $1.00 (10%)' },
    report: null,
    ...o,
  }) as LaneRecord;

const facts = (o: Partial<InboxFacts>): InboxFacts => ({
  now: NOW,
  conversations: [],
  lanes: [],
  outputAt: () => undefined,
  stallAfterMs: () => 15 * 60_000,
  reviews: [],
  ...o,
});

describe('inbox items', () => {
  it('a changes-requested review waits only while no work agent is alive; its command resumes the agent', () => {
    const review = { issue: 'WEB-1', project: 'web', runId: 'r2', pr: 4, verdictAt: 5000 };
    const stopped = inboxItems(facts({ reviews: [{ ...review, workAgent: conv() }] }));
    assert.deepEqual(stopped, [
      {
        id: 'review-web-1',
        kind: 'changes-requested',
        since: 5000,
        conversation: { id: 7, name: 'agent-web-1' },
        lane: null,
        run: 'r2',
        project: 'web',
        host: null,
        title: 'changes requested by review r2 of WEB-1 (PR #4); no work agent is alive',
        lines: ['the review: svc pr show 4 --project web'],
        choices: [],
        command: 'svc conv resume agent-web-1',
      },
    ]);
    assert.deepEqual(inboxItems(facts({ reviews: [{ ...review, workAgent: conv({ alive: true }) }] })), []);
    assert.equal(inboxItems(facts({ reviews: [{ ...review, workAgent: undefined }] }))[0].command, 'svc show WEB-1');
  });

  it('a stall counts from the last output, only while working; its since is when stall_after was reached', () => {
    const at = NOW - 16 * 60_000;
    const [st] = inboxItems(facts({ lanes: [lane()], outputAt: () => at }));
    assert.equal(st.kind, 'stalled');
    assert.equal(st.since, at + 15 * 60_000);
    assert.equal(st.title, 'stalled: working, no output or tool activity for 16m');
    assert.deepEqual(inboxItems(facts({ lanes: [lane()], outputAt: () => NOW - 60_000 })), []);
    assert.deepEqual(inboxItems(facts({ lanes: [lane({ activity: 'idle' })], outputAt: () => at })), []);
  });

  it('a blocked report carries its first three lines; a SPEND report is the spend hold, not a second item', () => {
    const body = 'ONE-WAY: drop the table?\n\nline 2\nline 3\nline 4\n';
    const report = { status: 'blocked', body, at: 900 } as LaneRecord['report'];
    const [b] = inboxItems(facts({ lanes: [lane({ activity: 'idle', report })] }));
    assert.deepEqual([b.title, b.lines], ['blocked: ONE-WAY: drop the table?', ['line 2', 'line 3']]);
    const spend = { status: 'blocked', body: 'SPEND: over\nmore', at: 950 } as LaneRecord['report'];
    const held = lane({
      activity: 'idle',
      report: spend,
      budget: { state: 'reached', text: 'x' } as LaneRecord['budget'],
    });
    assert.deepEqual(
      inboxItems(facts({ lanes: [held] })).map((i) => [i.id, i.since, i.lines]),
      [['spend-3', 950, ['SPEND: over', 'more']]],
    );
    // Raised: the SPEND report stays the newest, and nothing waits.
    assert.deepEqual(inboxItems(facts({ lanes: [{ ...held, budget: { ...held.budget, state: 'ok' } }] })), []);
  });

  it('oldest first across kinds', () => {
    const ask: NonNullable<ConversationInfo['ask']> = {
      kind: 'question',
      title: 'Name?',
      options: [],
      fields: ['name'],
      openedAt: 3000,
    };
    const items = inboxItems(
      facts({
        conversations: [
          conv({ id: 1, name: 'a', activity: 'needs-you', ask: { ...ask } }),
          conv({ id: 2, name: 'b', activity: 'failed-to-start', spawnError: 'no binary\nmore', endedAt: 1500 }),
        ],
      }),
    );
    assert.deepEqual(
      items.map((i) => [i.id, i.title, i.command]),
      [
        ['failed-2', 'failed to start: no binary', 'svc conv resume b'],
        ['ask-1', 'question: Name?', 'svc inbox answer ask-1 --text <answer>'],
      ],
    );
  });

  it('durations: stall_after as written, ages as read', () => {
    assert.deepEqual(['90s', '15m', '2h', '15', 'm'].map(parseDuration), [
      90_000,
      900_000,
      7_200_000,
      undefined,
      undefined,
    ]);
    assert.deepEqual([5_000, 125_000, 3_900_000, 90_000_000].map(ageText), ['5s', '2m', '1h 5m', '1d 1h']);
  });
});
