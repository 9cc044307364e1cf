import * as assert from 'node:assert/strict';
import type { DeckRow } from '../../extension/commandDeck/deckModel';
import { judgeChoices } from '../../extension/lanes/startLane/judgeChoices';
import { startLaneFlow } from '../../extension/lanes/startLaneFlow';
import type { LaneRecord } from '../../shared/protocol/lanes';
import { facts, scripted } from '../helpers/startLaneScript';

const ROWS: DeckRow[] = [
  { id: 1, name: 'root', title: 'root', kind: 'root', parentId: null, activity: 'idle', model: 'big' },
  {
    id: 2,
    name: 'r1-api-builder-i1',
    title: 'api',
    kind: 'lane',
    parentId: 1,
    activity: 'idle',
    role: 'builder',
    run: 'r1',
    key: 'api',
    iteration: 1,
    model: 'builder-model',
  },
  {
    id: 3,
    name: 'r1-api-critic-i1',
    title: 'api critic',
    kind: 'lane',
    parentId: 1,
    activity: 'idle',
    role: 'critic',
    run: 'r1',
    key: 'api',
    iteration: 1,
    model: 'critic-model',
  },
  {
    id: 4,
    name: 'r1-lead-orch',
    title: 'lead',
    kind: 'lane',
    parentId: 1,
    activity: 'working',
    role: 'orchestrator',
    run: 'r2',
    key: 'lead',
    iteration: 1,
    model: 'o',
  },
];

const report = (headSha: string, status: 'done' | 'blocked' = 'done') => ({
  seq: 1,
  status,
  body: '',
  verdict: null,
  defects: null,
  verdictFile: null,
  headSha,
  branch: 'r1/x',
  at: 1,
});
const LANES: Partial<LaneRecord>[] = [
  {
    id: 2,
    role: 'builder',
    key: 'api',
    iteration: 1,
    report: report('aaaaaaa1111'),
    git: { branch: 'r1/api', headSha: 'aaaaaaa1111', ahead: 0, dirty: false },
  },
  {
    id: 5,
    role: 'builder',
    key: 'ui',
    iteration: 2,
    report: null,
    git: { branch: 'r1/ui-i2', headSha: 'bbbbbbb2222', ahead: 1, dirty: false },
  },
  { id: 6, role: 'builder', key: 'ui', iteration: 1, report: report('ccccccc3333') },
];

