// The review pipeline's guards: the stall rule (15 minutes, at most hourly; a test clock,
// never real waiting), bad synthesis files refused clearly with nothing posted, and the
// refusals of requests that cannot run.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { advanceClock } from '../helpers/rpc';
import { eventually, git, sleep } from '../helpers/scratch';
import { reviewWorld } from './reviewWorld';
import type { World } from './reviewWorld';
import { laneEnv } from '../helpers/laneEnv';

const MIN = 60_000;
const ALL_DIE = { security: 'DIE', correctness: 'DIE', performance: 'DIE', requirements: 'DIE', parent: 'DIE' };

describe('review pipeline: guards', function () {
  this.timeout(240_000);
  let w: World;

  before(async () => {
    w = await reviewWorld('review-guards', { mode: 'full' });
  });
  after(async () => w.s.dispose());

  const allDead = async (issue: string, runId: string) =>
    eventually(
      async () => {
        const st = await w.show(issue);
        const mine = st.reviewers.filter((r) => r.runId === runId);
        return mine.length === 5 && mine.every((r) => !r.alive && r.activity === 'stopped');
      },
      30_000,
      `every reviewer of ${runId} dead`,
    );

  it('reviewers that never finish: re-dispatched after 15 minutes, and not again within the hour', async () => {
    const i = await w.issue('Stalled review', ALL_DIE);
    await w.startWork(i.id);
    await w.waitKind(i.id, 'review.dispatched');
    await allDead(i.id, 'r1');
    assert.deepEqual(w.kinds(i.id), ['review.requested', 'review.dispatched']);
    await advanceClock(w.s.svcHome, 14 * MIN);
    await sleep(700);
    assert.deepEqual(w.kinds(i.id), ['review.requested', 'review.dispatched']);
    await advanceClock(w.s.svcHome, MIN + 1000);
    const re = await w.waitKind(i.id, 'review.redispatched');
    assert.equal(re.runId, 'r2');
    assert.equal(re.replaces, 'r1');
    assert.equal(re.sha, w.journal(i.id)[0].sha);
    assert.equal(re.mode, 'full');
    assert.equal((re.agents as string[]).length, 5);
    await allDead(i.id, 'r2');
    await advanceClock(w.s.svcHome, 16 * MIN);
    await sleep(700);
    await advanceClock(w.s.svcHome, 30 * MIN);
    await sleep(700);
    assert.deepEqual(w.kinds(i.id), ['review.requested', 'review.dispatched', 'review.redispatched']);
    // an hour after the re-dispatch, the rule may fire again
    await advanceClock(w.s.svcHome, 15 * MIN);
    await w.waitKind(i.id, 'review.redispatched', 2);
    assert.deepEqual(w.kinds(i.id), [
      'review.requested',
      'review.dispatched',
      'review.redispatched',
      'review.redispatched',
    ]);
    await allDead(i.id, 'r3');
    await w.ok(['review', 'abort', i.id]);
  });

  it('bad synthesis files are refused clearly, logged, and nothing is posted', async () => {
    const i = await w.issue('Careful review', { parent: 'HANG' });
    await w.startWork(i.id);
    await w.waitKind(i.id, 'review.dispatched');
    const waitOut = path.join(w.s.home, 'ctl', i.id, 'wait-r1.out');
    await eventually(
      () => fs.existsSync(waitOut) && fs.readFileSync(waitOut, 'utf8').includes('exit 0'),
      30_000,
      'the parent saw four reports',
    );
    const file = path.join(i.workspace, '.svc', 'review', 'r1', 'synthesis.md');
    const sections = '\n## Summary\nok\n\n## Blockers\nNone.\n\n## Evidence\nread\n\n## Convoy Notes\n- all approved\n';
    const post = () => w.s.svc(['review', 'post', i.id, '--run', 'r1']);
    const cases: [string, string][] = [
      [
        'All good, ship it.\n' + sections,
        "synthesis.md must start with its verdict line; its first line is 'All good, ship it.': put `# Verdict: APPROVED`, `# Verdict: CHANGES_REQUESTED` or `# Verdict: FAILED` first\n",
      ],
      [
        '# Verdict: LGTM\n' + sections,
        "unknown verdict 'LGTM' in synthesis.md: change its first line to `# Verdict: APPROVED`, `# Verdict: CHANGES_REQUESTED` or `# Verdict: FAILED`\n",
      ],
      [
        '# Verdict: APPROVED\n\n## Summary\nok\n\n## Evidence\nread\n',
        'synthesis.md has no `Blockers` section: add a `## Blockers` heading after the `## Summary` section (the sections after the verdict line are Summary, Blockers, Evidence, Convoy Notes, in this order)\n',
      ],
      [
        `# Verdict: APPROVED\n${sections}${'x'.repeat(60_000)}\n`,
        `synthesis.md has ${60_001 + 20 + sections.length} characters; the limit is 60000 (a PR review body holds 65,536)\n`,
      ],
    ];
    fs.rmSync(file, { force: true });
    const none = await post();
    assert.equal(none.code, 1);
    assert.equal(
      none.stderr,
      `no synthesis.md at ${file}; write it first, then run svc review post ${i.id} --run r1\n`,
    );
    for (const [text, message] of cases) {
      fs.writeFileSync(file, text);
      const r = await post();
      assert.equal(r.code, 1);
      assert.equal(r.stdout, '');
      assert.equal(r.stderr, message);
      assert.ok(w.daemonLog().includes(`WEB-2 r1: refused to post: ${message.trimEnd()}`), 'logged');
    }
    const pr = await w.pr(2);
    assert.equal(pr.reviews.length + pr.comments.length, 0);
    assert.deepEqual(w.kinds(i.id), ['review.requested', 'review.dispatched']);
    // a good file posts once; a second post is refused
    fs.writeFileSync(file, `# Verdict: APPROVED\n${sections}`);
    const okPost = await post();
    assert.equal(okPost.code, 0, okPost.stderr);
    assert.match(okPost.stdout, /^Posted APPROVED for WEB-2 on PR #2 at [0-9a-f]{7}: review #\d+\n$/);
    const again = await post();
    assert.equal(again.stderr, 'review r1 of WEB-2 already posted its verdict (APPROVED); nothing posted\n');
    assert.deepEqual(w.kinds(i.id), ['review.requested', 'review.dispatched', 'review.verdict']);
    assert.equal((await w.pr(2)).reviews.length, 1);
    await w.ok(['review', 'abort', i.id]);
  });

  it('refuses requests that cannot run: no PR yet, no reviewer model, svc done by a reviewer, unknown issue', async () => {
    const i = await w.issue('Not done yet');
    const noPr = await w.fail(['review', 'request', i.id]);
    assert.equal(noPr.stderr, `issue ${i.id} has no open PR for issue/web-3; run svc done ${i.id} first\n`);
    w.configure({ mode: 'full', noModels: true });
    fs.writeFileSync(path.join(i.workspace, 'feature.txt'), 'x\n');
    git(i.workspace, w.s.env, 'add', '.');
    git(i.workspace, w.s.env, 'commit', '-qm', 'x');
    const noModel = await w.fail(['done', i.id]);
    assert.equal(noModel.stderr, 'no model for the review parent: set roles.review.model in ~/.svc/config.yaml\n');
    assert.equal(git(w.origin, w.s.env, 'branch', '--list', 'issue/web-3'), '', 'nothing was pushed');
    assert.deepEqual(w.kinds(i.id), []);
    w.configure({ mode: 'full' });
    const reviewer = (
      JSON.parse(await w.ok(['conv', 'show', 'agent-web-2-review-security', '--json'])) as { id: number }
    ).id;
    const byReviewer = await w.fail(['done'], { env: laneEnv(w.s, { id: reviewer }) });
    assert.equal(
      byReviewer.stderr,
      `only the work agent of WEB-2 (or the person) may finish the issue (svc done); agent #${reviewer} (agent-web-2-review-security) is not it — ask the person\n`,
    );
    const unknown = await w.fail(['review', 'request', 'WEB-99']);
    assert.equal(unknown.stderr, 'no issue WEB-99 (see svc issue list)\n');
    const badRole = await w.fail(['review', 'restart', i.id, '--role', 'style']);
    assert.equal(
      badRole.stderr.split('\n')[0],
      "svc review restart: --role must be one of security, correctness, performance, requirements, got 'style'",
    );
  });
});
