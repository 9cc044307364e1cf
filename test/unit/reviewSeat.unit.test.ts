import * as assert from 'node:assert/strict';
import { reviewSeatOf } from '../../server/conversations/reviewSeat';

describe('a conversation’s seat in a review (server/conversations/reviewSeat.ts)', () => {
  it('reads the run and role the dispatcher put in its environment, for a conversation of an issue only', () => {
    const env = { SVC_ISSUE: 'WEB-2', SVC_REVIEW_RUN: 'r3', SVC_REVIEW_LANE: 'security' };
    assert.deepEqual(reviewSeatOf({ issueId: 'WEB-2', extraEnv: env }), { runId: 'r3', role: 'security' });
    assert.deepEqual(reviewSeatOf({ issueId: 'WEB-2', extraEnv: { ...env, SVC_REVIEW_LANE: 'parent' } }), {
      runId: 'r3',
      role: 'parent',
    });
    assert.equal(reviewSeatOf({ issueId: null, extraEnv: env }), null);
    assert.equal(reviewSeatOf({ issueId: 'WEB-2', extraEnv: null }), null, 'the work agent');
    assert.equal(
      reviewSeatOf({ issueId: 'WEB-2', extraEnv: { ...env, SVC_REVIEW_LANE: 'style' } }),
      null,
      'no such role',
    );
    assert.equal(reviewSeatOf({ issueId: 'WEB-2', extraEnv: { SVC_REVIEW_LANE: 'quick' } }), null, 'no run');
  });
});
