// A blocked report's kind is read in one place (shared/keys.ts): the report rule that
// refuses a blocked body without one, the spend guard, the inbox, the run record and the
// window's spend notice all ask the same function, so they agree on what a SPEND report is.
import * as assert from 'node:assert/strict';
import { blockedKindOf, isSpendReport } from '../../shared/keys';

describe('blocked report kinds', () => {
  it('reads the kind a body starts with, after blanks and a heading', () => {
    assert.equal(blockedKindOf('RULING: which API?'), 'RULING');
    assert.equal(blockedKindOf('  \n## SPEND\nspent $0.60 of $0.50'), 'SPEND');
    assert.equal(blockedKindOf('ONE-WAY migration drops a column'), 'ONE-WAY');
    assert.equal(blockedKindOf('# BLOCKED on a ruling'), 'BLOCKED');
  });

  it('finds no kind in a body that only mentions one, or starts with a longer word', () => {
    assert.equal(blockedKindOf('I am blocked: SPEND reached'), undefined);
    assert.equal(blockedKindOf('SPENDING too much'), undefined);
    assert.equal(blockedKindOf('ruling needed'), undefined);
    assert.equal(blockedKindOf(''), undefined);
  });

  it('a spend report is a blocked one of kind SPEND, never a done or failed one', () => {
    assert.equal(isSpendReport({ status: 'blocked', body: 'SPEND: spent $1 of $1' }), true);
    assert.equal(isSpendReport({ status: 'blocked', body: 'RULING: SPEND more?' }), false);
    assert.equal(isSpendReport({ status: 'done', body: 'SPEND notes' }), false);
    assert.equal(isSpendReport({ status: 'failed', body: 'SPEND' }), false);
  });
});
