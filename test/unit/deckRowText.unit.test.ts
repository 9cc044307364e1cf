// What a Command Deck row says: its description, tooltip, screen-reader label, icon and the
// context value its menus' when clauses read.
import * as assert from 'node:assert/strict';
import {
  ariaLabelOf,
  buildDeck,
  canLaunch,
  canSucceed,
  deckContextValue,
  describeRow,
  tooltipOf,
} from '../../extension/commandDeck/deckModel';
import { deckRows } from '../../extension/commandDeck/deckRows';
import { mdText } from '../../extension/commandDeck/markdown';
import type { ConversationInfo } from '../../shared/protocol/conversations';
import type { LaneRecord } from '../../shared/protocol/lanes';
import { lane, row } from '../helpers/deckRowMakers';

describe('Command Deck rows: what each one says (extension/commandDeck/deckModel.ts)', () => {
  it('leaves out of the description what the label already says (role and iteration, branch)', () => {
    assert.equal(
      describeRow(
        lane(2, 1, 'builder', 1, { title: 'r1 api builder i1', git: { branch: 'r1/api', ahead: 1, dirty: false } }),
      ),
      '#2 · idle · r1/api ↑1',
    );
    assert.equal(
      describeRow(
        lane(2, 1, 'builder', 1, { title: 'api on r1/api', git: { branch: 'r1/api', ahead: 1, dirty: true } }),
      ),
      '#2 · idle · builder i1 · ↑1 · dirty',
    );
    // A lane on another host says where it runs, in the row and in its tooltip.
    assert.equal(
      describeRow(
        lane(2, 1, 'builder', 1, {
          title: 'r1 api builder i1',
          host: 'big',
          git: { branch: 'r1/api', ahead: 0, dirty: false },
        }),
      ),
      '#2 · idle · on big · r1/api ↑0',
    );
    assert.match(tooltipOf(lane(2, 1, 'builder', 1, { host: 'big' })), /\n- host: `big` \(over SSH\)$/);
    // Its connection down: the agent runs on there, svc is reconnecting.
    const lost =
      'connection to host big lost (the SSH connection closed); the agent keeps running there and svc is reconnecting (attempt 2)';
    assert.equal(
      describeRow(lane(2, 1, 'builder', 1, { title: 'r1 api builder i1', host: 'big', hostLost: lost })),
      '#2 · idle · on big (connection lost, reconnecting)',
    );
    assert.ok(
      tooltipOf(lane(2, 1, 'builder', 1, { host: 'big', hostLost: lost })).endsWith(
        `\n- host: \`big\` (over SSH): ${mdText(lost)}`,
      ),
    );
  });

  it('leads with activity and report state, so a narrow sidebar still shows them', () => {
    const r = lane(2, 1, 'builder', 1, {
      title: 'api on r1/x',
      host: 'big',
      git: { branch: 'r1/api', ahead: 3, dirty: true },
    });
    r.report = { status: 'blocked' };
    assert.equal(describeRow(r), '#2 · idle · reported blocked · builder i1 · on big · r1/api ↑3 · dirty');
    // What the description drops at the sidebar's edge is in the hover.
    assert.match(tooltipOf(r), /\n- kind: lane · builder i1\n/);
  });

  it("names a builder's verdict file as its critic's, and a critic's as its report", () => {
    const file = '/l/verdict-r1-api-critic-i1.json';
    const verdict = { verdict: 'NOT_YET', defects: 2, by: 3, verdictFile: file };
    const builder = tooltipOf(lane(2, 1, 'builder', 1, { verdict }));
    assert.match(builder, /\n- critic's verdict file: `\/l\/verdict-r1-api-critic-i1\.json`$/m);
    assert.doesNotMatch(builder, /\n- report: /, "the builder's own report is in its conversation, not this file");
    assert.match(
      tooltipOf(lane(3, 1, 'critic', 1, { verdict })),
      /\n- report: `\/l\/verdict-r1-api-critic-i1\.json`$/m,
    );
  });

  it('says in the tooltip whether a lane is sandboxed', () => {
    assert.match(
      tooltipOf(lane(2, 1, 'builder', 1, { sandbox: 'workspace' })),
      /\n- sandbox: workspace: it can change only its own worktree$/,
    );
    assert.match(
      tooltipOf(lane(2, 1, 'builder', 1, { sandbox: 'off' })),
      /\n- sandbox: off: unconfined, it runs as you$/,
    );
    assert.doesNotMatch(tooltipOf(lane(2, 1, 'builder', 1)), /sandbox/);
  });

  it('writes the tooltip as Markdown facts, values escaped', () => {
    const md = tooltipOf(
      lane(2, 1, 'builder', 1, {
        title: 'x <img src=x> *b*',
        model: 'm`1',
        cost: { amount: 0.125, currency: 'USD' },
        git: { branch: 'r1/k', ahead: 2, dirty: true, headSha: '0123456789abcdef' },
      }),
    );
    assert.equal(
      md,
      [
        '**x \\<img src=x\\> \\*b\\***',
        '',
        '- conversation: #2 `c2`',
        '- kind: lane · builder i1',
        '- activity: idle',
        '- run: r1 · key k',
        '- branch: `r1/k`',
        '- head: `0123456789ab`',
        '- ahead: 2 commits ahead of upstream',
        '- dirty: yes, uncommitted changes',
        '- model: ``m`1``',
        '- cost: 0\\.13 USD',
      ].join('\n'),
    );
  });

  it('composes context values for regex when clauses', () => {
    assert.equal(deckContextValue(row(1)), 'svc:conv+root+idle+live+launcher+succeed');
    assert.equal(
      deckContextValue(
        lane(2, 1, 'builder', 1, { activity: 'needs-you', git: { branch: 'b', ahead: 0, dirty: true } }),
      ),
      'svc:conv+lane+builder+needs-you+live+git+dirty',
    );
    assert.equal(
      deckContextValue(
        lane(3, 1, 'critic', 1, { activity: 'stopped', verdict: { verdict: 'PASS', defects: 0, by: 3 } }),
      ),
      'svc:conv+lane+critic+stopped+verdict',
    );
    assert.equal(
      deckContextValue(lane(5, 1, 'orchestrator', 1, { activity: 'working' })),
      'svc:conv+lane+orchestrator+working+live+launcher+succeed',
    );
    assert.equal(
      deckContextValue(row(6, { kind: 'successor', parentId: 1, activity: 'stopped' })),
      'svc:conv+successor+stopped+launcher+succeed',
    );
    assert.equal(
      deckContextValue(row(4, { kind: 'agent', activity: 'failed-to-start' })),
      'svc:conv+agent+failed-to-start+succeed',
    );
    assert.deepEqual(
      [
        canLaunch({ kind: 'lane', role: 'builder' }),
        canLaunch({ kind: 'agent' }),
        canSucceed({ kind: 'lane', role: 'critic' }),
      ],
      [false, false, false],
    );
  });

  it('says a builder reported (done, blocked, failed) before any verdict, and a screen reader hears the verdict and report', () => {
    const reported = lane(2, 1, 'builder', 1, {
      title: 'r1/k builder i1',
      report: { status: 'done' },
      git: { branch: null, ahead: null, dirty: false },
    });
    assert.equal(describeRow(reported), '#2 · idle · reported done · (detached)');
    assert.equal(
      describeRow(lane(2, 1, 'builder', 1, { title: 'r1/k builder i1', report: { status: 'blocked' } })),
      '#2 · idle · reported blocked',
    );
    assert.equal(describeRow(lane(2, 1, 'builder', 1, { title: 'r1/k builder i1' })), '#2 · idle');
    assert.equal(
      ariaLabelOf('r1/k builder i1', '#2 · idle · reported done · (detached)', reported),
      'r1/k builder i1, #2 · idle · reported done · (detached)',
    );
    assert.equal(
      ariaLabelOf('r1/k builder i1', '#2 · idle', lane(2, 1, 'builder', 1)),
      'r1/k builder i1, #2 · idle, no report yet',
    );
    const judged = lane(2, 1, 'builder', 1, {
      report: { status: 'done' },
      verdict: { verdict: 'NOT_YET', defects: 2, by: 3 },
    });
    assert.equal(ariaLabelOf('b', '#2', judged), 'b, #2, verdict NOT YET · 2 defects by critic #3');
    const critic = lane(3, 1, 'critic', 1, {
      report: { status: 'done' },
      verdict: { verdict: 'PASS', defects: 0, by: 3 },
    });
    assert.equal(ariaLabelOf('c', '#3', critic), 'c, #3, verdict PASS');
    const [node] = buildDeck([reported]);
    assert.equal(node.ariaLabel, 'r1/k builder i1, #2 · idle · reported done · (detached)', 'the tree item carries it');
  });

  it('describes role, iteration, activity and git facts: branch, ahead, dirty', () => {
    assert.equal(
      describeRow(lane(2, 1, 'builder', 3, { activity: 'working', git: { branch: 'lane/k', ahead: 2, dirty: true } })),
      '#2 · working · builder i3 · lane/k ↑2 · dirty',
    );
    assert.equal(
      describeRow(lane(2, 1, 'builder', 1, { git: { branch: 'lane/k', ahead: 0, dirty: false } })),
      '#2 · idle · builder i1 · lane/k ↑0',
    );
    assert.equal(
      describeRow(lane(2, 1, 'critic', 1, { git: { branch: null, ahead: null, dirty: false } })),
      '#2 · idle · critic i1 · (detached)',
    );
  });

  it('gives each activity its icon and theme colour', () => {
    const icons = (['needs-you', 'working', 'idle', 'starting', 'stopped', 'failed-to-start'] as const).map(
      (a) => buildDeck([row(1, { activity: a })])[0].icon,
    );
    assert.deepEqual(icons, [
      { id: 'bell-dot', color: 'list.warningForeground' },
      { id: 'sync~spin', color: 'charts.blue' },
      { id: 'circle-large-outline', color: 'charts.green' },
      { id: 'loading~spin', color: 'charts.blue' },
      { id: 'circle-slash', color: 'disabledForeground' },
      { id: 'error', color: 'list.errorForeground' },
    ]);
  });

  it('shows every parked patch of a lane in its row and its tooltip, with the restore command (deckRows keeps them)', () => {
    const parked = [
      {
        patchFile: '/h/.svc/agents/conv-r1-k-builder-i1/parked-20250101T000000Z.patch',
        paths: 2,
        restoreCommand: 'git -C /l/r1-k apply --index -p2 --whitespace=nowarn /h/p',
      },
      {
        patchFile: '/h/.svc/agents/conv-r1-k-builder-i1/parked-20250102T000000Z.patch',
        paths: 1,
        restoreCommand: null,
      },
    ];
    const r = lane(2, 1, 'builder', 1, { title: 'r1 k builder i1', parked });
    assert.equal(describeRow(r), '#2 · idle · 2 parked patches');
    const md = tooltipOf(r).split('\n');
    assert.deepEqual(md.slice(-2), [
      '- parked: `/h/.svc/agents/conv-r1-k-builder-i1/parked-20250101T000000Z.patch` (2 paths), restore with `git -C /l/r1-k apply --index -p2 --whitespace=nowarn /h/p`',
      '- parked: `/h/.svc/agents/conv-r1-k-builder-i1/parked-20250102T000000Z.patch` (1 path)',
    ]);
    const conv = {
      id: 2,
      name: 'c2',
      title: 't2',
      kind: 'lane',
      parentId: 1,
      activity: 'stopped',
      archived: false,
      model: 'm',
    } as ConversationInfo;
    const rec = {
      id: 2,
      role: 'builder',
      run: 'r1',
      key: 'k',
      iteration: 1,
      reaped: true,
      judged: null,
      verdict: null,
      git: null,
      budget: {
        spent: 0,
        cap: null,
        from: null,
        run: { spent: 0, cap: null, from: null },
        state: 'none',
        text: '$0.00 (no cap)',
      },
      parked: parked.map((p) => ({ ...p, tarFile: null })),
    } as unknown as LaneRecord;
    assert.deepEqual(deckRows([conv], [rec])[0].parked, parked);
  });
});

describe('deck: the overlap forecast on a builder row', () => {
  it('marks overlaps and a base conflict in the description and names the paths in the tooltip', () => {
    const overlaps = [{ key: 'b', lane: 'r1-b-builder-i1', paths: ['shared.txt'] }];
    const r = lane(2, 1, 'builder', 1, { title: 'r1 k builder i1', overlaps, baseConflict: ['README.md'] });
    assert.equal(describeRow(r), '#2 · idle · overlaps b · conflicts with base');
    assert.deepEqual(tooltipOf(r).split('\n').slice(-2), [
      '- overlaps: b (`r1-b-builder-i1`) on `shared.txt`',
      '- conflicts with base: `README.md`',
    ]);
  });
});

describe('tooltip Markdown: mdText keeps values text (extension/commandDeck/markdown.ts)', () => {
  it('escapes each character Markdown reads as syntax, flattens line breaks, and leaves other text as it is', () => {
    assert.equal(mdText('conversation 3 stopped'), 'conversation 3 stopped');
    assert.equal(mdText('a\rb'), 'a\rb', 'a lone carriage return is no line break');
    for (const c of '\\`*_{}[]()#+-.!|<>~&') assert.equal(mdText(`a${c}b`), `a\\${c}b`, c);
    assert.equal(mdText('line one\r\nline two\nthree'), 'line one line two three');
    assert.equal(mdText('[x](http://e.com) **b**'), '\\[x\\]\\(http://e\\.com\\) \\*\\*b\\*\\*');
  });
});
