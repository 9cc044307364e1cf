import * as assert from 'node:assert/strict';
import { afterResume, afterStop, agentList, stopModal } from '../../extension/commands/daemonStopText';

const A = { id: 3, name: 'r1-api-builder-i1', title: 'r1/api builder i1' };
const B = { id: 5, name: 'root', title: '' };

describe('Stop Daemon / Restart Daemon texts (extension/commands/daemonStopText.ts)', () => {
  it('asks nothing when no agent is live', () => {
    assert.equal(stopModal([], false), undefined);
    assert.equal(stopModal([], true), undefined);
  });

  it('names how many live agents stop, and which, in the modal', () => {
    assert.deepEqual(stopModal([A, B], false), {
      message: 'Stop the svc daemon? It stops 2 live agents.',
      detail:
        'Stopping the daemon stops #3 r1/api builder i1, #5 root through the stop door. Their conversations and transcripts are kept; afterwards svc offers to resume them.',
      confirm: 'Stop Daemon and 2 Agents',
    });
    assert.deepEqual(stopModal([A], true), {
      message: 'Restart the svc daemon? It stops 1 live agent.',
      detail:
        'Stopping the daemon stops #3 r1/api builder i1 through the stop door. Their conversations and transcripts are kept; afterwards svc offers to resume it.',
      confirm: 'Restart Daemon and Stop 1 Agent',
    });
  });

  it('lists at most five agents by name', () => {
    const many = Array.from({ length: 7 }, (_, i) => ({ id: i + 1, name: `n${i + 1}`, title: '' }));
    assert.equal(agentList(many), '#1 n1, #2 n2, #3 n3, #4 n4, #5 n5 and 2 more');
  });

  it('after the stop offers Resume for the agents it stopped (starting the daemon first when it was a stop)', () => {
    assert.deepEqual(afterStop(41, []), { message: 'svc: the daemon stopped (pid 41).' });
    assert.deepEqual(afterStop(41, [A, B]), {
      message: 'svc: the daemon stopped (pid 41); it stopped 2 agents: #3 r1/api builder i1, #5 root.',
      resume: 'Start Daemon and Resume All 2',
    });
    assert.deepEqual(afterStop(41, [A], 52), {
      message: 'svc: the daemon restarted (pid 41 → 52); it stopped 1 agent: #3 r1/api builder i1.',
      resume: 'Resume It',
    });
  });

  it('says who resumed and why any did not', () => {
    assert.equal(afterResume([A, B], []), 'svc: resumed #3 r1/api builder i1, #5 root.');
    assert.equal(
      afterResume([A], [{ agent: B, why: 'conversation #5 (root) is archived' }]),
      'svc: resumed #3 r1/api builder i1; #5 not resumed: conversation #5 (root) is archived.',
    );
  });
});
