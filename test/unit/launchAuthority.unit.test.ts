// Launch authority (server/lanes/launchRules.ts): an agent gives its lanes no more than it
// has. A sandboxed launcher's lane is sandboxed whichever setting chose `off`; --replace and
// --reuse by an agent reach only lanes it or its lanes launched; a person is never limited.
import * as assert from 'node:assert/strict';
import { checkOwnLane, checkSandboxFloor } from '../../server/lanes/launchRules';
import type { ConversationsPort, ConvRow } from '../../server/lanes/conversationsPort';
import type { LaneRow } from '../../server/lanes/laneStore';
import { SvcError } from '../../shared/errors';

const row = (id: number, parentId: number | null, name = `c${id}`): ConvRow =>
  ({ id, name, kind: id === 1 ? 'root' : 'lane', parentId }) as ConvRow;

describe('launch authority (launchRules.ts)', () => {
  it('refuses an unconfined lane from a sandboxed agent, naming the setting that chose it', () => {
    const o = row(2, 1, 'r-o-orchestrator-i1');
    assert.throws(
      () => checkSandboxFloor(o, 'workspace', { sandbox: 'off', sandboxFrom: 'gauntlet.roles.builder.sandbox' }),
      (e: unknown) =>
        SvcError.is(e, 'sandboxWeaker') &&
        e.message ===
          "#2 (r-o-orchestrator-i1) runs in the workspace sandbox and may not launch an unconfined lane (gauntlet.roles.builder.sandbox says off): a lane's sandbox is at least its launcher's; launch it with --sandbox workspace, or ask the person to launch it",
    );
    checkSandboxFloor(o, 'workspace', { sandbox: 'workspace', sandboxFrom: '--sandbox' });
    checkSandboxFloor(o, 'off', { sandbox: 'off', sandboxFrom: '--sandbox' }); // the person chose an unconfined launcher
    checkSandboxFloor(undefined, 'workspace', { sandbox: 'off', sandboxFrom: '--sandbox' }); // a person
  });

  it('lets an agent --replace or --reuse only its descendants', () => {
    const rows = new Map(
      [row(1, null), row(2, 1, 'orch'), row(3, 2), row(4, 3), row(5, 1, 'persons')].map((r) => [r.id, r]),
    );
    const convs = { get: (id: number) => rows.get(id) } as unknown as ConversationsPort;
    const lane = (id: number) => ({ id, name: rows.get(id)!.name }) as LaneRow;
    checkOwnLane(convs, rows.get(2), '--replace', lane(3));
    checkOwnLane(convs, rows.get(2), '--reuse', lane(4)); // a lane of its lane
    checkOwnLane(convs, undefined, '--replace', lane(5)); // the person
    assert.throws(
      () => checkOwnLane(convs, rows.get(2), '--replace', lane(5)),
      (e: unknown) =>
        SvcError.is(e, 'notOwnLane') &&
        e.message ===
          '--replace: lane #5 (persons) was not launched by #2 (orch) or its lanes; an agent may stop only its own lanes (the person may act on any)',
    );
    assert.throws(
      () => checkOwnLane(convs, rows.get(3), '--reuse', lane(2)),
      (e: unknown) => SvcError.is(e, 'notOwnLane'),
    );
  });
});
