// The Agents page's cost column with a spend cap.
import * as assert from 'node:assert/strict';
import { costText } from '../../webview/agents/agentsTable';
import type { AgentRowView } from '../../shared/webview/agentsMessages';

describe('spend on the Agents page', () => {
  const agent = (budget: AgentRowView['budget'], cost: number | null = 0.42): AgentRowView => ({
    id: 2,
    name: 'l2',
    title: 'lane 2',
    kind: 'lane',
    role: 'builder',
    depth: 1,
    order: 1,
    alive: true,
    activity: 'idle',
    model: 'm',
    harness: 'script',
    cost,
    currency: cost === null ? null : 'USD',
    issue: null,
    verdict: null,
    verdictTone: null,
    archived: false,
    budget,
  });
  it('shows the cost alone without a cap, spent of cap with one, and says when a cap is reached or cannot hold', () => {
    assert.equal(costText(agent(null)), '$0.42');
    assert.equal(costText(agent({ spent: 0.9, cap: 1, state: 'near', text: '' })), '$0.90 of $1.00 (90%)');
    assert.equal(
      costText(agent({ spent: 1.25, cap: 1, state: 'reached', text: '' })),
      '$1.25 of $1.00 (125%) · cap reached',
    );
    assert.equal(
      costText(agent({ spent: 0, cap: 2, state: 'not-enforceable', text: '' }, null)),
      '— · cap $2.00 not enforceable',
    );
  });
});
