// Command Deck rows as the deck's unit tests write them: a conversation row, a lane row under
// its launcher, and a tree as compact text to compare exactly.
import type { DeckNode, DeckRow } from '../../extension/commandDeck/deckModel';

export const row = (id: number, o: Partial<DeckRow> = {}): DeckRow => ({
  id,
  name: `c${id}`,
  title: `conv ${id}`,
  kind: 'root',
  parentId: null,
  activity: 'idle',
  ...o,
});

export const lane = (
  id: number,
  parentId: number,
  role: string,
  iteration: number,
  o: Partial<DeckRow> = {},
): DeckRow => row(id, { kind: 'lane', parentId, role, run: 'r1', key: 'k', iteration, ...o });

/** The tree as `id(children…)` text (a convoy shows as `<label>`, history as `history`), the easiest shape to compare exactly. */
export function shape(nodes: readonly DeckNode[]): string {
  const label = (n: DeckNode) =>
    n.kind === 'convoy' ? `<${n.label}>` : n.kind === 'history' ? 'history' : `${n.convId}`;
  return nodes.map((n) => (n.children.length ? `${label(n)}(${shape(n.children)})` : label(n))).join(' ');
}
