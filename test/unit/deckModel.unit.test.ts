// The Command Deck's tree: lanes under their launcher, judges under the builder they judge,
// review convoys folded per issue, filters, pinning and the join of conversations with lanes.
import * as assert from 'node:assert/strict';
import { convoyFacts } from '../../extension/commandDeck/convoys';
import { verdictBadge } from '../../extension/commandDeck/deckIcons';
import { buildDeck, describeRow, needsYouCount } from '../../extension/commandDeck/deckModel';
import type { DeckNode, DeckRow } from '../../extension/commandDeck/deckModel';
import { deckRows } from '../../extension/commandDeck/deckRows';
import type { ConversationInfo } from '../../shared/protocol/conversations';
import type { LaneRecord } from '../../shared/protocol/lanes';
import type { IssueState } from '../../shared/protocol/review';
import { lane, row, shape } from '../helpers/deckRowMakers';

describe('Command Deck model (extension/commandDeck/deckModel.ts)', () => {
  it('nests lanes under their launcher, oldest first, with stable ids', () => {
    const nodes = buildDeck([lane(4, 1, 'builder', 1, { key: 'b' }), row(1), row(2), lane(3, 1, 'builder', 1)]);
    assert.equal(shape(nodes), '1(3 4) 2');
    assert.deepEqual(
      nodes[0].children.map((n) => n.id),
      ['conv:3', 'conv:4'],
    );
    // A parent's id differs from a leaf's, so a row that gains children starts expanded in VS Code.
    assert.deepEqual([nodes[0].id, nodes[1].id], ['conv:1:tree', 'conv:2']);
  });

  it('nests a successor under its source and says whom it continues', () => {
    const nodes = buildDeck([row(1), lane(2, 1, 'builder', 1), row(3, { kind: 'successor', parentId: 1 })]);
    assert.equal(shape(nodes), '1(2 3)');
    assert.equal(nodes[0].children[1].description, '#3 · idle · continues ← #1');
  });

  it('nests critics and verifiers under the builder they judge; the verdict is a badge and an icon on both, never a duplicate row or text', () => {
    const rows = [
      row(1),
      lane(2, 1, 'builder', 1, { verdict: { verdict: 'NOT_YET', defects: 2, by: 3 } }),
      lane(3, 1, 'critic', 1, {
        judged: { key: 'k', iteration: 1 },
        verdict: { verdict: 'NOT_YET', defects: 2, by: 3 },
        activity: 'stopped',
      }),
      lane(4, 1, 'verifier', 1, { judged: { key: 'k', iteration: 1 }, activity: 'working' }),
      lane(5, 1, 'builder', 2, { verdict: { verdict: 'PASS', defects: 0, by: 6 } }),
      lane(6, 1, 'critic', 2, { judged: { key: 'k', iteration: 2 }, verdict: { verdict: 'PASS', defects: 0, by: 6 } }),
      lane(7, 1, 'builder', 3, { verdict: { verdict: 'PASS', defects: 0, by: 8 }, activity: 'needs-you' }),
    ];
    const nodes = buildDeck(rows);
    assert.equal(shape(nodes), '1(2(3 4) 5(6) 7)');
    const [b1, b2, b3] = nodes[0].children;
    const [c1, v1] = b1.children;
    const warn = { id: 'warning', color: 'svc.verdict.notYet' };
    const pass = { id: 'pass', color: 'svc.verdict.pass' };
    assert.deepEqual([b1.icon, c1.icon, b2.icon, b2.children[0].icon], [warn, warn, pass, pass]);
    assert.deepEqual(
      [b1.badge, c1.badge],
      [verdictBadge({ verdict: 'NOT_YET', defects: 2 }), verdictBadge({ verdict: 'NOT_YET', defects: 2 })],
    );
    assert.deepEqual(b1.badge, { text: '2', color: 'svc.verdict.notYet', tooltip: 'NOT YET: 2 defects' });
    assert.deepEqual(b2.badge, { text: '✓', color: 'svc.verdict.pass', tooltip: 'PASS' });
    assert.equal(v1.badge, undefined, 'a verifier without a verdict has no badge');
    assert.deepEqual(v1.icon, { id: 'sync~spin', color: 'charts.blue' });
    // needs-you wins over the verdict icon: the person must act.
    assert.deepEqual(b3.icon, { id: 'bell-dot', color: 'list.warningForeground' });
    assert.equal(b1.description, '#2 · idle · builder i1');
    assert.equal(c1.description, '#3 · stopped · critic i1');
    assert.match(b1.tooltip, /^- verdict: NOT\\_YET · 2 defects \(critic #3\)$/m);
  });

  it('folds a review convoy into one row per issue with its verdict; roles as labels; earlier runs as collapsed history', () => {
    const reviewer = (id: number, run: string, role: string | null, o: Partial<DeckRow> = {}) =>
      row(id, {
        kind: 'agent',
        issueId: 'SAMPLE-1',
        parentId: 10,
        activity: 'stopped',
        title:
          role === null
            ? `SAMPLE-1 review ${run}`
            : role === 'parent'
              ? `SAMPLE-1 review ${run} (parent)`
              : `SAMPLE-1 review ${run}: ${role}`,
        review: { runId: run, role: role ?? 'quick' },
        ...o,
      });
    const rows = [
      row(1),
      row(10, { kind: 'agent', issueId: 'SAMPLE-1', title: 'SAMPLE-1 work', parentId: 1 }),
      reviewer(11, 'r1', null, { archived: true }),
      reviewer(12, 'r2', 'parent'),
      reviewer(13, 'r2', 'security', { parentId: 12 }),
      reviewer(14, 'r2', 'correctness', { parentId: 12, activity: 'working' }),
    ];
    const state = {
      issue: { id: 'SAMPLE-1', project: 'sample', title: 't', branch: 'b', workspace: '/w' },
      pr: null,
      run: { runId: 'r2', mode: 'full', sha: 'abc', phase: 'verdict', verdict: 'APPROVED', worktree: null },
      reviewers: [
        {
          id: 12,
          name: 'agent-sample-1-review',
          role: 'parent',
          runId: 'r2',
          model: 'm',
          alive: false,
          activity: 'stopped',
          report: { path: '/w/review.md', exists: true, verdict: 'APPROVED' },
        },
        {
          id: 13,
          name: 'agent-sample-1-review-security',
          role: 'security',
          runId: 'r2',
          model: 'm',
          alive: false,
          activity: 'stopped',
          report: { path: '/w/security.md', exists: true, verdict: 'APPROVED' },
        },
        {
          id: 14,
          name: 'agent-sample-1-review-correctness',
          role: 'correctness',
          runId: 'r2',
          model: 'm',
          alive: true,
          activity: 'working',
          report: { path: '/w/correctness.md', exists: false, verdict: null },
        },
      ],
      journal: [
        { at: 't', kind: 'review.requested', issue: 'SAMPLE-1', runId: 'r1', sha: 'a' },
        { at: 't', kind: 'review.verdict', issue: 'SAMPLE-1', runId: 'r1', sha: 'a', verdict: 'CHANGES_REQUESTED' },
      ],
    } as unknown as IssueState;
    const reviews = convoyFacts([state]);
    // Live only (archived left out): the newest run alone.
    const live = buildDeck(rows, { convoys: true, reviews });
    assert.equal(shape(live), '1(10(<SAMPLE-1 review r2>(12 13 14)))');
    const convoy = live[0].children[0].children[0];
    assert.deepEqual(
      {
        id: convoy.id,
        label: convoy.label,
        description: convoy.description,
        badge: convoy.badge,
        icon: convoy.icon,
        contextValue: convoy.contextValue,
        issue: convoy.issue,
      },
      {
        id: 'convoy:SAMPLE-1:r2',
        label: 'SAMPLE-1 review r2',
        description: 'full · APPROVED',
        badge: { text: '✓', color: 'svc.verdict.pass', tooltip: 'APPROVED' },
        icon: { id: 'pass', color: 'svc.verdict.pass' },
        contextValue: 'svc:convoy+live+verdict',
        issue: 'SAMPLE-1',
      },
    );
    assert.deepEqual(
      convoy.children.map((n) => [n.label, n.description, n.reportFile ?? null, n.badge?.text ?? null]),
      [
        ['review parent', '#12 · stopped', '/w/review.md', '✓'],
        ['security', '#13 · stopped', '/w/security.md', '✓'],
        ['correctness', '#14 · working', null, null],
      ],
    );
    assert.equal(convoy.children[1].contextValue, 'svc:conv+agent+stopped+succeed+reviewer+report');
    // With archived rows: the earlier run under the newest, collapsed.
    const all = buildDeck(rows, { convoys: true, reviews, keepArchived: true });
    assert.equal(shape(all), '1(10(<SAMPLE-1 review r2>(12 13 14 history(<SAMPLE-1 review r1>(11)))))');
    const history = all[0].children[0].children[0].children[3];
    assert.deepEqual(
      [history.id, history.label, history.description, history.collapsed],
      ['convoy-history:SAMPLE-1', 'earlier runs', 'r1 CHANGES REQUESTED', true],
    );
    assert.deepEqual(history.children[0].badge, {
      text: '!',
      color: 'svc.verdict.notYet',
      tooltip: 'CHANGES REQUESTED',
    });
    // Without convoys (the Agents page): every reviewer is its own row, as before.
    assert.equal(shape(buildDeck(rows)), '1(10(12(13 14)))');
  });

  it('"Live only" keeps live rows and the rows above them; "Show archived" adds archived ones', () => {
    const rows = [
      row(1, { activity: 'stopped' }),
      lane(2, 1, 'builder', 1, { activity: 'working' }),
      lane(3, 1, 'builder', 1, { key: 'b', activity: 'stopped' }),
      row(4, { activity: 'stopped' }),
      row(5, { archived: true, activity: 'stopped' }),
    ];
    assert.equal(shape(buildDeck(rows)), '1(2 3) 4');
    assert.equal(shape(buildDeck(rows, { liveOnly: true })), '1(2)');
    assert.equal(shape(buildDeck(rows, { keepArchived: true })), '1(2 3) 4 5');
    assert.equal(buildDeck(rows, { keepArchived: true })[2].description, '#5 · stopped (archived)');
  });

  it('puts a critic under the newest builder of the iteration it judges (a --reuse respawn)', () => {
    const nodes = buildDeck([
      row(1),
      lane(2, 1, 'builder', 1),
      lane(3, 1, 'builder', 1),
      lane(4, 1, 'critic', 1, { judged: { key: 'k', iteration: 1 } }),
    ]);
    assert.equal(shape(nodes), '1(2 3(4))');
  });

  it('pairs by run and key: a critic of another run or key stays under its launcher', () => {
    const nodes = buildDeck([
      row(1),
      lane(2, 1, 'builder', 1),
      lane(3, 1, 'critic', 1, { run: 'r2', judged: { key: 'k', iteration: 1 } }),
      lane(4, 1, 'critic', 1, { judged: { key: 'other', iteration: 1 } }),
    ]);
    assert.equal(shape(nodes), '1(2 3 4)');
  });

  it('drops archived conversations (a row whose parent left the deck shows at the top); keeps them when asked', () => {
    const rows = [
      row(1, { archived: true }),
      lane(2, 1, 'builder', 1),
      row(3),
      lane(4, 3, 'play', 1, { archived: true }),
    ];
    assert.equal(shape(buildDeck(rows)), '2 3');
    assert.equal(shape(buildDeck(rows, { keepArchived: true })), '1(2) 3(4)');
  });

  it('keeps a lane reaped with --keep (not archived) and marks it reaped', () => {
    const nodes = buildDeck([row(1), lane(2, 1, 'builder', 1, { activity: 'stopped', reaped: true })]);
    assert.equal(shape(nodes), '1(2)');
    assert.equal(nodes[0].children[0].description, '#2 · stopped · builder i1 · reaped');
    assert.equal(nodes[0].children[0].contextValue, 'svc:conv+lane+builder+stopped+reaped');
  });

  it('marks a stalled lane beside its activity, which stays working', () => {
    const stalled = 'stalled: working, no output or tool activity for 20m';
    const nodes = buildDeck([row(1), lane(2, 1, 'builder', 1, { activity: 'working', stalled })]);
    const n = nodes[0].children[0];
    assert.equal(n.description, '#2 · working · stalled · builder i1');
    assert.equal(n.contextValue, 'svc:conv+lane+builder+working+live+stalled');
    assert.match(n.tooltip, /\n- activity: working\n- stalled: working, no output or tool activity for 20m\n/);
  });

  it('never loses rows to a parent cycle', () => {
    const nodes = buildDeck([row(1, { parentId: 2 }), row(2, { parentId: 1 }), row(3, { parentId: 3 })]);
    const all: number[] = [];
    const walk = (ns: readonly DeckNode[]) => ns.forEach((n) => (all.push(n.convId), walk(n.children)));
    walk(nodes);
    assert.deepEqual(all.sort(), [1, 2, 3]);
  });

  it('pins trees holding a needs-you row to the top of each level (the deck only), order otherwise kept', () => {
    const rows = [
      row(1),
      lane(2, 1, 'builder', 1),
      lane(3, 1, 'builder', 1, { key: 'b', activity: 'needs-you' }),
      row(4),
      row(5, { activity: 'needs-you' }),
      row(6),
    ];
    assert.equal(shape(buildDeck(rows, { convoys: true })), '1(3 2) 5 4 6');
    assert.equal(shape(buildDeck(rows)), '1(2 3) 4 5 6', 'the Agents page and the Awareness rail keep id order');
    assert.equal(
      shape(
        buildDeck(
          rows.map((r) => ({ ...r, activity: 'idle' as const })),
          { convoys: true },
        ),
      ),
      '1(2 3) 4 5 6',
    );
  });

  it('counts the conversations that need the person, archived ones aside', () => {
    assert.equal(
      needsYouCount([
        row(1, { activity: 'needs-you' }),
        row(2, { activity: 'needs-you', archived: true }),
        row(3),
        row(4, { activity: 'needs-you' }),
      ]),
      2,
    );
  });

  it('joins conversations with lane records by id (deckRows)', () => {
    const conv = (id: number, o: Partial<ConversationInfo>) =>
      ({
        id,
        name: `c${id}`,
        title: `t${id}`,
        kind: 'root',
        parentId: null,
        activity: 'idle',
        archived: false,
        model: 'm',
        ...o,
      }) as ConversationInfo;
    const rec = {
      id: 2,
      role: 'builder',
      run: 'r1',
      key: 'k',
      iteration: 1,
      reaped: false,
      judged: null,
      verdict: { verdict: 'PASS', defects: 0, by: 3, verdictFile: null },
      report: {
        seq: 1,
        status: 'done',
        body: 'b',
        verdict: null,
        defects: null,
        verdictFile: null,
        headSha: null,
        branch: null,
        at: 1,
      },
      git: { branch: 'b', headSha: 'abc', ahead: 1, dirty: false },
      baseSha: 'f'.repeat(40),
      budget: {
        spent: 0.9,
        cap: 1,
        from: 'lane',
        run: { spent: 0.9, cap: null, from: null },
        state: 'near',
        text: '$0.90 of $1.00 (90%)',
      },
    } as unknown as LaneRecord;
    const rows = deckRows(
      [conv(1, {}), conv(2, { kind: 'lane', parentId: 1, activity: 'working', model: 'm2' })],
      [rec],
    );
    assert.deepEqual(rows, [
      {
        id: 1,
        name: 'c1',
        title: 't1',
        kind: 'root',
        parentId: null,
        activity: 'idle',
        archived: false,
        model: 'm',
        issueId: undefined,
        cost: undefined,
      },
      {
        id: 2,
        name: 'c2',
        title: 't2',
        kind: 'lane',
        parentId: 1,
        activity: 'working',
        archived: false,
        model: 'm2',
        issueId: undefined,
        cost: undefined,
        role: 'builder',
        run: 'r1',
        key: 'k',
        iteration: 1,
        reaped: false,
        judged: null,
        report: { status: 'done' },
        verdict: { verdict: 'PASS', defects: 0, by: 3, verdictFile: null },
        budget: { state: 'near', spent: 0.9, cap: 1, text: '$0.90 of $1.00 (90%)' },
        base: 'f'.repeat(40),
        git: { branch: 'b', ahead: 1, dirty: false, headSha: 'abc' },
      },
    ]);
    // 80 % of a cap and more shows in the row's description; below, it does not.
    assert.equal(describeRow(rows[1]), '#2 · working · reported done · builder i1 · b ↑1 · spent 90% of its cap');
    assert.equal(
      describeRow({ ...rows[1], budget: { state: 'ok', spent: 0.5, cap: 1, text: '' } }),
      '#2 · working · reported done · builder i1 · b ↑1',
    );
    assert.equal(
      describeRow({ ...rows[1], budget: { state: 'reached', spent: 1.2, cap: 1, text: '' } }),
      '#2 · working · reported done · builder i1 · b ↑1 · spend cap reached',
    );
  });
});
