import * as assert from 'node:assert/strict';
import { formatCost, moneyAmount, parseUsd } from '../../shared/format/money';

describe('costs as money (shared/format/money.ts)', () => {
  it('shows cents, and two significant digits under a cent, without float noise', () => {
    assert.equal(formatCost(0.00028199999999999997), '$0.00028');
    assert.equal(formatCost(0.1 + 0.2), '$0.30');
    assert.equal(formatCost(0), '$0.00');
    assert.equal(formatCost(12.3456, 'USD'), '$12.35');
    assert.equal(formatCost(0.009999), '$0.01');
    assert.equal(formatCost(0.0000001), '$0.0000001');
    assert.equal(formatCost(-0.5), '-$0.50');
  });

  it('names any other currency after the amount', () => {
    assert.equal(formatCost(0.00028199999999999997, 'EUR'), '0.00028 EUR');
    assert.equal(moneyAmount(3), '3.00');
  });

  it('reads a budget as typed (2.50, $2.50) and says why another is none', () => {
    assert.deepEqual(parseUsd('2.50'), { usd: 2.5 });
    assert.deepEqual(parseUsd(' $3 '), { usd: 3 });
    assert.deepEqual(parseUsd('1000000'), { usd: 1_000_000 });
    for (const bad of ['', '0', '0.00', '-1', '1e3', '2.5.1', 'ten', '$', '.5', '1,50']) {
      assert.deepEqual(parseUsd(bad), { why: 'a budget is an amount of US dollars above 0, like 2.50' }, bad);
    }
    assert.deepEqual(parseUsd('1000000.01'), { why: 'a budget is at most 1,000,000 US dollars' });
  });
});
