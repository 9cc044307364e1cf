import * as assert from 'node:assert/strict';
import { buildDeck } from '../../extension/commandDeck/deckModel';
import type { DeckRow } from '../../extension/commandDeck/deckModel';
import { mergeTree } from '../../extension/commandDeck/treeMerge';
import { row } from '../helpers/deckRowMakers';

interface Node {
  id: string;
  label: string;
  badge?: string;
  children: Node[];
}
const node = (id: string, label = id, children: Node[] = [], badge?: string): Node => ({
  id,
  label,
  children,
  ...(badge ? { badge } : {}),
});
const ids = (nodes: readonly Node[] | 'all') => (nodes === 'all' ? 'all' : nodes.map((n) => n.id).join(' '));

describe('tree merge: a refresh names only the rows that changed (extension/commandDeck/treeMerge.ts)', () => {
  it('an unchanged tree keeps every object and refreshes nothing', () => {
    const old = [node('a', 'a', [node('a1')]), node('b')];
    const [a, a1, b] = [old[0], old[0].children[0], old[1]];
    const m = mergeTree(old, [node('a', 'a', [node('a1')]), node('b')]);
    assert.deepEqual(m.refresh, []);
    assert.equal(m.roots, old);
    assert.deepEqual([m.roots[0], m.roots[0].children[0], m.roots[1]], [a, a1, b]);
  });

  it('a row whose own fields changed is refreshed alone, in its old object, with fields dropped that went away', () => {
    const old = [node('a', 'a', [node('a1', 'working', [], '2')]), node('b')];
    const a1 = old[0].children[0];
    const m = mergeTree(old, [node('a', 'a', [node('a1', 'idle')]), node('b', 'b2')]);
    assert.equal(ids(m.refresh), 'a1 b');
    assert.equal(m.roots[0].children[0], a1, 'the same object');
    assert.deepEqual(a1, { id: 'a1', label: 'idle', children: [] }, 'the badge went away');
    assert.equal(m.roots[1].label, 'b2');
  });

  it('a row whose children changed is refreshed with the new children; its siblings keep theirs', () => {
    const old = [node('a', 'a', [node('a1')]), node('b', 'b', [node('b1')])];
    const b1 = old[1].children[0];
    const m = mergeTree(old, [node('a', 'a', [node('a1'), node('a2')]), node('b', 'b', [node('b1')])]);
    assert.equal(ids(m.refresh), 'a');
    assert.deepEqual(
      m.roots[0].children.map((n) => n.id),
      ['a1', 'a2'],
    );
    assert.equal(m.roots[1].children[0], b1);
  });

  it('own fields compare as JSON writes them: a change deep in a field refreshes; key order and fields set to undefined do not', () => {
    type Deep = Node & { row?: unknown; at?: Date };
    const deep = (id: string, row: unknown, extra: Partial<Deep> = {}): Deep => ({
      id,
      label: id,
      children: [],
      row,
      ...extra,
    });
    const row = { lane: { parked: [{ patchFile: 'p1', paths: 1 }], budget: { spent: 0, run: { cap: null } } } };
    const same = { lane: { budget: { run: { cap: null }, spent: 0 }, parked: [{ paths: 1, patchFile: 'p1' }] } };
    const old: Deep[] = [
      deep('a', row),
      deep('b', row),
      deep('c', row, { at: new Date(1) }),
      deep('d', [1, undefined]),
    ];
    const m = mergeTree<Deep>(old, [
      deep('a', same, { badge: undefined }),
      deep('b', { lane: { ...same.lane, parked: [{ paths: 2, patchFile: 'p1' }] } }),
      deep('c', row, { at: new Date(2) }),
      deep('d', [1, null]),
    ]);
    assert.equal(ids(m.refresh), 'b c', 'b: a parked patch deep in its row changed; c: its date');
    assert.deepEqual((m.roots[1].row as typeof row).lane.parked, [{ paths: 2, patchFile: 'p1' }]);
  });

  it('a change of the top-level rows (added, removed or reordered) refreshes the whole tree', () => {
    for (const next of [[node('a'), node('b'), node('c')], [node('a')], [node('b'), node('a')]]) {
      const m = mergeTree([node('a'), node('b')], next);
      assert.equal(m.refresh, 'all');
      assert.equal(m.roots, next);
    }
  });

  it('on the Command Deck: a lane turning idle refreshes its row only; the launcher and its other lanes keep their objects', () => {
    const lane = (id: number, activity: DeckRow['activity']) =>
      row(id, { kind: 'lane', parentId: 1, role: 'builder', run: 'r1', key: `k${id}`, iteration: 1, activity });
    const old = buildDeck([row(1), lane(2, 'working'), lane(3, 'idle'), row(4)]);
    const [launcher, other] = [old[0], old[0].children[1]];
    const m = mergeTree(old, buildDeck([row(1), lane(2, 'idle'), lane(3, 'idle'), row(4)]));
    assert.deepEqual(m.refresh === 'all' ? 'all' : m.refresh.map((n) => n.id), ['conv:2']);
    assert.equal(m.roots[0], launcher);
    assert.equal(m.roots[0].children[1], other);
    assert.equal(m.roots[0].children[0].row?.activity, 'idle');
  });
});
