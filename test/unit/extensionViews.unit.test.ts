import * as assert from 'node:assert/strict';
import { agentRows } from '../../extension/agents/agentsModel';
import { runLaneTree } from '../../extension/awareness/runLanes';
import { findingOf } from '../../extension/commands/commandArgs';
import { COMMANDS } from '../../extension/commands/commandTable';
import { issueContextValue, reviewNodes } from '../../extension/reviews/reviewsModel';
import type { ConversationInfo } from '../../shared/protocol/conversations';
import type { LaneRecord } from '../../shared/protocol/lanes';
import type { FindingInfo, IssueState } from '../../shared/protocol/review';

const conv = (id: number, o: Partial<ConversationInfo> = {}) =>
  ({
    id,
    name: `c${id}`,
    title: `t${id}`,
    kind: 'root',
    parentId: null,
    activity: 'idle',
    alive: true,
    archived: false,
    model: 'm',
    harness: 'script',
    cost: null,
    issueId: null,
    ...o,
  }) as ConversationInfo;
const laneRec = (id: number, o: Partial<LaneRecord>) =>
  ({
    id,
    name: `l${id}`,
    title: `lane ${id}`,
    project: 'p',
    run: 'r1',
    key: 'k',
    role: 'builder',
    iteration: 1,
    parentId: 1,
    activity: 'idle',
    archived: false,
    reaped: false,
    judged: null,
    verdict: null,
    git: null,
    report: null,
    model: 'm',
    budget: {
      spent: 0,
      cap: null,
      from: null,
      run: { spent: 0, cap: null, from: null },
      state: 'none',
      text: 'no cost reported (no cap)',
    },
    ...o,
  }) as LaneRecord;

describe('Agents page rows (extension/agents/agentsModel.ts)', () => {
  it('lists every agent in deck order with depth: lanes, critics under builders, successors, work agents, reviewers, archived ones', () => {
    const convs = [
      conv(1),
      conv(2, { kind: 'lane', parentId: 1 }),
      conv(3, { kind: 'lane', parentId: 1, alive: false, activity: 'stopped' }),
      conv(4, { kind: 'successor', parentId: 1, cost: { amount: 0.5, currency: 'USD' } }),
      conv(5, { kind: 'agent', name: 'agent-web-7', issueId: 'WEB-7' }),
      conv(6, {
        kind: 'agent',
        name: 'agent-web-7-review-security',
        issueId: 'WEB-7',
        review: { runId: 'r2', role: 'security' },
      }),
      // Retired by a later run: renamed, and still a review parent (the daemon's facts say so, not the name).
      conv(7, {
        kind: 'agent',
        name: 'agent-web-7-review.r1',
        issueId: 'WEB-7',
        archived: true,
        alive: false,
        activity: 'stopped',
        review: { runId: 'r1', role: 'parent' },
      }),
      conv(8, { kind: 'agent', name: 'agent-web-8-review', issueId: 'WEB-8', review: { runId: 'r1', role: 'quick' } }),
    ];
    const lanes = [
      laneRec(2, { verdict: { verdict: 'NOT_YET', defects: 1, by: 3, verdictFile: null } }),
      laneRec(3, {
        role: 'critic',
        judged: { key: 'k', iteration: 1 },
        verdict: { verdict: 'NOT_YET', defects: 1, by: 3, verdictFile: null },
      }),
    ];
    const rows = agentRows(convs, lanes);
    assert.deepEqual(
      rows.map((r) => [
        r.id,
        r.depth,
        r.order,
        r.role,
        r.alive,
        r.activity,
        r.cost,
        r.currency,
        r.issue,
        r.verdict,
        r.verdictTone,
        r.archived,
      ]),
      [
        [1, 0, 0, 'root', true, 'idle', null, null, null, null, null, false],
        [2, 1, 1, 'builder i1', true, 'idle', null, null, null, 'NOT_YET · 1 defect', 'notYet', false],
        [3, 2, 2, 'critic i1', false, 'stopped', null, null, null, 'NOT_YET · 1 defect', 'notYet', false],
        [4, 1, 3, 'successor of #1', true, 'idle', 0.5, 'USD', null, null, null, false],
        [5, 0, 4, 'work agent', true, 'idle', null, null, 'WEB-7', null, null, false],
        [6, 0, 5, 'reviewer · security', true, 'idle', null, null, 'WEB-7', null, null, false],
        [7, 0, 6, 'review parent', false, 'stopped', null, null, 'WEB-7', null, null, true],
        [8, 0, 7, 'reviewer (quick)', true, 'idle', null, null, 'WEB-8', null, null, false],
      ],
    );
    // Spent/cap only where a cap holds: the Agents page shows it in the cost column.
    assert.deepEqual(
      rows.map((r) => r.budget),
      [null, null, null, null, null, null, null, null],
    );
    const capped = agentRows(convs, [
      laneRec(2, {
        budget: {
          spent: 0.9,
          cap: 1,
          from: 'lane',
          run: { spent: 0.9, cap: null, from: null },
          state: 'near',
          text: '$0.90 of $1.00 (90%)',
        },
      }),
    ]);
    assert.deepEqual(capped.find((r) => r.id === 2)?.budget, {
      spent: 0.9,
      cap: 1,
      state: 'near',
      text: '$0.90 of $1.00 (90%)',
    });
  });
});

