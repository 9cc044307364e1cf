// The review commands as the spec lists them, checked to the letter: `svc review request
// <id> [-m <message>]` (a new run at the head, the message in every reviewer's brief),
// `svc review restart <id>` without --role (the parent plus every lane without a report),
// the refusals of restart/request/abort/wait/post with their exact text and exit code 1,
// `svc review wait` timing out (exit 3, next:), and the
// stall rule's "no reviewer alive" (a live reviewer holds the re-dispatch back; reviewers
// that died with a stopped daemon do not).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { laneEnv } from '../helpers/laneEnv';
import { advanceClock } from '../helpers/rpc';
import { eventually, sleep } from '../helpers/scratch';
import { reviewWorld } from './reviewWorld';
import type { World } from './reviewWorld';

const MIN = 60_000;
const LANES = ['security', 'correctness', 'performance', 'requirements'];
const ALL_HANG = Object.fromEntries([...LANES, 'parent'].map((l) => [l, 'HANG']));

describe('review commands: request, restart, abort (exact output and exit codes)', function () {
  this.timeout(240_000);
  let w: World;

  before(async () => {
    w = await reviewWorld('review-commands', { mode: 'full' });
  });
  after(async () => w.s.dispose());

  const ids = async (issue: string) => Object.fromEntries((await w.show(issue)).reviewers.map((r) => [r.role, r.id]));
  const expectRefusal = async (args: string[], stderr: string) => {
    const r = await w.s.svc(args);
    assert.equal(r.code, 1, `svc ${args.join(' ')}: exit ${r.code}\n${r.stderr}`);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, stderr);
  };

  it("svc review request -m: a new full run at the head with the message in every reviewer's brief, and one more PR review", async () => {
    const i = await w.issue('Asked again');
    await w.startWork(i.id);
    const first = await w.waitKind(i.id, 'review.verdict');
    const sha = first.sha as string;
    const r = await w.s.svc(['review', 'request', i.id, '-m', 'Look again at the error paths']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `Review r2 (full) of ${i.id} requested at ${sha.slice(0, 7)} on PR #1\n`);
    assert.equal(r.stderr, '');
    const second = await w.waitKind(i.id, 'review.verdict', 2);
    assert.deepEqual(w.kinds(i.id), [
      'review.requested',
      'review.dispatched',
      'review.verdict',
      'review.requested',
      'review.dispatched',
      'review.verdict',
    ]);
    const req = w.journal(i.id)[3];
    assert.equal(req.source, 'command');
    assert.equal(req.runId, 'r2');
    assert.equal(req.sha, sha);
    assert.equal(req.message, 'Look again at the error paths');
    assert.deepEqual(w.journal(i.id)[4].agents, ['agent-web-1-review', ...LANES.map((l) => `agent-web-1-review-${l}`)]);
    assert.equal(second.runId, 'r2');
    assert.equal(second.sha, sha);
    for (const name of ['agent-web-1-review', ...LANES.map((l) => `agent-web-1-review-${l}`)]) {
      assert.match(
        await w.ok(['conv', 'log', name, '--lines', '1000']),
        /Look again at the error paths/,
        `${name}'s brief carries the message`,
      );
    }
    const pr = await w.pr(1);
    assert.deepEqual(
      pr.reviews.map((x) => [x.state, x.commitId]),
      [
        ['APPROVED', sha],
        ['APPROVED', sha],
      ],
    );
    // --json: the request's result
    const j = JSON.parse(await w.ok(['review', 'request', i.id, '--json'])) as Record<string, unknown>;
    assert.deepEqual(j, { issue: i.id, runId: 'r3', mode: 'full', sha, pr: 1, reused: false });
    await w.waitKind(i.id, 'review.verdict', 3);
  });

  it('svc review restart without --role: the parent and every lane without a report re-run; the lanes with reports are kept', async () => {
    const i = await w.issue('Restarted convoy', { security: 'DIE', performance: 'DIE', parent: 'HANG' });
    await w.startWork(i.id);
    const disp = await w.waitKind(i.id, 'review.dispatched');
    await w.waitLanesSettled(i.id, 2);
    const before = await ids(i.id);
    w.ctl(i.id, 'security', 'APPROVED');
    w.ctl(i.id, 'performance', 'APPROVED');
    w.ctl(i.id, 'parent', 'AUTO');
    assert.equal(
      await w.ok(['review', 'restart', i.id]),
      `Restarted review r1 of ${i.id}: parent, security, performance\n`,
    );
    const v = await w.waitKind(i.id, 'review.verdict');
    assert.equal(v.verdict, 'APPROVED');
    assert.equal(v.sha, disp.sha);
    assert.deepEqual(w.kinds(i.id), ['review.requested', 'review.dispatched', 'review.dispatched', 'review.verdict']);
    assert.deepEqual(w.journal(i.id)[2].roles, ['parent', 'security', 'performance']);
    const after = await ids(i.id);
    for (const role of ['parent', 'security', 'performance'])
      assert.notEqual(after[role], before[role], `${role} re-ran`);
    for (const role of ['correctness', 'requirements'])
      assert.equal(after[role], before[role], `${role} kept its report`);
    // a run that posted its verdict is not restarted
    await expectRefusal(
      ['review', 'restart', i.id],
      `review r1 of ${i.id} already posted its verdict (APPROVED); request a new review with svc review request ${i.id}\n`,
    );
  });

  it('refusals exit 1 with the reason: nothing to restart, no PR, unknown issue, a bad --role, --role on a quick review', async () => {
    const i = await w.issue('Not reviewed');
    await expectRefusal(
      ['review', 'restart', i.id],
      `issue ${i.id} has no review to restart; request one with svc review request ${i.id}\n`,
    );
    await expectRefusal(
      ['review', 'request', i.id, '-m', 'please'],
      `issue ${i.id} has no open PR for ${i.branch}; run svc done ${i.id} first\n`,
    );
    assert.deepEqual(w.kinds(i.id), []);
    assert.equal(await w.ok(['review', 'abort', i.id]), `No reviewer of ${i.id} was running\n`);
    for (const verb of ['request', 'abort', 'restart'])
      await expectRefusal(['review', verb, 'WEB-99'], 'no issue WEB-99 (see svc issue list)\n');
    const badRole = await w.s.svc(['review', 'restart', i.id, '--role', 'style']);
    assert.equal(badRole.code, 1);
    assert.equal(
      badRole.stderr.split('\n')[0],
      "svc review restart: --role must be one of security, correctness, performance, requirements, got 'style'",
    );
    for (const args of [
      ['review', 'request'],
      ['review', 'abort'],
      ['review', 'restart'],
    ])
      assert.equal((await w.s.svc(args)).code, 1, `svc ${args.join(' ')} without an id`);

    w.configure({ mode: 'quick' });
    const q = await w.issue('Quick and slow', { quick: 'HANG' });
    await w.startWork(q.id);
    const disp = await w.waitKind(q.id, 'review.dispatched');
    assert.deepEqual(disp.agents, [`agent-${q.id.toLowerCase()}-review`]);
    await expectRefusal(
      ['review', 'restart', q.id, '--role', 'security'],
      `--role applies to full reviews; review r1 of ${q.id} is a quick review\n`,
    );
    await expectRefusal(
      ['review', 'wait', q.id],
      `review r1 of ${q.id} is a quick review; only full reviews have lanes to wait for\n`,
    );
    assert.equal(await w.ok(['review', 'restart', q.id]), `Restarted review r1 of ${q.id}: quick\n`);
    await eventually(
      async () => (await w.show(q.id)).reviewers.filter((r) => r.alive).length === 1,
      30_000,
      'the quick agent alive again',
    );
    assert.equal(
      await w.ok(['review', 'abort', q.id]),
      `Aborted review r1 of ${q.id}; stopped agent-${q.id.toLowerCase()}-review\n`,
    );
    w.configure({ mode: 'full' });
  });

  it('svc review wait and post: timeout (exit 3 with next:), and refusals of a superseded run, an aborted run, an unknown run and a caller that is no reviewer', async () => {
    const i = await w.issue('Waited on', ALL_HANG);
    const lower = i.id.toLowerCase();
    await w.startWork(i.id);
    await w.waitKind(i.id, 'review.dispatched');
    const dir = path.join(i.workspace, '.svc', 'review', 'r1');
    const t = await w.s.svc(['review', 'wait', i.id, '--timeout', '1']);
    assert.equal(t.code, 3);
    assert.equal(t.stdout, LANES.map((l) => `${l.padEnd(12)} still running\t${dir}/${l}.md\n`).join(''));
    assert.equal(t.stderr, `timed out; lanes are still running\nnext: svc review wait ${i.id} --run r1\n`);
    // a new request supersedes r1: a late post of r1 is refused
    const sha = (w.journal(i.id)[0].sha as string).slice(0, 7);
    await w.ok(['review', 'request', i.id]);
    // The request answers once the new run's reviewers are alive (each one's first prompt sent).
    assert.deepEqual(
      (await w.show(i.id)).reviewers.map((r) => `${r.runId} ${r.role} ${r.alive ? 'alive' : 'not alive'}`).sort(),
      ['parent', ...LANES].map((l) => `r2 ${l} alive`).sort(),
    );
    await w.waitKind(i.id, 'review.dispatched', 2);
    fs.writeFileSync(
      path.join(dir, 'synthesis.md'),
      '# Verdict: APPROVED\n\n## Summary\nok\n\n## Blockers\nNone.\n\n## Evidence\nread\n\n## Convoy Notes\n- late\n',
    );
    await expectRefusal(
      ['review', 'post', i.id, '--run', 'r1'],
      `review r1 of ${i.id} (at ${sha}) was superseded by r2 (at ${sha}); nothing posted\n`,
    );
    await expectRefusal(['review', 'post', i.id, '--run', 'r9'], `issue ${i.id} has no review run r9\n`);
    assert.equal((await w.s.svc(['review', 'post', i.id])).code, 1, '--run is required');
    const work = JSON.parse(await w.ok(['conv', 'show', `agent-${lower}`, '--json'])) as { id: number };
    const notReviewer = await w.s.svc(['review', 'wait'], { env: laneEnv(w.s, work) });
    assert.equal(notReviewer.code, 1);
    assert.equal(
      notReviewer.stderr,
      `only the review parent of ${i.id} (or the person) may wait for the review's lanes (svc review wait); agent #${work.id} (agent-${lower}) is not it — ask the person\n`,
    );
    assert.equal((await w.s.svc(['review', 'wait'])).code, 1, 'no issue and no conversation');
    assert.match(await w.ok(['review', 'abort', i.id]), new RegExp(`^Aborted review r2 of ${i.id}; stopped `));
    fs.writeFileSync(
      path.join(i.workspace, '.svc', 'review', 'r2', 'synthesis.md'),
      fs.readFileSync(path.join(dir, 'synthesis.md')),
    );
    await expectRefusal(['review', 'post', i.id, '--run', 'r2'], `review r2 of ${i.id} was aborted; nothing posted\n`);
    const pr = await w.pr(w.journal(i.id)[0].pr as number);
    assert.equal(pr.reviews.length + pr.comments.length, 0, 'nothing was posted');
  });

  it('stall rule across a daemon restart: reviewers that died with the old daemon are re-dispatched 15 minutes after the last entry, not before', async () => {
    const i = await w.issue('Outlived daemon', ALL_HANG);
    await w.startWork(i.id);
    await w.waitKind(i.id, 'review.dispatched');
    await eventually(
      async () => (await w.show(i.id)).reviewers.filter((r) => r.alive).length === 5,
      30_000,
      'five reviewers alive',
    );
    await w.ok(['daemon', 'stop', '--force']);
    await w.ok(['daemon', 'status']); // starts one
    await eventually(
      async () => (await w.show(i.id)).reviewers.every((r) => !r.alive && r.activity === 'stopped'),
      30_000,
      'no reviewer alive after the restart',
    );
    await sleep(700);
    assert.deepEqual(w.kinds(i.id), ['review.requested', 'review.dispatched']);
    const age = Date.now() - Date.parse(w.journal(i.id)[1].at);
    await advanceClock(w.s.svcHome, 15 * MIN - age - 5000);
    await sleep(700);
    assert.deepEqual(w.kinds(i.id), ['review.requested', 'review.dispatched'], 'not yet 15 minutes');
    await advanceClock(w.s.svcHome, 6000);
    const re = await w.waitKind(i.id, 'review.redispatched');
    assert.equal(re.runId, 'r2');
    assert.equal(re.replaces, 'r1');
    await w.ok(['review', 'abort', i.id]);
  });

  // Last: it moves the daemon's clock.
  it('stall rule: no re-dispatch while any reviewer (the parent too) is alive; once the last one ends, the overdue review is re-dispatched', async () => {
    const i = await w.issue('Slow reviewers', ALL_HANG);
    const lower = i.id.toLowerCase();
    await w.startWork(i.id);
    await w.waitKind(i.id, 'review.dispatched');
    await eventually(
      async () => (await w.show(i.id)).reviewers.filter((r) => r.alive).length === 5,
      30_000,
      'five reviewers alive',
    );
    await advanceClock(w.s.svcHome, 16 * MIN);
    await sleep(700);
    assert.deepEqual(w.kinds(i.id), ['review.requested', 'review.dispatched']);
    for (const lane of LANES) await w.ok(['conv', 'stop', `agent-${lower}-review-${lane}`]);
    await sleep(700);
    assert.deepEqual(w.kinds(i.id), ['review.requested', 'review.dispatched'], 'the parent is still alive');
    await w.ok(['conv', 'stop', `agent-${lower}-review`]);
    const re = await w.waitKind(i.id, 'review.redispatched');
    assert.equal(re.runId, 'r2');
    assert.equal(re.replaces, 'r1');
    await w.ok(['review', 'abort', i.id]);
  });
});
