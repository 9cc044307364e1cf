// The review pipeline's modes and verdict paths end to end (script harness, local code
// host, real git with a bare origin): quick, full to APPROVED with checks gating the
// merge, a push after approval (stale), the own-PR marker comment, FAILED, and none.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { eventually, git } from '../helpers/scratch';
import { reviewWorld } from './reviewWorld';
import type { World } from './reviewWorld';

describe('review pipeline: modes and verdicts', function () {
  this.timeout(240_000);
  let w: World;

  before(async () => {
    w = await reviewWorld('review-modes', { mode: 'quick' });
  });
  after(async () => w.s.dispose());

  it('quick mode: one agent writes review.md and posts one review pinned to the head', async () => {
    w.configure({ mode: 'quick' });
    const i = await w.issue('Quick feature');
    assert.equal(i.id, 'WEB-1');
    await w.startWork(i.id);
    await w.waitKind(i.id, 'review.verdict');
    assert.deepEqual(w.kinds(i.id), ['review.requested', 'review.dispatched', 'review.verdict']);
    const [req, disp, verdict] = w.journal(i.id);
    assert.equal(req.source, 'done');
    assert.equal(req.mode, 'quick');
    assert.deepEqual(disp.agents, ['agent-web-1-review']);
    assert.equal(verdict.verdict, 'APPROVED');
    assert.equal(verdict.via, 'review');
    const pr = await w.pr(1);
    assert.equal(pr.reviews.length, 1);
    assert.equal(pr.reviews[0].state, 'APPROVED');
    assert.equal(pr.reviews[0].author, 'svc-reviewer');
    assert.equal(pr.reviews[0].commitId, pr.pr.head);
    assert.match(pr.reviews[0].body, /^# Verdict: APPROVED\n/);
    assert.ok(fs.existsSync(path.join(i.workspace, 'review.md')));
    const st = await w.show(i.id);
    assert.equal(st.pr!.reviewState, 'approved');
    assert.equal(st.pr!.ready, true);
    // review.md and .svc/ never dirty the workspace
    assert.equal(git(i.workspace, w.s.env, 'status', '--porcelain'), '');
  });

  it('full mode: parent and four lanes in one detached worktree at the head → APPROVED; mergeable once checks are green', async () => {
    w.configure({
      mode: 'full',
      checkCommands: [
        'for i in $(seq 600); do [ -f "$HOME/ctl/$SVC_ISSUE/checks-go" ] && exit 0; sleep 0.1; done; exit 1',
      ],
    });
    const i = await w.issue('Full feature');
    fs.rmSync(path.join(w.s.home, 'ctl', i.id, 'checks-go'));
    await w.startWork(i.id);
    const disp = await w.waitKind(i.id, 'review.dispatched');
    assert.deepEqual(disp.agents, [
      'agent-web-2-review',
      'agent-web-2-review-security',
      'agent-web-2-review-correctness',
      'agent-web-2-review-performance',
      'agent-web-2-review-requirements',
    ]);
    const head = git(i.workspace, w.s.env, 'rev-parse', 'HEAD');
    assert.equal(disp.sha, head);
    const worktree = disp.worktree as string;
    assert.notEqual(worktree, i.workspace);
    assert.equal(git(worktree, w.s.env, 'rev-parse', 'HEAD'), head);
    assert.equal(git(worktree, w.s.env, 'rev-parse', '--abbrev-ref', 'HEAD'), 'HEAD'); // detached
    // every reviewer works in that one worktree with its own env
    const shown = await w.ok(['conv', 'show', 'agent-web-2-review-security', '--json']);
    assert.equal(JSON.parse(shown).cwd, worktree);
    assert.equal(JSON.parse(shown).model, 'sec-model');
    // Each conversation says its seat in the review (clients read it, never the name): the work agent has none.
    assert.deepEqual(JSON.parse(shown).review, { runId: 'r1', role: 'security' });
    assert.deepEqual(JSON.parse(await w.ok(['conv', 'show', 'agent-web-2-review', '--json'])).review, {
      runId: 'r1',
      role: 'parent',
    });
    assert.equal(JSON.parse(await w.ok(['conv', 'show', 'agent-web-2', '--json'])).review, null);
    await w.waitKind(i.id, 'review.verdict');
    assert.deepEqual(w.kinds(i.id), ['review.requested', 'review.dispatched', 'review.verdict']);
    const runDir = path.join(i.workspace, '.svc', 'review', 'r1');
    assert.deepEqual(fs.readdirSync(runDir).sort(), [
      'correctness.md',
      // The run's findings as posted (none here), for the next run to track against.
      'findings.json',
      'performance.md',
      'requirements.md',
      'security.md',
      'synthesis.md',
    ]);
    assert.deepEqual(
      (JSON.parse(fs.readFileSync(path.join(runDir, 'findings.json'), 'utf8')) as { findings: unknown[] }).findings,
      [],
    );
    for (const lane of ['security', 'correctness', 'performance', 'requirements']) {
      assert.match(
        fs.readFileSync(path.join(runDir, `${lane}.md`), 'utf8'),
        new RegExp(`^# Verdict: APPROVED\\n\\n## Summary\\n${lane} reviewed ${head} in run r1\\n`),
      );
    }
    const wait = fs.readFileSync(path.join(w.s.home, 'ctl', i.id, 'wait-r1.out'), 'utf8');
    assert.match(wait, new RegExp(`^security +APPROVED\\t${runDir}/security\\.md\\n`));
    assert.match(wait, /exit 0\n$/);
    const pr = await w.pr(2);
    assert.equal(pr.reviews.length, 1);
    assert.equal(pr.reviews[0].state, 'APPROVED');
    assert.equal(pr.reviews[0].commitId, head);
    // approved, but the check is pending: not mergeable yet
    let st = await w.show(i.id);
    assert.equal(st.pr!.reviewState, 'approved');
    assert.equal(st.pr!.ready, false);
    assert.deepEqual(
      st.pr!.checks.map((c) => c.state),
      ['pending'],
    );
    const refusedMerge = await w.fail(['pr', 'merge', '2', '--project', 'web']);
    assert.match(
      refusedMerge.stderr,
      /^PR web#2 is not ready to merge:\n {2}- check 'svc\/check: for i in .*' is pending\n$/,
    );
    w.ctl(i.id, 'checks-go', '');
    st = await eventually(
      async () => {
        const x = await w.show(i.id);
        return x.pr!.ready ? x : undefined;
      },
      20_000,
      'checks green',
    );
    assert.deepEqual(
      st.pr!.checks.map((c) => c.state),
      ['success'],
    );
    // the reviewers finished and were stopped; svc status lists them with alive
    const status = JSON.parse(await w.ok(['status', '--json'])) as { name: string; alive: boolean }[];
    const reviewers = status.filter((a) => a.name.startsWith('agent-web-2-review'));
    assert.equal(reviewers.length, 5);
    for (const r of reviewers) assert.equal(typeof r.alive, 'boolean');
    await eventually(
      async () =>
        (JSON.parse(await w.ok(['status', '--json'])) as { name: string; alive: boolean }[]).filter(
          (a) => a.name.startsWith('agent-web-2-review') && a.alive,
        ).length === 0,
      20_000,
      'reviewers stopped',
    );
    assert.match(await w.ok(['pr', 'merge', '2', '--project', 'web']), /^Merged web#2 into main/);
  });

  it('a push after approval leaves the new head unreviewed: stale, not ready', async () => {
    w.configure({ mode: 'full' });
    const i = await w.issue('Stale feature');
    await w.startWork(i.id);
    const v = await w.waitKind(i.id, 'review.verdict');
    assert.equal(v.verdict, 'APPROVED');
    let st = await w.show(i.id);
    assert.equal(st.pr!.reviewState, 'approved');
    assert.equal(st.pr!.ready, true);
    // the next review hangs, so the new head stays unreviewed while we look
    w.ctl(i.id, 'parent', 'HANG');
    fs.appendFileSync(path.join(i.workspace, 'feature.txt'), 'more\n');
    git(i.workspace, w.s.env, 'commit', '-qam', 'more');
    git(i.workspace, w.s.env, 'push', '-q', 'origin', 'HEAD');
    const head = git(i.workspace, w.s.env, 'rev-parse', 'HEAD');
    const req = await w.waitKind(i.id, 'review.requested', 2);
    assert.equal(req.source, 'head-change');
    assert.equal(req.sha, head);
    await w.waitKind(i.id, 'review.dispatched', 2);
    st = await w.show(i.id);
    assert.equal(st.pr!.head, head);
    assert.equal(st.pr!.reviewState, 'stale');
    assert.equal(st.pr!.ready, false);
    assert.ok(
      st.pr!.reasons.some((r) => r.startsWith(`no approval for the head ${head.slice(0, 7)}`)),
      st.pr!.reasons.join('\n'),
    );
    assert.equal(st.run!.phase, 'dispatched');
    assert.equal(st.run!.sha, head);
    assert.deepEqual(w.kinds(i.id), [
      'review.requested',
      'review.dispatched',
      'review.verdict',
      'review.requested',
      'review.dispatched',
    ]);
    await w.ok(['review', 'abort', i.id]);
  });

  it('own PR: the host refuses the review, so the verdict is a marker comment naming the head', async () => {
    w.configure({ mode: 'full', reviewer: 'svc' });
    const i = await w.issue('Own feature');
    await w.startWork(i.id);
    const v = await w.waitKind(i.id, 'review.verdict');
    assert.equal(v.via, 'marker');
    assert.deepEqual(w.kinds(i.id), ['review.requested', 'review.dispatched', 'review.verdict']);
    const pr = await w.pr(4);
    assert.equal(pr.reviews.length, 0);
    assert.equal(pr.comments.length, 1);
    assert.ok(
      pr.comments[0].body.startsWith(`<!-- svc-verdict: APPROVED sha=${pr.pr.head} -->\n\n# Verdict: APPROVED\n`),
      pr.comments[0].body,
    );
    const st = await w.show(i.id);
    assert.equal(st.pr!.reviewState, 'approved');
    assert.equal(st.pr!.ready, true);
  });

  it('FAILED posts a comment-type review and is not an approval', async () => {
    w.configure({ mode: 'full' });
    const i = await w.issue('Failing review', { parent: 'FAILED' });
    await w.startWork(i.id);
    const v = await w.waitKind(i.id, 'review.verdict');
    assert.equal(v.verdict, 'FAILED');
    assert.equal(v.via, 'comment');
    assert.deepEqual(w.kinds(i.id), ['review.requested', 'review.dispatched', 'review.verdict']);
    const pr = await w.pr(5);
    assert.equal(pr.reviews.length, 1);
    assert.equal(pr.reviews[0].state, 'COMMENTED');
    const st = await w.show(i.id);
    assert.equal(st.pr!.reviewState, 'failed');
    assert.equal(st.pr!.ready, false);
  });

  it('none mode: no reviewer; the check commands run on the head and become commit statuses', async () => {
    w.configure({ mode: 'none', checkCommands: ['test -f feature.txt', 'false'] });
    const i = await w.issue('Unreviewed feature');
    await w.startWork(i.id);
    await w.waitKind(i.id, 'review.requested');
    const st = await eventually(
      async () => {
        const x = await w.show(i.id);
        return x.pr && x.pr.checks.length === 2 && x.pr.checks.every((c) => c.state !== 'pending') ? x : undefined;
      },
      20_000,
      'checks done',
    );
    assert.deepEqual(st.pr!.checks.map((c) => [c.name, c.state]).sort(), [
      ['svc/check: false', 'failure'],
      ['svc/check: test -f feature.txt', 'success'],
    ]);
    assert.deepEqual(w.kinds(i.id), ['review.requested']);
    assert.equal(st.reviewers.length, 0);
    assert.equal(st.pr!.reviewState, 'none');
    w.configure({ mode: 'full' });
  });

  it('a check command removed from the config: its failed status no longer blocks readiness at that head (and blocks again once configured)', async () => {
    w.configure({ mode: 'full', checkCommands: ['true', 'false'] });
    const i = await w.issue('Retired check');
    await w.startWork(i.id);
    const v = await w.waitKind(i.id, 'review.verdict');
    assert.equal(v.verdict, 'APPROVED');
    const blocked = await eventually(
      async () => {
        const x = await w.show(i.id);
        return x.pr && x.pr.checks.length === 2 && x.pr.checks.every((c) => c.state !== 'pending') ? x : undefined;
      },
      20_000,
      'checks done',
    );
    assert.equal(blocked.pr!.ready, false);
    assert.deepEqual(blocked.pr!.reasons, ["check 'svc/check: false' is failure"]);

    w.configure({ mode: 'full', checkCommands: ['true'] });
    const retired = await w.show(i.id);
    assert.deepEqual(retired.pr!.reasons, []);
    assert.equal(retired.pr!.ready, true);
    assert.deepEqual(
      retired.pr!.checks.map((c) => [c.name, c.state]),
      [['svc/check: true', 'success']],
    );
    const pr = JSON.parse(await w.ok(['pr', 'show', String(v.pr), '--project', 'web', '--json'])) as {
      readiness: { ready: boolean; checks: string };
    };
    assert.equal(pr.readiness.ready, true);
    assert.equal(pr.readiness.checks, 'green');

    w.configure({ mode: 'full', checkCommands: ['true', 'false'] });
    assert.equal((await w.show(i.id)).pr!.ready, false);
    w.configure({ mode: 'full' });
  });

  it('own PR, changes requested: the CHANGES_REQUESTED marker names the reviewed head, blocks the merge, and the work agent is told', async () => {
    w.configure({ mode: 'full', reviewer: 'svc' });
    const i = await w.issue('Own feature, not yet', { 'correctness.r1': 'CHANGES_REQUESTED' });
    await w.startWork(i.id);
    const v = await w.waitKind(i.id, 'review.verdict');
    assert.equal(v.verdict, 'CHANGES_REQUESTED');
    assert.equal(v.via, 'marker');
    const pr = await w.pr(v.pr as number);
    assert.equal(pr.reviews.length, 0);
    assert.equal(pr.comments.length, 1);
    assert.ok(
      pr.comments[0].body.startsWith(
        `<!-- svc-verdict: CHANGES_REQUESTED sha=${v.sha} -->\n\n# Verdict: CHANGES_REQUESTED\n`,
      ),
      pr.comments[0].body,
    );
    assert.ok(
      pr.readiness.reasons.includes(`changes requested by svc (marker comment) at ${(v.sha as string).slice(0, 7)}`),
      pr.readiness.reasons.join('\n'),
    );
    assert.equal(pr.readiness.ready, false);
    const log = await w.ok(['conv', 'log', `agent-${i.id.toLowerCase()}`, '--lines', '400']);
    assert.match(
      log,
      new RegExp(
        `Review r1 of ${i.id} at [0-9a-f]{7} requested changes\\. It is on PR #${v.pr as number} \\(a verdict comment;`,
      ),
    );
    // its fix is reviewed again and approved by a newer marker
    const again = await w.waitKind(i.id, 'review.verdict', 2, 60_000);
    assert.equal(again.verdict, 'APPROVED');
    assert.equal(again.via, 'marker');
    const st = await w.show(i.id);
    assert.equal(st.pr!.reviewState, 'approved');
    assert.equal(st.pr!.ready, true);
    w.configure({ mode: 'full' });
  });
});
