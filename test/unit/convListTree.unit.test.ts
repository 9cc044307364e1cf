import * as assert from 'node:assert/strict';
import { deckTree } from '../../cli/commands/convFormat';
import type { LanePlacement } from '../../cli/commands/convFormat';
import type { ConversationInfo } from '../../shared/protocol/conversations';

const conv = (id: number, parentId: number | null, kind = 'lane'): ConversationInfo =>
  ({
    id,
    name: `c${id}`,
    title: '',
    kind,
    parentId,
    activity: 'idle',
    alive: true,
    harness: 'script',
    model: 'm',
    archived: false,
  }) as unknown as ConversationInfo;
const lane = (
  id: number,
  role: string,
  key: string,
  iteration: number,
  judged: { key: string; iteration: number } | null = null,
): LanePlacement => ({ id, role, run: 'r1', key, iteration, judged }) as LanePlacement;

describe('svc conv list: the Command Deck as a tree (cli/commands/convFormat.ts)', () => {
  it('puts a critic under the builder it judges, not under the launcher; without lane facts, under the launcher', () => {
    const list = [conv(1, null, 'root'), conv(2, 1), conv(3, 1), conv(4, 1), conv(5, 1)];
    const lanes = [
      lane(2, 'builder', 'api', 1),
      lane(3, 'builder', 'web', 1),
      lane(4, 'critic', 'api', 1, { key: 'api', iteration: 1 }),
      lane(5, 'verifier', 'web', 1, { key: 'web', iteration: 1 }),
    ];
    const names = (text: string) =>
      text
        .split('\n')
        .filter(Boolean)
        .map((l) => l.replace(/^( *)#\d+ (c\d+).*$/, '$1$2'));
    assert.deepEqual(names(deckTree(list, lanes)), ['c1', '  c2', '    c4', '  c3', '    c5']);
    assert.deepEqual(names(deckTree(list)), ['c1', '  c2', '  c3', '  c4', '  c5']);
  });

  it('a critic of a builder not in the list (archived) stays under its launcher', () => {
    const list = [conv(1, null, 'root'), conv(4, 1)];
    const text = deckTree(list, [
      lane(2, 'builder', 'api', 1),
      lane(4, 'critic', 'api', 1, { key: 'api', iteration: 1 }),
    ]);
    assert.match(text, /^#1 c1 .*\n {2}#4 c4 /);
  });
});
