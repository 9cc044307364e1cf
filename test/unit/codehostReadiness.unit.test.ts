import * as assert from 'node:assert/strict';
import { parseVerdictMarker, verdictMarker } from '../../server/codehost/marker';
import { checksState, readiness } from '../../server/codehost/readiness';
import type { ReadinessInput } from '../../server/codehost/readiness';
import type { Check, Comment, Review } from '../../shared/protocol/pr';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const pr: ReadinessInput['pr'] = {
  state: 'open',
  draft: false,
  author: 'svc',
  head: B,
  branch: 'issue/web-7',
  base: 'main',
  mergeable: true,
  mergeableState: 'clean',
};
let seq = 0;
const at = () => `2025-01-01T00:00:${String(seq++).padStart(2, '0')}Z`;
const review = (
  author: string,
  state: Review['state'],
  commitId: string,
  association = 'COLLABORATOR',
  writeAccess = true,
): Review => ({
  id: ++seq,
  author,
  state,
  body: '',
  commitId,
  submittedAt: at(),
  association,
  writeAccess,
});
const comment = (author: string, body: string, edited = false): Comment => {
  const createdAt = at();
  return { id: ++seq, author, body, createdAt, updatedAt: edited ? at() : createdAt };
};
const check = (name: string, state: string): Check => ({ name, source: 'status', state });
const input = (o: Partial<ReadinessInput>): ReadinessInput => ({
  pr,
  identity: 'svc',
  reviews: [],
  comments: [],
  checks: [],
  ...o,
});

