import * as assert from 'node:assert/strict';
import { formatCost, moneyAmount } from '../../shared/format/money';

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
});
