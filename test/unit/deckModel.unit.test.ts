import * as assert from 'node:assert/strict';
import { buildDeck, canLaunch, canSucceed, deckContextValue, describeRow, needsYouCount } from '../../extension/commandDeck/deckModel';
import type { DeckNode, DeckRow } from '../../extension/commandDeck/deckModel';
import { deckRows } from '../../extension/commandDeck/deckRows';
import type { ConversationInfo } from '../../shared/protocol/conversations';
import type { LaneRecord } from '../../shared/protocol/lanes';

const row = (id: number, o: Partial<DeckRow> = {}): DeckRow => ({ id, name: `c${id}`, title: `conv ${id}`, kind: 'root', parentId: null, activity: 'idle', ...o });
const lane = (id: number, parentId: number, role: string, iteration: number, o: Partial<DeckRow> = {}): DeckRow =>
  row(id, { kind: 'lane', parentId, role, run: 'r1', key: 'k', iteration, ...o });

/** The tree as `id(children…)` text (a verdict link shows as `v→<critic>`), the easiest shape to compare exactly. */
function shape(nodes: readonly DeckNode[]): string {
  const label = (n: DeckNode) => (n.kind === 'verdict' ? `v→${n.convId}` : `${n.convId}`);
  return nodes.map((n) => (n.children.length ? `${label(n)}(${shape(n.children)})` : label(n))).join(' ');
}