describe('Start Lane flow (extension/lanes/startLaneFlow.ts)', () => {
  it('a critic for the selected builder: the run prefilled, reported builders first, the role model resolved from the project, the brief in an editor', async () => {
    const p = scripted(['critic', 'r1', 'api', 'critic-set', 'Write the brief in an editor']);
    const f = facts({ rows: ROWS, selected: ROWS[1], models: { critic: 'critic-set' }, lanes: LANES });
    const r = await startLaneFlow(p, f);
    assert.equal(r.kind, 'draft');
    assert.deepEqual(r.kind === 'draft' && r.params, {
      parent: '1',
      role: 'critic',
      run: 'r1',
      for: 'api',
      model: 'critic-set',
      noWait: true,
    });
    assert.equal(
      r.kind === 'draft' && r.what,
      'critic lane r1/api (judging builder api), launched by #1 on critic-set',
    );
    assert.deepEqual(p.seen, [
      'svc: Start Lane (1/5) pick [builder|critic|verifier|play|orchestrator] active=critic',
      'svc: Start Lane (2/5) input "Run key (names this pass of the loop)" value=r1 back',
      'svc: Start Lane (3/5) pick [api|ui] active=api back',
      'svc: Start Lane (4/5) pick [critic-set|critic-model|Another model…] active=critic-set back',
      'svc: Start Lane (5/5) pick [Write the brief in an editor|Use a brief file…] active=Write the brief in an editor back',
    ]);
    assert.deepEqual(f.asked, ['runs 1', 'lanes r1', 'launcher 1', 'role web critic']);
  });

  it('offers a builder that has not reported with its commit to name (--at), prefilled with its head', async () => {
    assert.deepEqual(
      judgeChoices(LANES as LaneRecord[]).map((c) => [c.label, c.description, c.reported ?? c.head]),
      [
        ['api', 'builder api i1 reported done at aaaaaaa', 'aaaaaaa1111'],
        ['ui', 'builder ui i2 has not reported: judge it at a commit you name', 'bbbbbbb2222'],
      ],
    );
    const p = scripted(['critic', 'r1', 'ui', 'bbbbbbb2222', 'critic-set', 'Write the brief in an editor']);
    const r = await startLaneFlow(
      p,
      facts({ rows: ROWS, selected: ROWS[0], models: { critic: 'critic-set' }, lanes: LANES }),
    );
    assert.deepEqual(r.kind === 'draft' && r.params, {
      parent: '1',
      role: 'critic',
      run: 'r1',
      for: 'ui',
      at: 'bbbbbbb2222',
      model: 'critic-set',
      noWait: true,
    });
    assert.equal(
      p.seen[3],
      'svc: Start Lane (4/6) input "Commit of builder ui i2 to judge (it has not reported done, so name one)" value=bbbbbbb2222 back',
    );
  });

  it('Back shows the step before with its answer kept; the first step has no Back', async () => {
    const p = scripted([
      'builder',
      'r7',
      'api',
      '<back>',
      '<back>',
      '<back>',
      'builder',
      'r7',
      'web',
      'b-set',
      'Write the brief in an editor',
    ]);
    const r = await startLaneFlow(p, facts({ rows: ROWS, selected: ROWS[0], models: { builder: 'b-set' } }));
    assert.deepEqual(r.kind === 'draft' && r.params, {
      parent: '1',
      role: 'builder',
      run: 'r7',
      key: 'web',
      model: 'b-set',
      noWait: true,
    });
    assert.deepEqual(p.seen.slice(0, 8), [
      'svc: Start Lane (1/5) pick [builder|critic|verifier|play|orchestrator] active=builder',
      'svc: Start Lane (2/5) input "Run key (names this pass of the loop)" value=r2 back',
      'svc: Start Lane (3/5) input "Lane key of the builder (short name inside run r7)" value= back',
      'svc: Start Lane (4/5) pick [b-set|Another model…] active=b-set back',
      'svc: Start Lane (3/5) input "Lane key of the builder (short name inside run r7)" value=api back',
      'svc: Start Lane (2/5) input "Run key (names this pass of the loop)" value=r7 back',
      'svc: Start Lane (1/5) pick [builder|critic|verifier|play|orchestrator] active=builder',
      'svc: Start Lane (2/5) input "Run key (names this pass of the loop)" value=r7 back',
    ]);
  });

  it('Back inside a step returns to its list: a verifier of its own key, a typed model; a brief file not chosen offers the choice again', async () => {
    const p = scripted([
      'verifier',
      'r1',
      'A key of its own…',
      '<back>',
      'A key of its own…',
      'check',
      'Another model…',
      '<back>',
      'Another model…',
      'typed',
      'Use a brief file…',
      undefined,
      'Use a brief file…',
      '/briefs/check.md',
    ]);
    const r = await startLaneFlow(p, facts({ rows: ROWS, selected: ROWS[0], lanes: LANES }));
    assert.deepEqual(r.kind === 'launch' && r.params, {
      parent: '1',
      role: 'verifier',
      run: 'r1',
      key: 'check',
      model: 'typed',
      noWait: true,
      brief: '/briefs/check.md',
    });
    assert.deepEqual(p.seen, [
      'svc: Start Lane (1/5) pick [builder|critic|verifier|play|orchestrator] active=builder',
      'svc: Start Lane (2/5) input "Run key (names this pass of the loop)" value=r2 back',
      'svc: Start Lane (3/5) pick [api|ui|A key of its own…] active=- back',
      'svc: Start Lane (3/5) input "Lane key of the verifier" value= back',
      'svc: Start Lane (3/5) pick [api|ui|A key of its own…] active=- back',
      'svc: Start Lane (3/5) input "Lane key of the verifier" value= back',
      'svc: Start Lane (4/5) pick [Another model…|Open Roles…] active=Another model… back',
      'svc: Start Lane (4/5) input "Model for the verifier" value= back',
      'svc: Start Lane (4/5) pick [Another model…|Open Roles…] active=Another model… back',
      'svc: Start Lane (4/5) input "Model for the verifier" value= back',
      'svc: Start Lane (5/5) pick [Write the brief in an editor|Use a brief file…] active=Write the brief in an editor back',
      'open Brief file for the lane',
      'svc: Start Lane (5/5) pick [Write the brief in an editor|Use a brief file…] active=Use a brief file… back',
      'open Brief file for the lane',
    ]);
  });

  it('no model set for the role: the probed models, a typed one, or Open Roles, which keeps the answers; reopened, every step is prefilled', async () => {
    const first = scripted(['builder', 'r1', 'web', 'Open Roles…']);
    const r = await startLaneFlow(first, facts({ rows: ROWS, selected: ROWS[0], offered: ['m-small', 'm-large'] }));
    assert.equal(
      first.seen[3],
      'svc: Start Lane (4/5) pick [builder-model|m-small|m-large|Another model…|Open Roles…] active=builder-model back',
    );
    assert.deepEqual(r, {
      kind: 'openRoles',
      answers: { launcher: 1, role: 'builder', run: 'r1', key: 'web' },
      project: 'web',
      role: 'builder',
    });

    const again = scripted(['builder', 'r1', 'web', 'now-set', 'Use a brief file…', '/briefs/web.md']);
    const r2 = await startLaneFlow(
      again,
      facts({ rows: ROWS, selected: ROWS[0], models: { builder: 'now-set' } }),
      r.answers,
    );
    assert.deepEqual(again.seen.slice(0, 4), [
      'svc: Start Lane (1/5) pick [builder|critic|verifier|play|orchestrator] active=builder',
      'svc: Start Lane (2/5) input "Run key (names this pass of the loop)" value=r1 back',
      'svc: Start Lane (3/5) input "Lane key of the builder (short name inside run r1)" value=web back',
      'svc: Start Lane (4/5) pick [now-set|builder-model|Another model…] active=now-set back',
    ]);
    assert.deepEqual(r2.kind === 'launch' && r2.params, {
      parent: '1',
      role: 'builder',
      run: 'r1',
      key: 'web',
      model: 'now-set',
      noWait: true,
      brief: '/briefs/web.md',
    });
  });

  it('a typed model; a model of the same role in the run is offered first', async () => {
    const p = scripted(['builder', 'r1', 'web', 'Another model…', 'typed-model', 'Write the brief in an editor']);
    const r = await startLaneFlow(p, facts({ rows: ROWS, selected: ROWS[0] }));
    assert.equal(
      p.seen[3],
      'svc: Start Lane (4/5) pick [builder-model|Another model…|Open Roles…] active=builder-model back',
    );
    assert.equal(r.kind === 'draft' && r.params.model, 'typed-model');
  });

  it('from an orchestrator lane: its roles only, its run inherited', async () => {
    const p = scripted(['builder', 'ui', 'o-set', 'Write the brief in an editor']);
    const r = await startLaneFlow(p, facts({ rows: ROWS, selected: ROWS[3], models: { builder: 'o-set' } }));
    assert.deepEqual(r.kind === 'draft' && r.params, {
      parent: '4',
      role: 'builder',
      key: 'ui',
      model: 'o-set',
      noWait: true,
    });
    assert.equal(p.seen[0], 'svc: Start Lane (1/4) pick [builder|verifier|play] active=builder');
    assert.ok(!p.seen.some((s) => s.includes('Run key')), p.seen.join('\n'));
  });

  it('without a selection asks which conversation launches, and says when none can or no builder can be judged', async () => {
    const p = scripted([
      'root',
      'verifier',
      'r1',
      'A key of its own…',
      'check',
      'v-set',
      'Write the brief in an editor',
    ]);
    const r = await startLaneFlow(p, facts({ rows: ROWS, models: { verifier: 'v-set' } }));
    assert.deepEqual(r.kind === 'draft' && r.params, {
      parent: '1',
      role: 'verifier',
      run: 'r1',
      key: 'check',
      model: 'v-set',
      noWait: true,
    });
    assert.equal(p.seen[0], 'svc: Start Lane (1/6) pick [root|lead] active=-');
    assert.deepEqual(await startLaneFlow(scripted([]), facts({ rows: [ROWS[1]] })), {
      kind: 'nothing',
      message: 'no conversation can launch lanes: start a root conversation first ("svc: New Conversation")',
      answers: {},
    });
    const none = await startLaneFlow(scripted(['critic', 'r9']), facts({ rows: ROWS, selected: ROWS[0] }));
    assert.equal(
      none.kind === 'nothing' && none.message,
      "run r9 has no builder for a critic to judge: start a builder first (a critic judges a builder's commit)",
    );
  });

  it('checks key patterns; a dismissed step cancels, keeping the answers given so far', async () => {
    await assert.rejects(
      startLaneFlow(scripted(['builder', 'Bad Run']), facts({ rows: ROWS, selected: ROWS[0] })),
      /invalid Bad Run: a run key is 1–32 characters/,
    );
    assert.deepEqual(
      await startLaneFlow(scripted(['builder', 'r1', undefined]), facts({ rows: ROWS, selected: ROWS[0] })),
      {
        kind: 'cancelled',
        answers: { launcher: 1, role: 'builder', run: 'r1' },
      },
    );
  });

  it("offers the project's runs with their lane counts, the selected row's run first; New run… types one, and Back from typing returns to the runs", async () => {
    const runs = [
      { run: 'r2', lanes: 1, counts: '1 orchestrator · 1 working' },
      { run: 'r1', lanes: 3, counts: '2 builders · 1 critic · 3 idle' },
    ];
    // Join an existing run: the selected builder's run is the active item.
    const join = scripted(['builder', 'r1', 'web', 'builder-model', 'Write the brief in an editor']);
    const joined = await startLaneFlow(
      join,
      facts({ rows: ROWS, selected: ROWS[0], runs, offered: ['builder-model'] }),
      {
        run: 'r1',
      },
    );
    assert.equal(joined.kind === 'draft' && joined.params.run, 'r1');
    assert.equal(join.seen[1], 'svc: Start Lane (2/5) pick [r2|r1|New run…] active=r1 back');
    // A new run: typed after New run…; Back from the typing shows the runs again.
    const fresh = scripted(['builder', 'New run…', '<back>', 'New run…', 'r3', 'web']);
    const f = facts({ rows: ROWS, selected: ROWS[0], runs });
    const r = await startLaneFlow(fresh, f);
    assert.equal(r.kind, 'cancelled');
    assert.equal(r.answers.run, 'r3');
    assert.deepEqual(fresh.seen.slice(1, 6), [
      'svc: Start Lane (2/5) pick [r2|r1|New run…] active=r2 back',
      'svc: Start Lane (2/5) input "Run key (names this pass of the loop)" value= back',
      'svc: Start Lane (2/5) pick [r2|r1|New run…] active=r2 back',
      'svc: Start Lane (2/5) input "Run key (names this pass of the loop)" value= back',
      'svc: Start Lane (3/5) input "Lane key of the builder (short name inside run r3)" value= back',
    ]);
    assert.equal(f.asked.filter((x) => x === 'runs 1').length, 1, 'the runs are read once per flow');
  });
});
