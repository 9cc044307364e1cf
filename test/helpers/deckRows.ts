// Command Deck rows for the tests of the deck's model, its tree items (in-host) and its
// menus (unit): an orchestrator, a working builder with a verdict, its critic, a builder
// asking, and a reaped play lane.
import type { DeckRow } from '../../extension/commandDeck/deckModel';

export const ROWS: DeckRow[] = [
  { id: 1, name: 'orch', title: 'orchestrator', kind: 'root', parentId: null, activity: 'idle' },
  {
    id: 2,
    name: 'b1',
    title: 'builder one',
    kind: 'lane',
    parentId: 1,
    activity: 'working',
    role: 'builder',
    run: 'r1',
    key: 'k',
    iteration: 1,
    git: { branch: 'lane/k', ahead: 2, dirty: true },
    verdict: { verdict: 'NOT_YET', defects: 3, by: 3 },
  },
  {
    id: 3,
    name: 'c1',
    title: 'critic one',
    kind: 'lane',
    parentId: 1,
    activity: 'stopped',
    role: 'critic',
    run: 'r1',
    key: 'k',
    iteration: 1,
    judged: { key: 'k', iteration: 1 },
    verdict: { verdict: 'NOT_YET', defects: 3, by: 3 },
  },
  { id: 4, name: 'b2', title: 'asking builder', kind: 'lane', parentId: 1, activity: 'needs-you', role: 'builder', run: 'r1', key: 'q', iteration: 1 },
  { id: 5, name: 'p1', title: 'reaped play', kind: 'lane', parentId: 1, activity: 'stopped', role: 'play', run: 'r1', key: 'p', iteration: 1, reaped: true },
];
