// Review findings on GitHub (the fake over the real bare remote, checked against GitHub's
// OpenAPI description in githubFakeShapes): findings go as review comments on their lines
// with the one formal review, once; a thread a person resolves on GitHub is a dismissal
// that holds across pushes until the code at its line changes; `svc review dismiss`
// resolves the thread there; on the author's own PR the verdict stays a marker comment and
// the findings go on their lines in a COMMENT review.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findingId } from '../../server/review/findings';
import type { GithubFake } from '../helpers/githubFake';
import { git } from '../helpers/scratch';
import { githubReviewWorld } from './githubReviewWorld';
import type { GithubReviewWorld } from './githubReviewWorld';
import type { World } from './reviewWorld';

describe('review findings on GitHub (fake)', function () {
  this.timeout(240_000);
  let g: GithubReviewWorld;
  let w: World;
  let fake: GithubFake;

  before(async () => {
    g = await githubReviewWorld('review-findings-github');
    ({ w, fake } = g);
  });
  after(async () => g.dispose());

  /** Commits `files`, pushes, tells the daemon by webhook, waits for the review of the new head. */
  const push = async (
    i: { id: string; workspace: string; branch: string },
    n: number,
    files: Record<string, string>,
    verdicts: number,
  ) => {
    const before = git(i.workspace, w.s.env, 'rev-parse', 'HEAD');
    for (const [f, text] of Object.entries(files)) fs.writeFileSync(path.join(i.workspace, f), text);
    git(i.workspace, w.s.env, 'add', '-A');
    git(i.workspace, w.s.env, 'commit', '-qm', `change ${Object.keys(files).join(', ')}`);
    git(i.workspace, w.s.env, 'push', '-q', 'origin', 'HEAD');
    const after = git(i.workspace, w.s.env, 'rev-parse', 'HEAD');
    await g.synchronize(n, i.branch, before, after, `d-${after}`);
    const v = await w.waitKind(i.id, 'review.verdict', verdicts, 60_000);
    assert.equal(v.sha, after);
    return v;
  };

  /** The review comments on PR `n` as GitHub holds them: review, path, line, body's first line. */
  const onLines = (n: number) =>
    fake
      .reviewComments()
      .filter((c) => (c.pull_request_url as string).endsWith(`/pulls/${n}`))
      .map((c) => [
        c.pull_request_review_id,
        c.path,
        c.line,
        (c.body as string).split('\n')[0],
        c.user && (c.user as { login: string }).login,
      ]);

  it('posts findings as review comments once; a thread resolved on GitHub stays dismissed across two pushes until its code changes', async () => {
    g.onGithub({ reviewerBot: true });
    const i = await w.issue('GitHub findings', {
      'quick.findings':
        '### [should-fix] feature.txt:1 — the feature names no one\nSay whose.\n\n### [nit] nowhere.txt:1 — not a file\n',
    });
    await w.startWork(i.id);
    const v1 = await w.waitKind(i.id, 'review.verdict');
    assert.equal(v1.verdict, 'APPROVED');
    assert.equal(v1.via, 'review');
    const n = v1.pr as number;
    const a = findingId('feature.txt', [`feature of ${i.id}`], 'the feature names no one');
    assert.deepEqual(v1.findings, { new: 1, open: 0, fixed: 0, onLines: 1, dropped: 1, malformed: 0 });
    let pr = await w.pr(n);
    assert.deepEqual(onLines(n), [
      [pr.reviews[0].id, 'feature.txt', 1, '**[should-fix] the feature names no one**', 'svc-bot'],
    ]);
    assert.match(
      pr.reviews[0].body,
      /\n### Dropped findings\n\n- review: \[nit\] nowhere\.txt:1 — not a file: nowhere\.txt does not exist at the reviewed head\n/,
    );
    // What the REST call carried: the comment on the new side of the diff, at the reviewed commit.
    assert.deepEqual(
      pr.lineComments.map((c) => [c.path, c.line, c.startLine, c.resolved]),
      [['feature.txt', 1, null, false]],
    );

    // A person resolves the thread on GitHub: a dismissal, read back through GraphQL.
    fake.resolveThread(fake.reviewComments()[0].id as number);
    pr = await w.pr(n);
    assert.equal(pr.lineComments[0].resolved, true);
    for (const k of [2, 3]) {
      const v = await push(i, n, { [`other-${k}.txt`]: `push ${k}\n` }, k);
      assert.deepEqual(v.lineComments, [], `push ${k}`);
      assert.match((await w.pr(n)).reviews[k - 1].body, new RegExp(`\n- ${a} still open \\(dismissed\\): `));
    }
    assert.equal(onLines(n).length, 1);
    // Its code changes: another finding, on its line again.
    const v4 = await push(i, n, { 'feature.txt': `FEATURE OF ${i.id}\n` }, 4);
    assert.deepEqual(v4.lineComments, ['feature.txt:1']);
    pr = await w.pr(n);
    assert.deepEqual(
      onLines(n).map((c) => c.slice(0, 3)),
      [
        [pr.reviews[0].id, 'feature.txt', 1],
        [pr.reviews[3].id, 'feature.txt', 1],
      ],
    );

    // svc review dismiss resolves the new finding's thread on GitHub.
    const b = findingId('feature.txt', [`FEATURE OF ${i.id}`], 'the feature names no one');
    assert.equal(
      await w.ok(['review', 'dismiss', i.id, b]),
      `Dismissed ${b} of ${i.id} (feature.txt:1 — the feature names no one); resolved 1 line comment\n`,
    );
    assert.deepEqual(
      (await w.pr(n)).lineComments.map((c) => c.resolved),
      [true, true],
    );
    const v5 = await push(i, n, { 'other-5.txt': 'push 5\n' }, 5);
    assert.deepEqual(v5.lineComments, []);
  });

  it("on the author's own PR the verdict is a marker comment and the findings go on their lines in a COMMENT review", async () => {
    g.onGithub();
    const i = await w.issue('Own PR findings', { 'quick.findings': '### [nit] feature.txt:1 — shorter\n' });
    await w.startWork(i.id);
    const v = await w.waitKind(i.id, 'review.verdict');
    assert.equal(v.via, 'marker');
    const n = v.pr as number;
    const pr = await w.pr(n);
    assert.ok(
      pr.comments[0].body.startsWith(`<!-- svc-verdict: APPROVED sha=${v.sha as string} -->\n\n# Verdict: APPROVED\n`),
    );
    assert.deepEqual(
      pr.reviews.map((r) => [r.state, r.author, r.body]),
      [
        [
          'COMMENTED',
          'svc',
          `Findings of review r1 at ${(v.sha as string).slice(0, 7)}; its verdict is in comment #${pr.comments[0].id}.`,
        ],
      ],
    );
    assert.deepEqual(onLines(n), [[pr.reviews[0].id, 'feature.txt', 1, '**[nit] shorter**', 'svc']]);
    assert.equal(pr.readiness.ready, true, 'a COMMENT review is no verdict: the marker still approves');
  });
});
