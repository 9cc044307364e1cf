import * as assert from 'node:assert/strict';
import { buildDeck, deckContextValue, describeRow, needsYouCount } from '../../extension/commandDeck/deckModel';
import type { DeckNode, DeckRow } from '../../extension/commandDeck/deckModel';
import { deckRows } from '../../extension/commandDeck/deckRows';
import type { ConversationInfo } from '../../shared/protocol/conversations';
import type { LaneRecord } from '../../shared/protocol/lanes';

const row = (id: number, o: Partial<DeckRow> = {}): DeckRow => ({ id, name: `c${id}`, title: `conv ${id}`, kind: 'root', parentId: null, activity: 'idle', ...o });
const lane = (id: number, parentId: number, role: string, iteration: number, o: Partial<DeckRow> = {}): DeckRow =>
  row(id, { kind: 'lane', parentId, role, run: 'r1', key: 'k', iteration, ...o });

/** The tree as `id(children…)` text, the easiest shape to compare exactly. */
function shape(nodes: readonly DeckNode[]): string {
  return nodes.map((n) => (n.children.length ? `${n.convId}(${shape(n.children)})` : `${n.convId}`)).join(' ');
}

describe('Command Deck model (extension/commandDeck/deckModel.ts)', () => {
  it('nests lanes under their launcher, oldest first, with stable ids', () => {
    const nodes = buildDeck([lane(4, 1, 'builder', 1, { key: 'b' }), row(1), row(2), lane(3, 1, 'builder', 1)]);
    assert.equal(shape(nodes), '1(3 4) 2');
    assert.deepEqual(nodes[0].children.map((n) => n.id), ['conv:3', 'conv:4']);
  });

  it('nests a successor under its source and says whom it continues', () => {
    const nodes = buildDeck([row(1), lane(2, 1, 'builder', 1), row(3, { kind: 'successor', parentId: 1 })]);
    assert.equal(shape(nodes), '1(2 3)');
    assert.equal(nodes[0].children[1].description, '#3 · continues ← #1 · idle');
  });

  it('nests critics and verifiers under the builder they judge, with a verdict badge', () => {
    const rows = [
      row(1),
      lane(2, 1, 'builder', 1, { verdict: { verdict: 'NOT_YET', defects: 2, by: 3 } }),
      lane(3, 1, 'critic', 1, { judged: { key: 'k', iteration: 1 }, verdict: { verdict: 'NOT_YET', defects: 2, by: 3 }, activity: 'stopped' }),
      lane(4, 1, 'verifier', 1, { judged: { key: 'k', iteration: 1 }, activity: 'working' }),
      lane(5, 1, 'builder', 2),
      lane(6, 1, 'critic', 2, { judged: { key: 'k', iteration: 2 }, verdict: { verdict: 'PASS', defects: 0, by: 6 } }),
    ];
    const nodes = buildDeck(rows);
    assert.equal(shape(nodes), '1(2(3 4) 5(6))');
    const [b1, b2] = nodes[0].children;
    assert.equal(b1.children[0].description, '#3 · critic iter 1 · stopped · [NOT_YET · 2 defects]');
    assert.equal(b2.children[0].description, '#6 · critic iter 2 · idle · [PASS]');
    assert.deepEqual(b1.verdictLink, { text: 'NOT_YET · 2 defects (#3)', convId: 3 });
    assert.equal(b1.description, '#2 · builder iter 1 · idle · verdict NOT_YET · 2 defects ← #3');
    assert.equal(b2.verdictLink, undefined);
    assert.equal(b1.children[0].verdictLink, undefined, 'only builders link to their critic');
  });

  it('puts a critic under the newest builder of the iteration it judges (a --reuse respawn)', () => {
    const nodes = buildDeck([row(1), lane(2, 1, 'builder', 1), lane(3, 1, 'builder', 1), lane(4, 1, 'critic', 1, { judged: { key: 'k', iteration: 1 } })]);
    assert.equal(shape(nodes), '1(2 3(4))');
  });

  it('pairs by run and key: a critic of another run or key stays under its launcher', () => {
    const nodes = buildDeck([row(1), lane(2, 1, 'builder', 1), lane(3, 1, 'critic', 1, { run: 'r2', judged: { key: 'k', iteration: 1 } }), lane(4, 1, 'critic', 1, { judged: { key: 'other', iteration: 1 } })]);
    assert.equal(shape(nodes), '1(2 3 4)');
  });

  it('drops archived conversations; a row whose parent left the deck shows at the top', () => {
    const nodes = buildDeck([row(1, { archived: true }), lane(2, 1, 'builder', 1), row(3), lane(4, 3, 'play', 1, { archived: true })]);
    assert.equal(shape(nodes), '2 3');
  });

  it('never loses rows to a parent cycle', () => {
    const nodes = buildDeck([row(1, { parentId: 2 }), row(2, { parentId: 1 }), row(3, { parentId: 3 })]);
    const all: number[] = [];
    const walk = (ns: readonly DeckNode[]) => ns.forEach((n) => (all.push(n.convId), walk(n.children)));
    walk(nodes);
    assert.deepEqual(all.sort(), [1, 2, 3]);
  });

  it('composes context values for regex when clauses', () => {
    assert.equal(deckContextValue(row(1)), 'svc:conv+root+idle+live');
    assert.equal(deckContextValue(lane(2, 1, 'builder', 1, { activity: 'needs-you', git: { branch: 'b', ahead: 0, dirty: true } })), 'svc:conv+lane+builder+needs-you+live+git+dirty');
    assert.equal(deckContextValue(lane(3, 1, 'critic', 1, { activity: 'stopped', verdict: { verdict: 'PASS', defects: 0, by: 3 } })), 'svc:conv+lane+critic+stopped+verdict');
    assert.equal(deckContextValue(row(4, { kind: 'agent', activity: 'failed-to-start' })), 'svc:conv+agent+failed-to-start');
  });

  it('describes git facts: branch, ahead, dirty', () => {
    assert.equal(describeRow(lane(2, 1, 'builder', 3, { activity: 'working', git: { branch: 'lane/k', ahead: 2, dirty: true } })), '#2 · builder iter 3 · working · lane/k ↑2 dirty');
    assert.equal(describeRow(lane(2, 1, 'play', 1, { git: { branch: null, ahead: null, dirty: false } })), '#2 · play iter 1 · idle · (detached)');
  });

  it('gives each activity its icon and theme colour', () => {
    const icons = (['needs-you', 'working', 'idle', 'starting', 'stopped', 'failed-to-start'] as const).map((a) => buildDeck([row(1, { activity: a })])[0].icon);
    assert.deepEqual(icons, [
      { id: 'bell-dot', color: 'list.warningForeground' },
      { id: 'sync~spin' },
      { id: 'circle-large-outline' },
      { id: 'loading~spin' },
      { id: 'circle-slash', color: 'disabledForeground' },
      { id: 'error', color: 'list.errorForeground' },
    ]);
  });

  it('counts the conversations that need the person, archived ones aside', () => {
    assert.equal(needsYouCount([row(1, { activity: 'needs-you' }), row(2, { activity: 'needs-you', archived: true }), row(3), row(4, { activity: 'needs-you' })]), 2);
  });

  it('joins conversations with lane records by id (deckRows)', () => {
    const conv = (id: number, o: Partial<ConversationInfo>) => ({ id, name: `c${id}`, title: `t${id}`, kind: 'root', parentId: null, activity: 'idle', archived: false, ...o }) as ConversationInfo;
    const rec = { id: 2, role: 'builder', run: 'r1', key: 'k', iteration: 1, judged: null, verdict: { verdict: 'PASS', defects: 0, by: 3, verdictFile: null }, git: { branch: 'b', headSha: 'abc', ahead: 1, dirty: false } } as unknown as LaneRecord;
    const rows = deckRows([conv(1, {}), conv(2, { kind: 'lane', parentId: 1, activity: 'working' })], [rec]);
    assert.deepEqual(rows, [
      { id: 1, name: 'c1', title: 't1', kind: 'root', parentId: null, activity: 'idle', archived: false },
      { id: 2, name: 'c2', title: 't2', kind: 'lane', parentId: 1, activity: 'working', archived: false, role: 'builder', run: 'r1', key: 'k', iteration: 1, judged: null, verdict: { verdict: 'PASS', defects: 0, by: 3 }, git: { branch: 'b', ahead: 1, dirty: false } },
    ]);
  });
});