describe('Command Deck model (extension/commandDeck/deckModel.ts)', () => {
  it('nests lanes under their launcher, oldest first, with stable ids', () => {
    const nodes = buildDeck([lane(4, 1, 'builder', 1, { key: 'b' }), row(1), row(2), lane(3, 1, 'builder', 1)]);
    assert.equal(shape(nodes), '1(3 4) 2');
    assert.deepEqual(nodes[0].children.map((n) => n.id), ['conv:3', 'conv:4']);
    // A parent's id differs from a leaf's, so a row that gains children starts expanded in VS Code.
    assert.deepEqual([nodes[0].id, nodes[1].id], ['conv:1:tree', 'conv:2']);
  });

  it('nests a successor under its source and says whom it continues', () => {
    const nodes = buildDeck([row(1), lane(2, 1, 'builder', 1), row(3, { kind: 'successor', parentId: 1 })]);
    assert.equal(shape(nodes), '1(2 3)');
    assert.equal(nodes[0].children[1].description, '#3 · continues ← #1 · idle');
  });

  it('nests critics and verifiers under the builder they judge, with a verdict badge and a link row opening the critic', () => {
    const rows = [
      row(1),
      lane(2, 1, 'builder', 1, { verdict: { verdict: 'NOT_YET', defects: 2, by: 3 } }),
      lane(3, 1, 'critic', 1, { judged: { key: 'k', iteration: 1 }, verdict: { verdict: 'NOT_YET', defects: 2, by: 3 }, activity: 'stopped' }),
      lane(4, 1, 'verifier', 1, { judged: { key: 'k', iteration: 1 }, activity: 'working' }),
      lane(5, 1, 'builder', 2),
      lane(6, 1, 'critic', 2, { judged: { key: 'k', iteration: 2 }, verdict: { verdict: 'PASS', defects: 0, by: 6 } }),
    ];
    const nodes = buildDeck(rows);
    assert.equal(shape(nodes), '1(2(v→3 3 4) 5(6))');
    const [b1, b2] = nodes[0].children;
    assert.equal(b1.children[1].description, '#3 · critic i1 · stopped · [NOT_YET · 2 defects]');
    assert.equal(b2.children[0].description, '#6 · critic i2 · idle · [PASS]');
    assert.deepEqual(b1.verdictLink, { text: 'NOT_YET · 2 defects (#3)', convId: 3 });
    assert.equal(b1.description, '#2 · builder i1 · idle · verdict NOT_YET · 2 defects');
    const link = b1.children[0];
    assert.deepEqual(
      { id: link.id, kind: link.kind, convId: link.convId, label: link.label, description: link.description, contextValue: link.contextValue, icon: link.icon },
      { id: 'verdict:2', kind: 'verdict', convId: 3, label: 'newest verdict NOT_YET · 2 defects', description: 'open critic #3', contextValue: 'svc:verdictLink', icon: { id: 'warning', color: 'list.warningForeground' } },
    );
    assert.equal(b2.verdictLink, undefined);
    assert.equal(b1.children[1].verdictLink, undefined, 'only builders link to their critic');
  });

  it('puts a critic under the newest builder of the iteration it judges (a --reuse respawn)', () => {
    const nodes = buildDeck([row(1), lane(2, 1, 'builder', 1), lane(3, 1, 'builder', 1), lane(4, 1, 'critic', 1, { judged: { key: 'k', iteration: 1 } })]);
    assert.equal(shape(nodes), '1(2 3(4))');
  });

  it('pairs by run and key: a critic of another run or key stays under its launcher', () => {
    const nodes = buildDeck([row(1), lane(2, 1, 'builder', 1), lane(3, 1, 'critic', 1, { run: 'r2', judged: { key: 'k', iteration: 1 } }), lane(4, 1, 'critic', 1, { judged: { key: 'other', iteration: 1 } })]);
    assert.equal(shape(nodes), '1(2 3 4)');
  });

  it('drops archived conversations (a row whose parent left the deck shows at the top); keeps them when asked', () => {
    const rows = [row(1, { archived: true }), lane(2, 1, 'builder', 1), row(3), lane(4, 3, 'play', 1, { archived: true })];
    assert.equal(shape(buildDeck(rows)), '2 3');
    assert.equal(shape(buildDeck(rows, { keepArchived: true })), '1(2) 3(4)');
  });

  it('keeps a lane reaped with --keep (not archived) and marks it reaped', () => {
    const nodes = buildDeck([row(1), lane(2, 1, 'builder', 1, { activity: 'stopped', reaped: true })]);
    assert.equal(shape(nodes), '1(2)');
    assert.equal(nodes[0].children[0].description, '#2 · builder i1 · stopped · reaped');
    assert.equal(nodes[0].children[0].contextValue, 'svc:conv+lane+builder+stopped+reaped');
  });

  it('never loses rows to a parent cycle', () => {
    const nodes = buildDeck([row(1, { parentId: 2 }), row(2, { parentId: 1 }), row(3, { parentId: 3 })]);
    const all: number[] = [];
    const walk = (ns: readonly DeckNode[]) => ns.forEach((n) => (all.push(n.convId), walk(n.children)));
    walk(nodes);
    assert.deepEqual(all.sort(), [1, 2, 3]);
  });

  it('composes context values for regex when clauses', () => {
    assert.equal(deckContextValue(row(1)), 'svc:conv+root+idle+live+launcher+succeed');
    assert.equal(deckContextValue(lane(2, 1, 'builder', 1, { activity: 'needs-you', git: { branch: 'b', ahead: 0, dirty: true } })), 'svc:conv+lane+builder+needs-you+live+git+dirty');
    assert.equal(deckContextValue(lane(3, 1, 'critic', 1, { activity: 'stopped', verdict: { verdict: 'PASS', defects: 0, by: 3 } })), 'svc:conv+lane+critic+stopped+verdict');
    assert.equal(deckContextValue(lane(5, 1, 'orchestrator', 1, { activity: 'working' })), 'svc:conv+lane+orchestrator+working+live+launcher+succeed');
    assert.equal(deckContextValue(row(6, { kind: 'successor', parentId: 1, activity: 'stopped' })), 'svc:conv+successor+stopped+launcher+succeed');
    assert.equal(deckContextValue(row(4, { kind: 'agent', activity: 'failed-to-start' })), 'svc:conv+agent+failed-to-start+succeed');
    assert.deepEqual([canLaunch({ kind: 'lane', role: 'builder' }), canLaunch({ kind: 'agent' }), canSucceed({ kind: 'lane', role: 'critic' })], [false, false, false]);
  });

  it('describes role, iteration, activity and git facts: branch, ahead, dirty', () => {
    assert.equal(describeRow(lane(2, 1, 'builder', 3, { activity: 'working', git: { branch: 'lane/k', ahead: 2, dirty: true } })), '#2 · builder i3 · working · lane/k ↑2 · dirty');
    assert.equal(describeRow(lane(2, 1, 'builder', 1, { git: { branch: 'lane/k', ahead: 0, dirty: false } })), '#2 · builder i1 · idle · lane/k ↑0');
    assert.equal(describeRow(lane(2, 1, 'critic', 1, { git: { branch: null, ahead: null, dirty: false } })), '#2 · critic i1 · idle · (detached)');
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
    const conv = (id: number, o: Partial<ConversationInfo>) => ({ id, name: `c${id}`, title: `t${id}`, kind: 'root', parentId: null, activity: 'idle', archived: false, model: 'm', ...o }) as ConversationInfo;
    const rec = { id: 2, role: 'builder', run: 'r1', key: 'k', iteration: 1, reaped: false, judged: null, verdict: { verdict: 'PASS', defects: 0, by: 3, verdictFile: null }, git: { branch: 'b', headSha: 'abc', ahead: 1, dirty: false } } as unknown as LaneRecord;
    const rows = deckRows([conv(1, {}), conv(2, { kind: 'lane', parentId: 1, activity: 'working', model: 'm2' })], [rec]);
    assert.deepEqual(rows, [
      { id: 1, name: 'c1', title: 't1', kind: 'root', parentId: null, activity: 'idle', archived: false, model: 'm' },
      { id: 2, name: 'c2', title: 't2', kind: 'lane', parentId: 1, activity: 'working', archived: false, model: 'm2', role: 'builder', run: 'r1', key: 'k', iteration: 1, reaped: false, judged: null, verdict: { verdict: 'PASS', defects: 0, by: 3 }, git: { branch: 'b', ahead: 1, dirty: false } },
    ]);
  });
});
