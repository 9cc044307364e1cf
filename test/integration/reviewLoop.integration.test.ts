// The review loop's harder paths (script harness, local host, real git): changes
// requested → the work agent is told → its push starts a new full review with no report
// reused; the parent dying after the four reports (rule 3); `review restart --role`;
// `review abort`; the agents' output route.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { eventually, git } from '../helpers/scratch';
import { reviewWorld } from './reviewWorld';
import type { World } from './reviewWorld';

const LANES = ['security', 'correctness', 'performance', 'requirements'];

describe('review pipeline: the loop', function () {
  this.timeout(240_000);
  let w: World;

  before(async () => {
    w = await reviewWorld('review-loop', { mode: 'full' });
  });
  after(async () => w.s.dispose());

  const ids = async (issue: string) => Object.fromEntries((await w.show(issue)).reviewers.map((r) => [r.role, r.id]));

  it('CHANGES_REQUESTED → the work agent gets the review and a tell → its push starts a new full review at the new head', async () => {
    const i = await w.issue('Loop feature', { 'correctness.r1': 'CHANGES_REQUESTED' });
    await w.startWork(i.id);
    const first = await w.waitKind(i.id, 'review.verdict');
    assert.equal(first.verdict, 'CHANGES_REQUESTED');
    const sha1 = first.sha as string;
    // the review is on the PR …
    const pr1 = await w.pr(1);
    assert.equal(pr1.reviews[0].state, 'CHANGES_REQUESTED');
    assert.equal(pr1.reviews[0].commitId, sha1);
    assert.match(
      pr1.reviews[0].body,
      /^# Verdict: CHANGES_REQUESTED\n[\s\S]*## Blockers\n1\. correctness: fix feature\.txt line 1\n/,
    );
    // … and the work agent was told; it fixed, committed and pushed
    const log = await w.ok(['conv', 'log', 'agent-web-1', '--lines', '400']);
    assert.match(log, /Review r1 of WEB-1 at [0-9a-f]{7} requested changes\. It is on PR #1/);
    const second = await w.waitKind(i.id, 'review.verdict', 2, 60_000);
    assert.equal(second.verdict, 'APPROVED');
    const sha2 = second.sha as string;
    assert.notEqual(sha2, sha1);
    assert.equal(sha2, git(w.origin, w.s.env, 'rev-parse', 'refs/heads/issue/web-1'));
    assert.deepEqual(w.kinds(i.id), [
      'review.requested',
      'review.dispatched',
      'review.verdict',
      'review.requested',
      'review.dispatched',
      'review.verdict',
    ]);
    const entries = w.journal(i.id);
    assert.equal(entries[3].source, 'head-change');
    assert.equal(entries[3].runId, 'r2');
    assert.equal(entries[4].mode, 'full');
    // rule 1: every lane of r2 reviewed the new head; r1's reports stay with r1's commit
    for (const lane of LANES) {
      const r1 = fs.readFileSync(path.join(i.workspace, '.svc', 'review', 'r1', `${lane}.md`), 'utf8');
      const r2 = fs.readFileSync(path.join(i.workspace, '.svc', 'review', 'r2', `${lane}.md`), 'utf8');
      assert.match(r1, new RegExp(`${lane} reviewed ${sha1} in run r1`));
      assert.match(r2, new RegExp(`${lane} reviewed ${sha2} in run r2`));
    }
    // the r1 reviewers gave their names to r2
    const st = await w.show(i.id);
    assert.deepEqual(
      st.reviewers.map((r) => [r.name, r.runId]),
      [
        ['agent-web-1-review', 'r2'],
        ['agent-web-1-review-security', 'r2'],
        ['agent-web-1-review-correctness', 'r2'],
        ['agent-web-1-review-performance', 'r2'],
        ['agent-web-1-review-requirements', 'r2'],
      ],
    );
    assert.match(await w.ok(['conv', 'show', 'agent-web-1-review-correctness.r1', '--json']), /"archived": true/);
    assert.equal(st.pr!.reviewState, 'approved');
    assert.equal(st.pr!.ready, true);
    const pr = await w.pr(1);
    assert.deepEqual(
      pr.reviews.map((r) => [r.state, r.commitId]),
      [
        ['CHANGES_REQUESTED', sha1],
        ['APPROVED', sha2],
      ],
    );
  });

  it('the parent dies after the four reports: the daemon synthesizes and posts (rule 3)', async () => {
    const i = await w.issue('Orphaned review', { parent: 'DIE', performance: 'CHANGES_REQUESTED' });
    await w.startWork(i.id);
    const v = await w.waitKind(i.id, 'review.verdict');
    assert.equal(v.by, 'daemon');
    assert.equal(v.verdict, 'CHANGES_REQUESTED');
    assert.deepEqual(w.kinds(i.id), ['review.requested', 'review.dispatched', 'review.verdict']);
    const synthesis = fs.readFileSync(path.join(i.workspace, '.svc', 'review', 'r1', 'synthesis.md'), 'utf8');
    assert.match(
      synthesis,
      /^# Verdict: CHANGES_REQUESTED\n\n## Summary\n\nReview r1 of WEB-2 at [0-9a-f]{7}\. The review parent agent-web-2-review ended \(/,
    );
    assert.match(synthesis, /\n## Blockers\n\n### performance\n\n1\. performance: fix feature\.txt line 1\n/);
    assert.match(synthesis, /\n## Convoy Notes\n\n- security: APPROVED — /);
    const pr = await w.pr(2);
    assert.equal(pr.reviews.length, 1);
    assert.equal(pr.reviews[0].state, 'CHANGES_REQUESTED');
    assert.equal(pr.reviews[0].body, synthesis);
  });

  it('review restart --role security re-runs only that lane (and the parent)', async () => {
    const i = await w.issue('Restarted review', { security: 'DIE', parent: 'HANG' });
    await w.startWork(i.id);
    await w.waitKind(i.id, 'review.dispatched');
    await w.waitLanesSettled(i.id, 3);
    const before = await ids(i.id);
    w.ctl(i.id, 'security', 'APPROVED');
    w.ctl(i.id, 'parent', 'AUTO');
    const out = await w.ok(['review', 'restart', i.id, '--role', 'security', '--model', 'sec-model-2']);
    assert.equal(out, 'Restarted review r1 of WEB-3: parent, security\n');
    const v = await w.waitKind(i.id, 'review.verdict');
    assert.equal(v.verdict, 'APPROVED');
    assert.deepEqual(w.kinds(i.id), ['review.requested', 'review.dispatched', 'review.dispatched', 'review.verdict']);
    const restart = w.journal(i.id)[2];
    assert.equal(restart.restart, true);
    assert.deepEqual(restart.roles, ['parent', 'security']);
    const after = await ids(i.id);
    assert.notEqual(after.parent, before.parent);
    assert.notEqual(after.security, before.security);
    for (const lane of ['correctness', 'performance', 'requirements'])
      assert.equal(after[lane], before[lane], `${lane} must not re-run`);
    const sec = JSON.parse(await w.ok(['conv', 'show', 'agent-web-3-review-security', '--json'])) as { model: string };
    assert.equal(sec.model, 'sec-model-2');
  });

  it('review abort stops every reviewer; the work agent is left idle and not messaged', async () => {
    const i = await w.issue('Aborted review', Object.fromEntries([...LANES, 'parent'].map((l) => [l, 'HANG'])));
    await w.startWork(i.id);
    await w.waitKind(i.id, 'review.dispatched');
    await eventually(
      async () => (await w.show(i.id)).reviewers.filter((r) => r.alive).length === 5,
      30_000,
      'five reviewers alive',
    );
    const work = JSON.parse(await w.ok(['conv', 'show', 'agent-web-4', '--json'])) as { activity: string };
    await eventually(
      async () =>
        (JSON.parse(await w.ok(['conv', 'show', 'agent-web-4', '--json'])) as { activity: string }).activity === 'idle',
      20_000,
      'work agent idle',
    );
    const logBefore = await w.ok(['conv', 'log', 'agent-web-4', '--lines', '1000']);
    // the output route serves every reviewer and the parent
    const d = JSON.parse(fs.readFileSync(path.join(w.s.svcHome, 'server.json'), 'utf8')) as {
      httpPort: number;
      token: string;
    };
    for (const name of ['agent-web-4-review', 'agent-web-4-review-security']) {
      const res = await fetch(`http://127.0.0.1:${d.httpPort}/api/agents/${name}/output?lines=400`, {
        headers: { authorization: `Bearer ${d.token}` },
      });
      assert.equal(res.status, 200);
      const body = (await res.json()) as { name: string; lines: string[]; activity: string };
      assert.equal(body.name, name);
      assert.ok(
        body.lines.some((l) =>
          l.includes(name === 'agent-web-4-review' ? 'Review parent for WEB-4' : 'Security review of WEB-4'),
        ),
        body.lines.join('\n'),
      );
    }
    void work;
    const out = await w.ok(['review', 'abort', i.id]);
    assert.equal(
      out,
      'Aborted review r1 of WEB-4; stopped agent-web-4-review, agent-web-4-review-security, agent-web-4-review-correctness, agent-web-4-review-performance, agent-web-4-review-requirements\n',
    );
    const st = await w.show(i.id);
    assert.equal(st.reviewers.filter((r) => r.alive).length, 0);
    assert.deepEqual(w.kinds(i.id), ['review.requested', 'review.dispatched', 'review.aborted']);
    assert.equal(
      (JSON.parse(await w.ok(['conv', 'show', 'agent-web-4', '--json'])) as { activity: string }).activity,
      'idle',
    );
    assert.equal(await w.ok(['conv', 'log', 'agent-web-4', '--lines', '1000']), logBefore);
    const pr = await w.pr(4);
    assert.equal(pr.reviews.length + pr.comments.length, 0);
    assert.equal(await w.ok(['review', 'abort', i.id]), 'No reviewer of WEB-4 was running\n');
  });

  it('a push made straight to the bare origin (by no agent) starts the new review within a few seconds, not at the next rescan', async () => {
    const i = await w.issue('Direct push');
    await w.startWork(i.id);
    const first = await w.waitKind(i.id, 'review.verdict');
    const elsewhere = path.join(w.s.home, 'elsewhere-clone');
    git(w.s.home, w.s.env, 'clone', '-q', '--branch', i.branch, w.origin, elsewhere);
    fs.appendFileSync(path.join(elsewhere, 'feature.txt'), 'pushed from another clone\n');
    git(elsewhere, w.s.env, 'commit', '-qam', 'a direct push');
    const pushedAt = Date.now();
    git(elsewhere, w.s.env, 'push', '-q', 'origin', 'HEAD');
    const sha = git(elsewhere, w.s.env, 'rev-parse', 'HEAD');
    // The periodic rescan is a minute apart: only watching the remote's refs sees it this soon.
    const requested = await w.waitKind(i.id, 'review.requested', 2, 10_000);
    const seenMs = Date.now() - pushedAt;
    assert.ok(seenMs < 5000, `the direct push was seen after ${seenMs} ms`);
    assert.equal(requested.source, 'head-change');
    assert.equal(requested.sha, sha);
    assert.notEqual(first.sha, sha);

    // and so after a daemon restart: the new daemon watches the remotes of open PRs
    await w.waitKind(i.id, 'review.verdict', 2, 60_000);
    await w.ok(['daemon', 'stop', '--force']);
    await w.ok(['daemon', 'status']); // starts one
    fs.appendFileSync(path.join(elsewhere, 'feature.txt'), 'and again after a restart\n');
    git(elsewhere, w.s.env, 'commit', '-qam', 'a direct push after a restart');
    const againAt = Date.now();
    git(elsewhere, w.s.env, 'push', '-q', 'origin', 'HEAD');
    const again = await w.waitKind(i.id, 'review.requested', 3, 10_000);
    assert.ok(Date.now() - againAt < 5000, `after a restart the direct push was seen after ${Date.now() - againAt} ms`);
    assert.equal(again.sha, git(elsewhere, w.s.env, 'rev-parse', 'HEAD'));
  });
});
