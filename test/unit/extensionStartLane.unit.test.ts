import * as assert from 'node:assert/strict';
import type { DeckRow } from '../../extension/commandDeck/deckModel';
import { startLaneFlow } from '../../extension/lanes/startLaneFlow';
import type { PickItem, Prompter } from '../../extension/lanes/startLaneFlow';

const ROWS: DeckRow[] = [
  { id: 1, name: 'root', title: 'root', kind: 'root', parentId: null, activity: 'idle', model: 'big' },
  { id: 2, name: 'r1-api-builder-i1', title: 'api', kind: 'lane', parentId: 1, activity: 'idle', role: 'builder', run: 'r1', key: 'api', iteration: 1, model: 'builder-model' },
  { id: 3, name: 'r1-api-critic-i1', title: 'api critic', kind: 'lane', parentId: 1, activity: 'idle', role: 'critic', run: 'r1', key: 'api', iteration: 1, model: 'critic-model' },
  { id: 4, name: 'r1-lead-orch', title: 'lead', kind: 'lane', parentId: 1, activity: 'working', role: 'orchestrator', run: 'r2', key: 'lead', iteration: 1, model: 'o' },
];

/** Answers each prompt from a script and records what it was shown (titles, prefilled values, the active pick). */
function scripted(answers: (string | undefined)[]): Prompter & { seen: string[] } {
  const seen: string[] = [];
  const next = () => (answers.length ? answers.shift() : undefined);
  return {
    seen,
    async pick<T extends PickItem>(items: T[], o: { title: string; placeholder: string; active?: T }) {
      seen.push(`${o.title} pick [${items.map((i) => i.label).join('|')}] active=${o.active?.label ?? '-'}`);
      const want = next();
      return want === undefined ? undefined : items.find((i) => i.label === want);
    },
    async input(o) {
      seen.push(`${o.title} input "${o.prompt}" value=${o.value ?? ''}`);
      const v = next();
      if (v !== undefined && o.validate?.(v)) throw new Error(`invalid ${v}: ${o.validate(v)}`);
      return v;
    },
    async openFile(o) {
      seen.push(`open ${o.title}`);
      return next();
    },
  };
}

describe('start lane guided pick (extension/lanes/startLaneFlow.ts)', () => {
  it('prefills a critic for the selected builder: its launcher, run, key and the model of the run’s critic', async () => {
    const p = scripted(['critic', 'r1', 'api', 'Choose a brief file…', '/briefs/critic.md', 'critic-model']);
    const r = await startLaneFlow(p, ROWS[1], ROWS);
    assert.deepEqual(r && 'params' in r ? r.params : r, { parent: '1', role: 'critic', run: 'r1', for: 'api', brief: '/briefs/critic.md', noWait: true, model: 'critic-model' });
    assert.deepEqual(p.seen, [
      'svc: Start Lane (2/6) pick [builder|critic|verifier|play|orchestrator] active=critic',
      'svc: Start Lane (3/6) input "Run key (names this pass of the loop)" value=r1',
      'svc: Start Lane (4/6) pick [api] active=api',
      'svc: Start Lane (5/6) pick [Choose a brief file…|Type the brief] active=-',
      'open Brief file for the lane',
      'svc: Start Lane (6/6) input "Model for the critic" value=critic-model',
    ]);
  });

  it('from an orchestrator lane: its roles only, its run inherited, a typed brief, no model (the gauntlet config’s)', async () => {
    const p = scripted(['builder', 'ui', 'Type the brief', 'build the ui', '']);
    const r = await startLaneFlow(p, ROWS[3], ROWS);
    assert.deepEqual(r && 'params' in r ? r.params : r, { parent: '4', role: 'builder', key: 'ui', prompt: 'build the ui', noWait: true });
    assert.equal(p.seen[0], 'svc: Start Lane (2/6) pick [builder|verifier|play] active=builder');
    assert.ok(!p.seen.some((s) => s.includes('Run key')), p.seen.join('\n'));
  });

  it('without a selection asks which conversation launches, and says when none can', async () => {
    const p = scripted(['root', 'verifier', 'r1', 'Another key…', 'check', 'Type the brief', 'verify', 'v']);
    const r = await startLaneFlow(p, undefined, ROWS);
    assert.deepEqual(r && 'params' in r ? r.params : r, { parent: '1', role: 'verifier', run: 'r1', key: 'check', prompt: 'verify', noWait: true, model: 'v' });
    assert.equal(p.seen[0], 'svc: Start Lane (1/6) pick [root|lead] active=-');
    assert.deepEqual(await startLaneFlow(scripted([]), undefined, [ROWS[1]]), { nothing: 'no conversation can launch lanes: start a root conversation first ("svc: New Conversation")' });
  });

  it('checks key patterns and stops quietly when the person backs out', async () => {
    await assert.rejects(startLaneFlow(scripted(['builder', 'Bad Run']), ROWS[0], ROWS), /invalid Bad Run: a run key is 1–32 characters/);
    assert.equal(await startLaneFlow(scripted(['builder', 'r1', undefined]), ROWS[0], ROWS), undefined);
  });
});
