// Runs, `pr.reviewState` and the stall rule's due time, derived from journal entries.
import * as assert from 'node:assert/strict';
import type { JournalEntry } from '../../shared/protocol/review';
import { reviewState } from '../../server/review/reviewState';
import { latestRun, nextRunId, reviewedShas, runsOf } from '../../server/review/runs';
import { REDISPATCH_EVERY_MS, STALL_MS, stallDue } from '../../server/review/stall';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const t = (min: number) => new Date(Date.UTC(2026, 0, 1, 0, min)).toISOString();
const e = (
  min: number,
  kind: string,
  runId: string,
  sha: string,
  extra: Record<string, unknown> = {},
): JournalEntry => ({
  at: t(min),
  kind,
  issue: 'WEB-1',
  runId,
  sha,
  ...extra,
});

describe('review runs from the journal', () => {
  it('follows a run through requested, dispatched, verdict', () => {
    const j = [
      e(0, 'review.requested', 'r1', A, { mode: 'full', pr: 3 }),
      e(1, 'review.dispatched', 'r1', A, { worktree: '/w' }),
      e(5, 'review.verdict', 'r1', A, { verdict: 'APPROVED' }),
    ];
    const r = runsOf(j).get('r1')!;
    assert.deepEqual(
      { ...r },
      {
        runId: 'r1',
        mode: 'full',
        sha: A,
        pr: 3,
        phase: 'verdict',
        verdict: 'APPROVED',
        worktree: '/w',
        bornAt: Date.parse(t(0)),
      },
    );
    assert.equal(nextRunId(j), 'r2');
    assert.equal(nextRunId([]), 'r1');
  });

  it('a re-dispatch is a new run; aborted runs end', () => {
    const j = [
      e(0, 'review.requested', 'r1', A, { mode: 'quick', pr: 1 }),
      e(1, 'review.dispatched', 'r1', A),
      e(20, 'review.redispatched', 'r2', A, { mode: 'quick', pr: 1, replaces: 'r1' }),
      e(21, 'review.aborted', 'r2', A),
    ];
    assert.equal(latestRun(j)!.runId, 'r2');
    assert.equal(latestRun(j)!.phase, 'aborted');
    assert.equal(latestRun(j)!.mode, 'quick');
    assert.equal(nextRunId(j), 'r3');
  });

  it("records which sha each of the service's formal reviews on a PR was for (markers carry their own)", () => {
    const j = [
      e(5, 'review.verdict', 'r1', A, { verdict: 'APPROVED', via: 'review', id: 11, pr: 3 }),
      e(9, 'review.verdict', 'r2', B, { verdict: 'FAILED', via: 'comment', id: 12, pr: 3 }),
      e(12, 'review.verdict', 'r3', B, { verdict: 'APPROVED', via: 'marker', id: 13, pr: 3 }),
      e(14, 'review.verdict', 'r1', A, { verdict: 'APPROVED', via: 'review', id: 14, pr: 4 }),
    ];
    assert.deepEqual(
      [...reviewedShas(j, 3)],
      [
        [11, A],
        [12, B],
      ],
    );
  });
});

describe('pr.reviewState', () => {
  it('none, requested, in_review before any verdict', () => {
    assert.equal(reviewState([], A), 'none');
    assert.equal(reviewState([e(0, 'review.requested', 'r1', A, { mode: 'full' })], A), 'requested');
    assert.equal(
      reviewState([e(0, 'review.requested', 'r1', A, { mode: 'full' }), e(1, 'review.dispatched', 'r1', A)], A),
      'in_review',
    );
    assert.equal(reviewState([e(0, 'review.requested', 'r1', A, { mode: 'none' })], A), 'none');
    assert.equal(
      reviewState([e(0, 'review.requested', 'r1', A, { mode: 'full' }), e(1, 'review.aborted', 'r1', A)], A),
      'none',
    );
  });

  it('the newest verdict decides while it is for the head; otherwise stale', () => {
    const approved = [
      e(0, 'review.requested', 'r1', A, { mode: 'full' }),
      e(1, 'review.dispatched', 'r1', A),
      e(2, 'review.verdict', 'r1', A, { verdict: 'APPROVED' }),
    ];
    assert.equal(reviewState(approved, A), 'approved');
    assert.equal(reviewState(approved, B), 'stale');
    assert.equal(
      reviewState(
        [...approved, e(3, 'review.requested', 'r2', B, { mode: 'full' }), e(4, 'review.dispatched', 'r2', B)],
        B,
      ),
      'stale',
    );
    assert.equal(
      reviewState(
        [
          ...approved,
          e(3, 'review.requested', 'r2', B),
          e(5, 'review.verdict', 'r2', B, { verdict: 'CHANGES_REQUESTED' }),
        ],
        B,
      ),
      'changes_requested',
    );
    assert.equal(reviewState([e(5, 'review.verdict', 'r1', A, { verdict: 'FAILED' })], A), 'failed');
    assert.equal(reviewState(approved, null), 'stale');
  });
});

describe('stall rule due time', () => {
  it('15 minutes after the last requested/dispatched/redispatched entry', () => {
    assert.equal(
      stallDue([e(0, 'review.requested', 'r1', A, { mode: 'full' }), e(2, 'review.dispatched', 'r1', A)]),
      Date.parse(t(2)) + STALL_MS,
    );
    assert.equal(stallDue([e(0, 'review.requested', 'r1', A, { mode: 'full' })]), Date.parse(t(0)) + STALL_MS);
  });

  it('never after a verdict or an abort, nor in mode none', () => {
    assert.equal(stallDue([]), undefined);
    assert.equal(
      stallDue([e(0, 'review.requested', 'r1', A), e(2, 'review.verdict', 'r1', A, { verdict: 'APPROVED' })]),
      undefined,
    );
    assert.equal(stallDue([e(0, 'review.requested', 'r1', A), e(2, 'review.aborted', 'r1', A)]), undefined);
    assert.equal(stallDue([e(0, 'review.requested', 'r1', A, { mode: 'none' })]), undefined);
  });

  it('at most once per hour after a re-dispatch', () => {
    const j = [
      e(0, 'review.requested', 'r1', A, { mode: 'full' }),
      e(1, 'review.dispatched', 'r1', A),
      e(16, 'review.redispatched', 'r2', A, { mode: 'full' }),
    ];
    assert.equal(stallDue(j), Date.parse(t(16)) + REDISPATCH_EVERY_MS);
  });
});
