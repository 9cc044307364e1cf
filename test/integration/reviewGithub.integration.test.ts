// The pipeline on the GitHub adapter (a local fake of the REST API over the real bare
// remote): svc done opens the PR there, the own-PR 422 sends the verdict to a marker
// comment, and a signed `pull_request synchronize` webhook starts the next review; a
// replayed delivery or a bad signature starts nothing. With a reviewer identity of its own
// each verdict is one formal review pinned to the reviewed commit, and readiness keeps that
// commit even when GitHub moves the review's commit_id; a PR opened by hand is reviewed
// on its `opened` webhook.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { GithubFake } from '../helpers/githubFake';
import { git, sleep } from '../helpers/scratch';
import { githubReviewWorld } from './githubReviewWorld';
import type { GithubReviewWorld } from './githubReviewWorld';
import type { World } from './reviewWorld';

describe('review pipeline on GitHub (fake)', function () {
  this.timeout(180_000);
  let g: GithubReviewWorld;
  let w: World;
  let fake: GithubFake;

  before(async () => {
    g = await githubReviewWorld('review-github');
    ({ w, fake } = g);
  });
  after(async () => g.dispose());

  const hook = (delivery: string, payload: object, signature?: string) => g.hook(delivery, payload, signature);

  it('svc done opens the PR on GitHub; the own-PR refusal becomes the marker comment; synchronize starts the next review', async () => {
    const i = await w.issue('GitHub feature');
    await w.startWork(i.id);
    const v1 = await w.waitKind(i.id, 'review.verdict');
    assert.equal(v1.via, 'marker');
    const pr = await w.pr(1);
    assert.equal(pr.codeHost, 'github');
    assert.ok(
      pr.comments[0].body.startsWith(`<!-- svc-verdict: APPROVED sha=${pr.pr.head} -->\n\n# Verdict: APPROVED\n`),
    );
    assert.ok(
      fake.requests.some((r) => r.method === 'POST' && r.path === '/repos/acme/web/pulls/1/reviews'),
      'the formal review was tried first',
    );

    // the work moves on; GitHub tells the daemon by webhook
    const before = pr.pr.head!;
    fs.appendFileSync(path.join(i.workspace, 'feature.txt'), 'more\n');
    git(i.workspace, w.s.env, 'commit', '-qam', 'more');
    git(i.workspace, w.s.env, 'push', '-q', 'origin', 'HEAD');
    const after = git(i.workspace, w.s.env, 'rev-parse', 'HEAD');
    const payload = {
      action: 'synchronize',
      before,
      after,
      repository: { full_name: 'acme/web' },
      pull_request: { number: 1, head: { sha: after, ref: 'issue/web-1' } },
    };

    const bad = await hook('d-bad', payload, 'sha256=' + '0'.repeat(64));
    assert.equal(bad.status, 401);
    await sleep(500);
    assert.deepEqual(w.kinds(i.id), ['review.requested', 'review.dispatched', 'review.verdict']);

    const ok = await hook('d-1', payload);
    assert.equal(ok.status, 200);
    assert.equal(ok.body.outcome, 'headChange');
    const req = await w.waitKind(i.id, 'review.requested', 2);
    assert.equal(req.source, 'head-change');
    assert.equal(req.trigger, 'webhook synchronize');
    assert.equal(req.sha, after);
    await w.waitKind(i.id, 'review.verdict', 2);

    const replay = await hook('d-1', payload);
    assert.equal(replay.status, 200);
    assert.equal(replay.body.duplicate, true);
    // an `opened` for a head already reviewed starts nothing either
    const opened = await hook('d-2', { ...payload, action: 'opened' });
    assert.equal(opened.body.outcome, 'headChange');
    await sleep(700);
    assert.deepEqual(w.kinds(i.id), [
      'review.requested',
      'review.dispatched',
      'review.verdict',
      'review.requested',
      'review.dispatched',
      'review.verdict',
    ]);
    const st = await w.show(i.id);
    assert.equal(st.pr!.reviewState, 'approved');
    assert.equal(st.pr!.head, after);
  });
  it('a push whose webhook never comes is reviewed all the same: the poll of the open PRs catches it up', async () => {
    g.onGithub({ pollS: 10 });
    const i = (await w.show('WEB-1')).issue;
    const reviews = w.kinds(i.id).filter((k) => k === 'review.requested').length;
    fs.appendFileSync(path.join(i.workspace, 'feature.txt'), 'pushed, its webhook lost\n');
    git(i.workspace, w.s.env, 'commit', '-qam', 'no webhook for this one');
    git(i.workspace, w.s.env, 'push', '-q', 'origin', 'HEAD');
    const after = git(i.workspace, w.s.env, 'rev-parse', 'HEAD');
    const req = await w.waitKind(i.id, 'review.requested', reviews + 1, 40_000);
    assert.equal(req.source, 'head-change');
    assert.equal(req.trigger, 'poll');
    assert.equal(req.sha, after);
    await w.waitKind(i.id, 'review.verdict', reviews + 1, 60_000);
    // an unchanged list is read conditionally: GitHub answers 304
    await sleep(11_000);
    assert.ok(
      fake.requests.some((q) => q.method === 'GET' && q.path === '/repos/acme/web/pulls' && q.status === 304),
      'a conditional read answered 304',
    );
  });

  it('with a reviewer identity of its own, each verdict is one formal review pinned to the head: APPROVE, REQUEST_CHANGES, and COMMENT for FAILED', async () => {
    g.onGithub({ reviewerBot: true });
    for (const [verdict, event, state] of [
      ['APPROVED', 'APPROVE', 'APPROVED'],
      ['CHANGES_REQUESTED', 'REQUEST_CHANGES', 'CHANGES_REQUESTED'],
      ['FAILED', 'COMMENT', 'COMMENTED'],
    ]) {
      const i = await w.issue(`Reviewed by the bot: ${verdict}`, { quick: verdict });
      const posts = fake.requests.filter((q) => q.method === 'POST' && /\/pulls\/\d+\/reviews$/.test(q.path)).length;
      await w.startWork(i.id);
      const v = await w.waitKind(i.id, 'review.verdict');
      assert.equal(v.verdict, verdict);
      assert.equal(v.via, verdict === 'FAILED' ? 'comment' : 'review');
      const pr = await w.pr(v.pr as number);
      assert.deepEqual(
        pr.reviews.map((r) => [r.state, r.author, r.commitId]),
        [[state, 'svc-bot', v.sha]],
        event,
      );
      assert.equal(
        v.sha,
        w.journal(i.id)[0].sha,
        'the head the review was requested at (a change request is then fixed and pushed)',
      );
      assert.match(pr.reviews[0].body, new RegExp(`^# Verdict: ${verdict}\n\n## Summary\n`));
      assert.equal(pr.comments.length, 0, 'no marker comment');
      // exactly one review was posted: no retry, no pending review left behind
      const mine = fake.requests
        .filter((q) => q.method === 'POST' && /\/pulls\/\d+\/reviews$/.test(q.path))
        .slice(posts);
      assert.deepEqual(
        mine.map((q) => [q.path, q.login, q.status ?? 200]),
        [[`/repos/acme/web/pulls/${v.pr as number}/reviews`, 'svc-bot', 200]],
      );
      // (the work agent answers a change request with a push, which leaves that verdict stale)
      const st = await w.show(i.id);
      const fresh = verdict === 'APPROVED' ? 'approved' : verdict === 'FAILED' ? 'failed' : 'changes_requested';
      assert.equal(st.pr!.reviewState, st.pr!.head === v.sha ? fresh : 'stale');
    }
  });

  it('a PR a person opened on GitHub for an issue branch: its `opened` webhook is the review request (source head-change, trigger webhook opened)', async () => {
    g.onGithub({ reviewerBot: true });
    const i = await w.issue('Opened by hand', { quick: 'APPROVED' });
    fs.writeFileSync(path.join(i.workspace, 'feature.txt'), 'by hand\n');
    git(i.workspace, w.s.env, 'add', 'feature.txt');
    git(i.workspace, w.s.env, 'commit', '-qm', 'by hand');
    git(i.workspace, w.s.env, 'push', '-q', 'origin', `HEAD:refs/heads/${i.branch}`);
    const head = git(i.workspace, w.s.env, 'rev-parse', 'HEAD');
    const res = await fetch(`${fake.url}/repos/acme/web/pulls`, {
      method: 'POST',
      headers: { authorization: 'token token-svc', 'content-type': 'application/json' },
      body: JSON.stringify({ head: i.branch, base: 'main', title: 'by hand' }),
    });
    assert.equal(res.status, 201);
    const number = ((await res.json()) as { number: number }).number;
    assert.deepEqual(w.kinds(i.id), [], 'no review before the webhook');
    const ok = await hook(`d-open-${number}`, {
      action: 'opened',
      repository: { full_name: 'acme/web' },
      pull_request: { number, head: { sha: head, ref: i.branch } },
    });
    assert.equal(ok.status, 200);
    const req = await w.waitKind(i.id, 'review.requested');
    assert.equal(req.source, 'head-change');
    assert.equal(req.trigger, 'webhook opened');
    assert.equal(req.sha, head);
    assert.equal(req.pr, number);
    const v = await w.waitKind(i.id, 'review.verdict');
    assert.equal(v.verdict, 'APPROVED');
    assert.deepEqual(w.kinds(i.id), ['review.requested', 'review.dispatched', 'review.verdict']);
  });

  it("an approval whose commit_id GitHub moved to a later head is still the reviewed commit's: not ready, stale", async () => {
    g.onGithub({ reviewerBot: true });
    const i = await w.issue('Moved approval', { quick: 'APPROVED' });
    await w.startWork(i.id);
    const v = await w.waitKind(i.id, 'review.verdict');
    assert.equal(v.via, 'review');
    const n = v.pr as number;
    assert.equal((await w.pr(n)).readiness.ready, true);
    // a push with no webhook (polling is off), then GitHub moves the approval's commit_id onto it
    fs.appendFileSync(path.join(i.workspace, 'feature.txt'), 'base merged in\n');
    git(i.workspace, w.s.env, 'commit', '-qam', 'merge main');
    git(i.workspace, w.s.env, 'push', '-q', 'origin', 'HEAD');
    const head = git(i.workspace, w.s.env, 'rev-parse', 'HEAD');
    fake.moveReview(v.id as number, head);
    const pr = await w.pr(n);
    assert.equal(pr.pr.head, head);
    assert.equal(pr.reviews[0].commitId, head, "GitHub's answer");
    assert.equal(pr.readiness.ready, false);
    assert.ok(
      pr.readiness.reasons.includes(
        `approval by svc-bot is for ${(v.sha as string).slice(0, 7)}, not the head ${head.slice(0, 7)}`,
      ),
      pr.readiness.reasons.join('\n'),
    );
    const st = await w.show(i.id);
    assert.equal(st.pr!.reviewState, 'stale');
    assert.equal(st.pr!.ready, false);
    const merge = await w.fail(['pr', 'merge', String(n), '--project', 'web']);
    assert.match(merge.stderr, new RegExp(`^PR web#${n} is not ready to merge:\n`));
  });
});