describe('codehost readiness (live, pure)', () => {
  it('an approval by another reviewer at the head with no checks is ready', () => {
    const r = readiness(input({ reviews: [review('bob', 'APPROVED', B)] }));
    assert.equal(r.ready, true);
    assert.deepEqual(r.reasons, []);
    assert.equal(r.checks, 'none');
    assert.equal(r.stale, false);
    assert.deepEqual(
      r.approvals.map((v) => [v.by, v.via, v.sha]),
      [['bob', 'review', B]],
    );
  });

  it('an approval for an older commit does not count, and the verdict is stale', () => {
    const r = readiness(input({ reviews: [review('bob', 'APPROVED', A)] }));
    assert.equal(r.ready, false);
    assert.deepEqual(r.reasons, [
      'no approval for the head bbbbbbb',
      'approval by bob is for aaaaaaa, not the head bbbbbbb',
    ]);
    assert.equal(r.stale, true);
    assert.equal(r.latestVerdict?.sha, A);
  });

  it("the service's own review is for the sha it recorded, not the commit_id the host moved forward", () => {
    // GitHub has been seen moving an approval's commit_id to a later head (docs/codehost.md).
    const own = review('svc-bot', 'APPROVED', B);
    const moved = readiness(input({ identity: 'svc-bot', reviews: [own], reviewed: new Map([[own.id, A]]) }));
    assert.equal(moved.ready, false);
    assert.deepEqual(moved.reasons, [
      'no approval for the head bbbbbbb',
      'approval by svc-bot is for aaaaaaa, not the head bbbbbbb',
    ]);
    assert.equal(moved.stale, true);
    assert.deepEqual(moved.notes, [
      `review #${own.id} by svc-bot is for aaaaaaa, the commit the service reviewed; the host reports bbbbbbb`,
    ]);
    // recorded at the head: ready, no note; a review by someone else keeps the host's commit_id
    assert.equal(
      readiness(input({ identity: 'svc-bot', reviews: [own], reviewed: new Map([[own.id, B]]) })).ready,
      true,
    );
    const bob = review('bob', 'APPROVED', B);
    assert.equal(
      readiness(input({ identity: 'svc-bot', reviews: [bob], reviewed: new Map([[bob.id, A]]) })).ready,
      true,
    );
  });

  it("the PR author's approval never counts", () => {
    const r = readiness(input({ reviews: [review('svc', 'APPROVED', B)] }));
    assert.equal(r.ready, false);
    assert.deepEqual(r.reasons, ['no approval for the head bbbbbbb']);
    assert.match(r.notes[0], /^review #\d+ by svc ignored: the PR's author$/);
  });

  it("each reviewer's latest APPROVED / CHANGES_REQUESTED / DISMISSED decides; COMMENTED does not", () => {
    assert.equal(
      readiness(input({ reviews: [review('bob', 'APPROVED', B), review('bob', 'CHANGES_REQUESTED', B)] })).ready,
      false,
    );
    assert.equal(
      readiness(input({ reviews: [review('bob', 'CHANGES_REQUESTED', A), review('bob', 'APPROVED', B)] })).ready,
      true,
    );
    assert.equal(
      readiness(input({ reviews: [review('bob', 'APPROVED', B), review('bob', 'COMMENTED', B)] })).ready,
      true,
    );
    const dismissed = readiness(input({ reviews: [review('bob', 'APPROVED', B), review('bob', 'DISMISSED', B)] }));
    assert.deepEqual(dismissed.reasons, ['no approval for the head bbbbbbb']);
  });

  it('changes requested by one reviewer at an older commit still blocks another approval', () => {
    const r = readiness(input({ reviews: [review('carol', 'CHANGES_REQUESTED', A), review('bob', 'APPROVED', B)] }));
    assert.equal(r.ready, false);
    assert.deepEqual(r.reasons, ['changes requested by carol at aaaaaaa']);
    assert.deepEqual(
      r.blocking.map((v) => v.by),
      ['carol'],
    );
  });

  it("the service's marker comment at the head counts as its approval", () => {
    const r = readiness(input({ comments: [comment('svc', `${verdictMarker('APPROVED', B)}\n\n## Summary\nfine`)] }));
    assert.equal(r.ready, true);
    assert.deepEqual(
      r.approvals.map((v) => [v.by, v.via, v.state]),
      [['svc', 'marker', 'APPROVED']],
    );
  });

  it('a marker pasted by anyone else is ignored', () => {
    const r = readiness(input({ comments: [comment('mallory', verdictMarker('APPROVED', B))] }));
    assert.equal(r.ready, false);
    assert.deepEqual(r.reasons, ['no approval for the head bbbbbbb']);
    assert.match(r.notes[0], /^marker comment #\d+ by mallory ignored: not written by the service identity svc$/);
  });

  it("a marker for an older commit does not count, and the service's latest marker decides", () => {
    const old = readiness(input({ comments: [comment('svc', verdictMarker('APPROVED', A))] }));
    assert.deepEqual(old.reasons, [
      'no approval for the head bbbbbbb',
      'approval by svc (marker comment) is for aaaaaaa, not the head bbbbbbb',
    ]);
    assert.equal(old.stale, true);
    const flipped = readiness(
      input({
        comments: [comment('svc', verdictMarker('APPROVED', B)), comment('svc', verdictMarker('CHANGES_REQUESTED', B))],
      }),
    );
    assert.deepEqual(flipped.reasons, [
      'changes requested by svc (marker comment) at bbbbbbb',
      'no approval for the head bbbbbbb',
    ]);
  });

  it('a marker counts only at the very beginning of the comment', () => {
    const r = readiness(input({ comments: [comment('svc', `quote: ${verdictMarker('APPROVED', B)}`)] }));
    assert.equal(r.ready, false);
    assert.equal(parseVerdictMarker(` ${verdictMarker('APPROVED', B)}`), undefined);
    assert.equal(parseVerdictMarker(`<!-- svc-verdict: APPROVED sha=${B.toUpperCase()} -->`), undefined);
    assert.equal(parseVerdictMarker('<!-- svc-verdict: FAILED sha=' + B + ' -->'), undefined);
    assert.deepEqual(parseVerdictMarker(verdictMarker('CHANGES_REQUESTED', 'c'.repeat(64))), {
      verdict: 'CHANGES_REQUESTED',
      sha: 'c'.repeat(64),
    });
    assert.equal(verdictMarker('APPROVED', B), `<!-- svc-verdict: APPROVED sha=${B} -->`);
  });

  it('checks must be green: success, neutral and skipped pass; pending and failures block', () => {
    const ok = [review('bob', 'APPROVED', B)];
    assert.equal(
      readiness(
        input({ reviews: ok, checks: [check('ci', 'success'), check('lint', 'neutral'), check('e2e', 'skipped')] }),
      ).ready,
      true,
    );
    const pending = readiness(input({ reviews: ok, checks: [check('ci', 'success'), check('e2e', 'in_progress')] }));
    assert.deepEqual(
      [pending.ready, pending.checks, pending.reasons],
      [false, 'pending', ["check 'e2e' is in_progress"]],
    );
    const failing = readiness(input({ reviews: ok, checks: [check('ci', 'failure'), check('e2e', 'pending')] }));
    assert.deepEqual(
      [failing.checks, failing.reasons],
      ['failing', ["check 'ci' is failure", "check 'e2e' is pending"]],
    );
    assert.equal(checksState([check('x', 'error')]), 'failing');
    assert.equal(checksState([check('x', 'timed_out')]), 'failing');
    assert.equal(checksState([]), 'none');
  });

  it('a closed, merged or draft PR, or one whose branch is gone, is not ready', () => {
    const ok = [review('bob', 'APPROVED', B)];
    assert.deepEqual(readiness(input({ pr: { ...pr, state: 'closed' }, reviews: ok })).reasons, ['PR is closed']);
    assert.deepEqual(readiness(input({ pr: { ...pr, state: 'merged' }, reviews: ok })).reasons, ['PR is merged']);
    assert.deepEqual(readiness(input({ pr: { ...pr, draft: true }, reviews: ok })).reasons, ['PR is a draft']);
    assert.deepEqual(readiness(input({ pr: { ...pr, head: null }, reviews: ok })).reasons, [
      "head branch 'issue/web-7' is gone from the remote",
    ]);
  });

  it('latestVerdict is the newest of reviews and service markers', () => {
    const r = readiness(
      input({
        reviews: [review('bob', 'APPROVED', A)],
        comments: [comment('svc', verdictMarker('CHANGES_REQUESTED', B))],
      }),
    );
    assert.deepEqual(
      [r.latestVerdict?.by, r.latestVerdict?.via, r.latestVerdict?.state, r.stale],
      ['svc', 'marker', 'CHANGES_REQUESTED', false],
    );
  });

  it('approvals and change requests count only from people who can push; the note says why one did not', () => {
    const r = readiness(
      input({
        reviews: [
          review('mallory', 'APPROVED', B, 'NONE', false),
          review('eve', 'CHANGES_REQUESTED', B, 'CONTRIBUTOR', false),
        ],
      }),
    );
    assert.deepEqual(
      [r.ready, r.reasons, r.approvals, r.blocking],
      [false, ['no approval for the head bbbbbbb'], [], []],
    );
    assert.match(
      r.notes[0],
      /^approval #\d+ by mallory not counted: mallory cannot push to the repository \(author_association NONE\)$/,
    );
    assert.match(
      r.notes[1],
      /^change request #\d+ by eve not counted: eve cannot push to the repository \(author_association CONTRIBUTOR\)$/,
    );
    const ok = readiness(
      input({
        reviews: [review('mallory', 'APPROVED', B, 'NONE', false), review('bob', 'APPROVED', B, 'CONTRIBUTOR', true)],
      }),
    );
    assert.deepEqual([ok.ready, ok.approvals.map((v) => v.by)], [true, ['bob']]);
  });

  it('an edited marker comment does not count, and an older marker does not take its place', () => {
    const approve = comment('svc', verdictMarker('APPROVED', B));
    const edited = comment('svc', verdictMarker('APPROVED', B), true);
    const r = readiness(input({ comments: [approve, edited] }));
    assert.deepEqual([r.ready, r.approvals, r.reasons], [false, [], ['no approval for the head bbbbbbb']]);
    assert.deepEqual(r.notes, [
      `marker comment #${edited.id} ignored: edited at ${edited.updatedAt} after it was written at ${edited.createdAt}`,
    ]);
    assert.equal(readiness(input({ comments: [approve] })).ready, true);
  });

  it('a draft, a conflict, branch protection, a head behind the base or mergeability not yet known is not ready, with the reason', () => {
    const approved = { reviews: [review('bob', 'APPROVED', B)] };
    const reasons = (p: Partial<ReadinessInput['pr']>) =>
      readiness(input({ ...approved, pr: { ...pr, ...p } })).reasons;
    assert.deepEqual(reasons({ draft: true, mergeableState: 'draft' }), ['PR is a draft']);
    assert.deepEqual(reasons({ mergeable: false, mergeableState: 'dirty' }), [
      "the head conflicts with the base 'main' (mergeable_state dirty); merge the base into the branch or rebase it",
    ]);
    assert.deepEqual(reasons({ mergeableState: 'blocked' }), [
      'branch protection blocks the merge (mergeable_state blocked): a required review, check or signature is missing',
    ]);
    assert.deepEqual(reasons({ mergeableState: 'behind' }), [
      "the head is behind the base 'main' and branch protection requires it up to date (mergeable_state behind)",
    ]);
    assert.deepEqual(reasons({ mergeable: null, mergeableState: 'unknown' }), [
      'GitHub has not yet computed whether the PR merges cleanly (mergeable_state unknown); ask again shortly',
    ]);
    for (const ok of ['clean', 'has_hooks', 'unstable', null])
      assert.deepEqual(reasons({ mergeableState: ok, mergeable: ok === null ? null : true }), []);
  });
});
