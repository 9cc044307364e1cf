// A push while a review runs (docs/review-findings.md), on the local host with the script
// quick reviewer: the running review goes on through the quiet window; at the quiet point
// one review of the newest head supersedes it (its reviewer retired, its post refused with
// the superseded refusal) and the journal's request lists the heads it coalesced and the
// run it superseded.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ConversationInfo } from '../../shared/protocol/conversations';
import { eventually, git, sleep } from '../helpers/scratch';
import { reviewWorld } from './reviewWorld';
import type { World } from './reviewWorld';

/** roles.review.debounce here: long enough to look at the running review inside the window under load. */
const QUIET_S = 6;

describe('review: a push during a running review', function () {
  this.timeout(180_000);
  let w: World;

  before(async () => {
    w = await reviewWorld('review-push-during-review', { mode: 'quick', debounce: QUIET_S });
  });
  after(async () => w.s.dispose());

  /** Commits a line of push.txt in the workspace and pushes it; the new head. */
  const pushLine = (workspace: string, k: number) => {
    fs.appendFileSync(path.join(workspace, 'push.txt'), `push ${k}\n`);
    git(workspace, w.s.env, 'add', 'push.txt');
    git(workspace, w.s.env, 'commit', '-qm', `push ${k}`);
    git(workspace, w.s.env, 'push', '-q', 'origin', 'HEAD');
    return git(workspace, w.s.env, 'rev-parse', 'HEAD');
  };

  it('supersedes the running review at the next quiet point with one review of the newest head', async () => {
    // r2's quick reviewer never finishes: it is the review running when the next pushes come.
    const i = await w.issue('Pushed while reviewed', { 'quick.r2': 'HANG' });
    await w.startWork(i.id); // svc done requests r1 at once (never debounced)
    const v1 = await w.waitKind(i.id, 'review.verdict');
    assert.equal(v1.runId, 'r1');

    const h2 = pushLine(i.workspace, 2);
    const r2 = await w.waitKind(i.id, 'review.requested', 2, 60_000);
    assert.deepEqual([r2.runId, r2.sha, r2.source], ['r2', h2, 'head-change']);
    assert.equal(r2.supersedes, undefined, 'r1 had posted: nothing under way to supersede');
    await w.waitKind(i.id, 'review.dispatched', 2, 60_000);
    const r2Reviewer = async () => (await w.show(i.id)).reviewers.find((r) => r.runId === 'r2');
    await eventually(async () => (await r2Reviewer())?.alive === true, 30_000, "r2's reviewer alive");

    // Two pushes while r2 runs (a second apart, so the host sees each one).
    const h3 = pushLine(i.workspace, 3);
    await sleep(1000);
    const h4 = pushLine(i.workspace, 4);
    const lastPushAt = Date.now();
    await sleep(1000);
    // Inside the quiet window the running review goes on.
    const during = await r2Reviewer();
    const looked = Date.now() - lastPushAt;
    assert.ok(looked < QUIET_S * 1000, `looked ${looked} ms after the last push, past the quiet window`);
    assert.deepEqual([during?.name, during?.alive], [`agent-${i.id.toLowerCase()}-review`, true]);
    assert.equal(w.kinds(i.id).filter((k) => k === 'review.requested').length, 2);

    // At the quiet point: one review of the newest head, superseding r2.
    const r3 = await w.waitKind(i.id, 'review.requested', 3, 60_000);
    assert.deepEqual(
      [r3.runId, r3.sha, r3.source, r3.trigger, r3.coalesced, r3.supersedes],
      ['r3', h4, 'head-change', 'push', [h3, h4], 'r2'],
    );
    const v3 = await w.waitKind(i.id, 'review.verdict', 2, 60_000);
    assert.deepEqual([v3.runId, v3.sha, v3.verdict], ['r3', h4, 'APPROVED']);

    // r2's reviewer was retired (stopped, its name given up, archived); its post is refused.
    assert.equal(await r2Reviewer(), undefined, 'the issue lists no reviewer of r2 any more');
    const retired = JSON.parse(
      await w.ok(['conv', 'show', `agent-${i.id.toLowerCase()}-review.r2`, '--json']),
    ) as ConversationInfo;
    assert.deepEqual(
      [retired.id, retired.alive, retired.activity, retired.archived],
      [during?.id, false, 'stopped', true],
    );
    const refused = await w.fail(['review', 'post', i.id, '--run', 'r2']);
    assert.equal(refused.code, 1);
    assert.equal(
      refused.stderr,
      `review r2 of ${i.id} (at ${h2.slice(0, 7)}) was superseded by r3 (at ${h4.slice(0, 7)}); nothing posted\n`,
    );

    // A quiet window more: nothing else starts; exactly one review after r2, and it posted.
    await sleep(QUIET_S * 1000 + 1000);
    assert.deepEqual(
      w.journal(i.id).map((e) => [e.kind, e.runId]),
      [
        ['review.requested', 'r1'],
        ['review.dispatched', 'r1'],
        ['review.verdict', 'r1'],
        ['review.requested', 'r2'],
        ['review.dispatched', 'r2'],
        ['review.requested', 'r3'],
        ['review.dispatched', 'r3'],
        ['review.verdict', 'r3'],
      ],
    );
    const pr = await w.pr(v1.pr as number);
    assert.deepEqual(
      pr.reviews.map((r) => r.commitId),
      [v1.sha, h4],
    );
  });
});
