// The landing queue as each view shows it (docs/decisions/land.md, "The queue shown"):
// `svc lane runs`' table under the cards, the Awareness card's lines, and the Command
// Deck's row description, tooltip and the join of lanes/landings onto the lanes' rows.
import * as assert from 'node:assert/strict';
import { formatLandingQueue } from '../../cli/commands/landQueueFormat';
import { landingQueueLines } from '../../extension/awareness/landingQueue';
import { describeRow, tooltipOf } from '../../extension/commandDeck/deckModel';
import { deckRows } from '../../extension/commandDeck/deckRows';
import type { ConversationInfo } from '../../shared/protocol/conversations';
import type { Landing } from '../../shared/protocol/land';
import type { LaneRecord, RunCard, RunCardLanding } from '../../shared/protocol/lanes';
import { lane } from '../helpers/deckRowMakers';

const entry = (id: number, lane: string, position: number, o: Partial<RunCardLanding> = {}): RunCardLanding => ({
  id,
  lane,
  laneId: id + 10,
  base: 'main',
  state: position === 0 ? 'running' : 'queued',
  position,
  pr: null,
  ...o,
});
const card = (project: string, run: string, landings: RunCardLanding[]) => ({ project, run, landings }) as RunCard;

describe('svc lane runs: the landing queues under the cards (cli/commands/landQueueFormat.ts)', () => {
  it('prints nothing when no landing waits', () => {
    assert.equal(formatLandingQueue([card('proj', 'r1', [])]), '');
  });

  it('lists every queued and running landing per base, in queue order across runs', () => {
    const cards = [
      card('web', 'r2', [entry(7, 'r2-ui-builder-i1', 0, { base: 'main', pr: 4 })]),
      card('proj', 'r1', [entry(3, 'r1-a-builder-i1', 0), entry(5, 'r1-c-builder-i2', 2)]),
      card('proj', 'r2', [entry(4, 'r2-b-builder-i1', 1)]),
    ];
    assert.equal(
      formatLandingQueue(cards),
      [
        'BASE       PLACE  LANDING  LANE              STATE',
        'proj/main  0      #3       r1-a-builder-i1   running',
        'proj/main  1      #4       r2-b-builder-i1   queued, next',
        'proj/main  2      #5       r1-c-builder-i2   queued',
        'web/main   0      #7       r2-ui-builder-i1  running (PR #4)',
        '',
      ].join('\n'),
    );
  });
});

describe('Awareness card: the run’s landing lines (extension/awareness/landingQueue.ts)', () => {
  it('says where each landing is in its base’s queue, with its PR on GitHub', () => {
    assert.deepEqual(
      landingQueueLines([
        entry(3, 'r1-a-builder-i1', 0, { pr: 2 }),
        entry(4, 'r1-b-builder-i1', 1),
        entry(6, 'r1-c-builder-i1', 3, { base: 'dev' }),
      ]),
      [
        'landing #3 r1-a-builder-i1 → main · running · PR #2',
        'landing #4 r1-b-builder-i1 → main · queued, next',
        'landing #6 r1-c-builder-i1 → dev · queued, 3 ahead',
      ],
    );
    assert.deepEqual(landingQueueLines([]), []);
  });
});

describe('Command Deck: a builder row with a landing in the queue', () => {
  it('marks the description and names the place in the tooltip', () => {
    const running = lane(2, 1, 'builder', 1, {
      title: 'r1 k builder i1',
      landing: { id: 3, base: 'main', state: 'running', position: 0, pr: null },
    });
    assert.equal(describeRow(running), '#2 · idle · landing #3 running');
    assert.equal(tooltipOf(running).split('\n').pop(), '- landing: \\#3 on main, running');
    const next = lane(2, 1, 'builder', 1, {
      title: 'r1 k builder i1',
      landing: { id: 4, base: 'main', state: 'queued', position: 1, pr: 7 },
    });
    assert.equal(describeRow(next), '#2 · idle · landing #4 queued, next');
    assert.equal(
      tooltipOf(next).split('\n').pop(),
      '- landing: \\#4 on main, 1 ahead of it in the queue \\(PR \\#7\\)',
    );
    const later = lane(2, 1, 'builder', 1, {
      title: 'r1 k builder i1',
      landing: { id: 5, base: 'main', state: 'queued', position: 2, pr: null },
    });
    assert.equal(describeRow(later), '#2 · idle · landing #5 queued, 2 ahead');
  });

  it('joins lanes/landings onto the lane it lands; ended landings mark nothing', () => {
    const conv = (id: number) =>
      ({
        id,
        name: `c${id}`,
        title: `t${id}`,
        kind: 'lane',
        parentId: 1,
        activity: 'idle',
        archived: false,
      }) as ConversationInfo;
    const rec = (id: number) =>
      ({
        id,
        role: 'builder',
        run: 'r1',
        key: `k${id}`,
        iteration: 1,
        reaped: false,
        judged: null,
        verdict: null,
        git: null,
        budget: { spent: 0, cap: null, from: null, run: { spent: 0, cap: null, from: null }, state: 'none', text: '' },
      }) as unknown as LaneRecord;
    const landing = (id: number, laneId: number, state: Landing['state'], position: number | null) =>
      ({ id, laneId, base: 'main', state, position, pr: null }) as Landing;
    const rows = deckRows(
      [conv(2), conv(3), conv(4)],
      [rec(2), rec(3), rec(4)],
      [landing(8, 2, 'running', 0), landing(9, 3, 'queued', 1), landing(5, 4, 'landed', null)],
    );
    assert.deepEqual(
      rows.map((r) => r.landing),
      [
        { id: 8, base: 'main', state: 'running', position: 0, pr: null },
        { id: 9, base: 'main', state: 'queued', position: 1, pr: null },
        undefined,
      ],
    );
  });
});