describe('Awareness expand (extension/awareness/runLanes.ts)', () => {
  it('lists a run’s lanes with critics and verifiers under the builder they judge, archived lanes stopped', () => {
    const tree = runLaneTree([
      laneRec(2, { key: 'api' }),
      laneRec(3, {
        key: 'api',
        role: 'critic',
        judged: { key: 'api', iteration: 1 },
        verdict: { verdict: 'PASS', defects: 0, by: 3, verdictFile: null },
        report: { status: 'done' } as LaneRecord['report'],
      }),
      laneRec(4, { key: 'ui', archived: true, activity: 'stopped' }),
      laneRec(5, {
        key: 'api',
        role: 'verifier',
        judged: { key: 'api', iteration: 1 },
        activity: 'working',
        budget: {
          spent: 1.2,
          cap: 1,
          from: 'lane',
          run: { spent: 1.2, cap: null, from: null },
          state: 'reached',
          text: '',
        },
      }),
    ]);
    assert.deepEqual(tree, [
      {
        convId: 2,
        label: 'builder i1 · api',
        description: '#2 · idle',
        activity: 'idle',
        children: [
          {
            convId: 3,
            label: 'critic i1 · api',
            description: '#3 · idle · PASS · reported done',
            activity: 'idle',
            children: [],
          },
          {
            convId: 5,
            label: 'verifier i1 · api',
            description: '#5 · working · spend cap reached',
            activity: 'working',
            children: [],
          },
        ],
      },
      {
        convId: 4,
        label: 'builder i1 · ui',
        description: '#4 · stopped (archived)',
        activity: 'stopped',
        children: [],
      },
    ]);
  });
});

describe('Reviews tree (extension/reviews/reviewsModel.ts)', () => {
  const state = (o: Partial<IssueState>): IssueState =>
    ({
      issue: { id: 'WEB-7', project: 'web', title: 'login', branch: 'issue/web-7', workspace: '/w' },
      pr: null,
      run: null,
      reviewers: [],
      journal: [],
      ...o,
    }) as IssueState;

  it('shows an issue without a PR, and one approved and ready with its convoy', () => {
    assert.deepEqual(
      reviewNodes([state({})]).map((n) => [n.label, n.description, n.contextValue, n.icon.id, n.children.length]),
      [['WEB-7 login', 'no PR yet', 'svc:review+issue', 'circle-large-outline', 0]],
    );
    const approved = state({
      pr: {
        number: 3,
        state: 'open',
        head: 'abcdef0123',
        url: 'http://pr/3',
        reviewState: 'approved',
        ready: true,
        reasons: [],
        checks: [],
      },
      run: { runId: 'r1', mode: 'full', sha: 'abcdef0123', phase: 'verdict', verdict: 'APPROVED', worktree: null },
      reviewers: [
        {
          id: 8,
          name: 'agent-web-7-review',
          role: 'parent',
          runId: 'r1',
          model: 'm',
          alive: false,
          activity: 'stopped',
          report: { path: '/s.md', exists: true, verdict: 'APPROVED' },
        },
        {
          id: 9,
          name: 'agent-web-7-review-security',
          role: 'security',
          runId: 'r1',
          model: 'm2',
          alive: false,
          activity: 'stopped',
          report: { path: '/x.md', exists: true, verdict: null },
        },
      ],
    });
    const [n] = reviewNodes([
      {
        ...approved,
        journal: [{ at: 't', kind: 'review.verdict', issue: 'WEB-7', runId: 'r0', sha: 'a', verdict: 'FAILED' }],
      },
    ]);
    assert.deepEqual(
      [n.id, n.label, n.description, n.contextValue, n.icon],
      [
        'issue:WEB-7:tree',
        'WEB-7 login',
        'PR #3 · approved · ready to merge',
        'svc:review+issue+pr+approved+ready+run+url',
        { id: 'pass', color: 'svc.verdict.pass' },
      ],
    );
    // The convoy once: the run row with its verdict badge, the reviewers under it, earlier runs collapsed.
    assert.deepEqual(
      n.children.map((c) => [c.id, c.kind, c.label, c.description, c.contextValue, c.badge?.text ?? null]),
      [
        ['ready:WEB-7', 'readiness', 'merge: ready', 'head abcdef0', 'svc:review+readiness+pr+mergeable+url', null],
        ['run:WEB-7:tree', 'run', 'review r1 (full)', 'APPROVED · at abcdef0', 'svc:review+run', '✓'],
      ],
    );
    assert.deepEqual(n.children[0].pr, { number: 3, url: 'http://pr/3', project: 'web' });
    const run = n.children[1];
    assert.deepEqual(
      run.children.map((c) => [
        c.kind,
        c.label,
        c.description,
        c.contextValue,
        c.convId ?? null,
        c.reportFile ?? null,
        c.collapsed ?? false,
      ]),
      [
        ['reviewer', 'review parent', '#8 · stopped · m', 'svc:reviewer+stopped+report', 8, '/s.md', false],
        [
          'reviewer',
          'security',
          '#9 · stopped · report without a verdict · m2',
          'svc:reviewer+stopped+report',
          9,
          '/x.md',
          false,
        ],
        ['history', 'earlier runs', 'r0 FAILED', 'svc:review+history', null, null, true],
      ],
    );
    assert.deepEqual(
      run.children[2].children.map((c) => [c.id, c.label, c.badge]),
      [['run:WEB-7:r0', 'review r0', { text: '✗', color: 'svc.verdict.fail', tooltip: 'FAILED' }]],
    );
  });

  it("lists the newest posted review's findings under its run; Dismiss Finding is offered on open ones only", () => {
    const run = {
      runId: 'r2',
      mode: 'quick' as const,
      sha: 'abcdef0123',
      phase: 'verdict' as const,
      verdict: 'APPROVED' as const,
      worktree: null,
    };
    const f = (o: Partial<FindingInfo>): FindingInfo => ({
      id: 'f-0123456789',
      severity: 'should-fix',
      location: 'src/a.ts:3',
      title: 'null dereference',
      status: 'new',
      dismissed: false,
      onLine: true,
      ...o,
    });
    const [n] = reviewNodes([
      state({
        run,
        findings: [
          f({}),
          f({
            id: 'f-1111111111',
            severity: 'nit',
            location: 'b.md:2-4',
            title: 'wording',
            status: 'open',
            dismissed: true,
          }),
          f({ id: 'f-2222222222', severity: 'blocker', status: 'fixed', onLine: false }),
        ],
      }),
    ]);
    const rows = n.children[0].children;
    assert.deepEqual(
      rows.map((r) => [r.id, r.label, r.description, r.icon.id, r.contextValue, r.finding]),
      [
        [
          'finding:WEB-7:f-0123456789',
          '[should-fix] src/a.ts:3',
          'null dereference · new · on its line',
          'warning',
          'svc:review+finding+new',
          'f-0123456789',
        ],
        [
          'finding:WEB-7:f-1111111111',
          '[nit] b.md:2-4',
          'wording · still open · dismissed',
          'circle-slash',
          'svc:review+finding+open+dismissed',
          'f-1111111111',
        ],
        [
          'finding:WEB-7:f-2222222222',
          '[blocker] src/a.ts:3',
          'null dereference · fixed since',
          'pass',
          'svc:review+finding+fixed',
          'f-2222222222',
        ],
      ],
    );
    assert.equal(
      rows[0].tooltip,
      [
        '**null dereference** (should-fix) at `src/a.ts:3`',
        '',
        '- finding: `f-0123456789`',
        '- new, on its line',
        '- not worth fixing? Dismiss it (`svc review dismiss WEB-7 f-0123456789`): it is not posted again until its code changes',
      ].join('\n'),
    );
    // The inline button's `when` (package.json, from the command table) matches the open, undismissed row only.
    const when = COMMANDS['svc.dismissFinding'].menus!.map((m) => (m.at === 'view/item/context' ? m.item : null))[0]!;
    assert.deepEqual(
      rows.map((r) => when.test(r.contextValue)),
      [true, false, false],
    );
    assert.deepEqual(findingOf(rows[0]), { issue: 'WEB-7', finding: 'f-0123456789' });
    assert.equal(findingOf(n), undefined, 'an issue row names no finding');
  });

  it('a quick run whose reviewer ended without a verdict is stalled: says so, and offers the restart on its row', () => {
    const reviewer = {
      id: 9,
      name: 'agent-web-7-review',
      role: 'quick' as const,
      runId: 'r1',
      model: 'm',
      alive: false,
      activity: 'stopped' as const,
      report: { path: '/w/review.md', exists: false, verdict: null },
    };
    const run = {
      runId: 'r1',
      mode: 'quick' as const,
      sha: 'abcdef0123',
      phase: 'dispatched' as const,
      verdict: null,
      worktree: null,
    };
    const [n] = reviewNodes([state({ run, reviewers: [reviewer] })]);
    const row = n.children[0];
    assert.deepEqual(
      [row.description, row.contextValue],
      ['stalled: restart it · at abcdef0', 'svc:review+run+stalled'],
    );
    assert.equal(
      row.tooltip.split('\n').at(-1),
      '**Stalled**: its reviewer is not alive and no verdict was posted. Restart it with the restart button on this row (`svc review restart WEB-7`).',
    );
    // Alive again (a restart), or a verdict posted: not stalled.
    const live = reviewNodes([state({ run, reviewers: [{ ...reviewer, alive: true, activity: 'working' }] })])[0];
    assert.equal(live.children[0].contextValue, 'svc:review+run+running');
    const done = reviewNodes([
      state({ run: { ...run, phase: 'verdict', verdict: 'APPROVED' }, reviewers: [reviewer] }),
    ])[0];
    assert.equal(done.children[0].contextValue, 'svc:review+run');
  });

  it('marks an issue with a running reviewer so Abort shows', () => {
    const running = state({
      pr: {
        number: 3,
        state: 'open',
        head: null,
        url: null,
        reviewState: 'in_review',
        ready: false,
        reasons: ['no approval'],
        checks: [],
      },
      reviewers: [
        {
          id: 9,
          name: 'x',
          role: 'quick',
          runId: 'r1',
          model: 'm',
          alive: true,
          activity: 'working',
          report: { path: '/r', exists: false, verdict: null },
        },
      ],
    });
    assert.equal(issueContextValue(running), 'svc:review+issue+pr+in_review+running');
  });

  it('marks an issue whose work agent is live, so Start Work Agent is not offered', () => {
    const agent = (activity: 'working' | 'stopped') => ({
      id: 5,
      name: 'agent-web-7',
      alive: activity === 'working',
      activity,
    });
    const base = state({});
    assert.equal(
      issueContextValue({ ...base, issue: { ...base.issue, agent: agent('working') } }),
      'svc:review+issue+worker',
    );
    assert.equal(issueContextValue({ ...base, issue: { ...base.issue, agent: agent('stopped') } }), 'svc:review+issue');
  });
});
