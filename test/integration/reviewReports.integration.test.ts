// Review files as models write them (script harness, local host, real git): a verdict on a
// plain `Verdict:` first line is accepted and posted as the heading; a dead parent's
// synthesis.md that `svc review post` would refuse is not posted, and rule 3 combines the
// four lane reports instead, keeping the parent's file beside the result; a malformed or
// missing lane report is named in the parent's `svc review wait` (exit 2) and makes rule 3's
// verdict FAILED.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { eventually } from '../helpers/scratch';
import { reviewWorld } from './reviewWorld';
import type { World } from './reviewWorld';

describe('review pipeline: reports as models write them', function () {
  this.timeout(240_000);
  let w: World;

  before(async () => {
    w = await reviewWorld('review-reports', { mode: 'full' });
  });
  after(async () => w.s.dispose());

  it('a plain `Verdict: X` first line, from a lane and from the parent, is accepted and posted as `# Verdict: X`', async () => {
    const i = await w.issue('Plain verdicts', { security: 'PLAIN', parent: 'PLAIN' });
    await w.startWork(i.id);
    const v = await w.waitKind(i.id, 'review.verdict');
    assert.equal(v.by, 'agent');
    assert.equal(v.verdict, 'APPROVED');
    const runDir = path.join(i.workspace, '.svc', 'review', 'r1');
    assert.match(fs.readFileSync(path.join(runDir, 'security.md'), 'utf8'), /^Verdict: APPROVED\n/);
    const written = fs.readFileSync(path.join(runDir, 'synthesis.md'), 'utf8');
    assert.match(written, /^Verdict: APPROVED\n\n## Summary\n/);
    const pr = await w.pr(1);
    assert.equal(pr.reviews.length, 1);
    assert.equal(pr.reviews[0].state, 'APPROVED');
    assert.equal(pr.reviews[0].body, `# ${written}`, 'the verdict line normalised, the rest as written');
  });

  it("rule 3: a dead parent's synthesis.md without Convoy Notes is kept aside, and the lane reports are posted at once", async () => {
    const i = await w.issue('Malformed synthesis', { parent: 'BADFILE', performance: 'CHANGES_REQUESTED' });
    await w.startWork(i.id);
    const v = await w.waitKind(i.id, 'review.verdict');
    assert.equal(v.by, 'daemon');
    assert.equal(v.verdict, 'CHANGES_REQUESTED');
    assert.deepEqual(w.kinds(i.id), ['review.requested', 'review.dispatched', 'review.verdict']);
    const runDir = path.join(i.workspace, '.svc', 'review', 'r1');
    const kept = path.join(runDir, 'synthesis.unposted.md');
    assert.equal(
      fs.readFileSync(kept, 'utf8'),
      '# Verdict: APPROVED\n\n## Summary\nall fine\n\n## Blockers\nNone.\n\n## Evidence\nread\n',
    );
    const synthesis = fs.readFileSync(path.join(runDir, 'synthesis.md'), 'utf8');
    assert.match(
      synthesis,
      /^# Verdict: CHANGES_REQUESTED\n\n## Summary\n\nReview r1 of WEB-2 at [0-9a-f]{7}\. The review parent agent-web-2-review ended \([^)]*\) and its synthesis\.md could not be posted \(synthesis\.md has no `Convoy Notes` section: add a `## Convoy Notes` heading after the `## Evidence` section/,
    );
    assert.ok(synthesis.includes(`; kept as ${kept})`), synthesis);
    assert.match(synthesis, /\n## Blockers\n\n### performance\n\n1\. performance: fix feature\.txt line 1\n/);
    const pr = await w.pr(2);
    assert.equal(pr.reviews.length, 1);
    assert.equal(pr.reviews[0].state, 'CHANGES_REQUESTED');
    assert.equal(pr.reviews[0].body, synthesis);
  });

  it("a malformed lane report and a lane that dies without one: the parent's wait says so per lane and exits 2", async () => {
    const i = await w.issue('Malformed lane report', { security: 'LGTM', correctness: 'DIE', parent: 'DIE' });
    await w.startWork(i.id);
    const runDir = path.join(i.workspace, '.svc', 'review', 'r1');
    const wait = path.join(w.s.home, 'ctl', i.id, 'wait-r1.out');
    await eventually(
      () => fs.existsSync(wait) && /exit \d+\n$/.test(fs.readFileSync(wait, 'utf8')),
      60_000,
      "the parent's svc review wait returned",
    );
    const lines = fs.readFileSync(wait, 'utf8').split('\n');
    const fix = '`# Verdict: APPROVED`, `# Verdict: CHANGES_REQUESTED` or `# Verdict: FAILED`';
    assert.equal(
      lines[0],
      `security     invalid report: unknown verdict 'LGTM' in security.md: change its first line to ${fix}\t${runDir}/security.md`,
    );
    assert.match(
      lines[1],
      new RegExp(
        `^correctness  no report: agent-web-3-review-correctness ended \\([^)]*\\) without a report\t${runDir}/correctness\\.md$`,
      ),
    );
    assert.equal(lines[2], `performance  APPROVED\t${runDir}/performance.md`);
    assert.equal(lines[3], `requirements APPROVED\t${runDir}/requirements.md`);
    assert.equal(lines[4], 'review r1: security, correctness without a valid report');
    assert.equal(lines[5], 'exit 2');
    // correctness wrote nothing, so rule 3 cannot post yet; the stall rule re-dispatches later
    assert.deepEqual(w.kinds(i.id), ['review.requested', 'review.dispatched']);
    await w.ok(['review', 'abort', i.id]);
  });

  it("the parent's APPROVED over a lane report its wait called invalid is refused, and nothing is posted", async () => {
    const i = await w.issue('Approve over invalid', { security: 'LGTM', parent: 'APPROVED' });
    await w.startWork(i.id);
    const runDir = path.join(i.workspace, '.svc', 'review', 'r1');
    const post = path.join(w.s.home, 'ctl', i.id, 'post-r1.out');
    const waitFile = path.join(w.s.home, 'ctl', i.id, 'wait-r1.out');
    // Both of the parent's outputs complete: its wait's (ending with the exit line) and its post's.
    await eventually(
      () =>
        fs.existsSync(post) &&
        fs.readFileSync(post, 'utf8').length > 0 &&
        fs.existsSync(waitFile) &&
        /\nexit \d+\n$/.test(fs.readFileSync(waitFile, 'utf8')),
      60_000,
      "the parent's svc review wait and svc review post returned",
    );
    const wait = fs.readFileSync(waitFile, 'utf8').split('\n');
    assert.match(wait[0], /^security {5}invalid report: unknown verdict 'LGTM'/);
    const fix = '`# Verdict: APPROVED`, `# Verdict: CHANGES_REQUESTED` or `# Verdict: FAILED`';
    assert.equal(
      fs.readFileSync(post, 'utf8'),
      `review r1 of ${i.id} cannot be APPROVED while a lane report is invalid: security (${runDir}/security.md: unknown verdict 'LGTM' in security.md: change its first line to ${fix}); nothing was posted. Read what that lane found and post CHANGES_REQUESTED or FAILED naming it (edit the verdict line of synthesis.md, then svc review post ${i.id} --run r1)\n`,
    );
    assert.deepEqual(w.kinds(i.id), ['review.requested', 'review.dispatched']);
    const pr = await w.pr((await w.show(i.id)).pr!.number);
    assert.deepEqual(pr.reviews, []);
    await w.ok(['review', 'abort', i.id]);
  });

  it('svc show: an unposted synthesis.md as such (not postable, or its verdict not posted yet), then what was posted', async () => {
    const i = await w.issue('Show what was posted', { parent: 'HANG' });
    await w.startWork(i.id);
    const runDir = path.join(i.workspace, '.svc', 'review', 'r1');
    const wait = path.join(w.s.home, 'ctl', i.id, 'wait-r1.out');
    await eventually(
      () => fs.existsSync(wait) && /exit 0\n$/.test(fs.readFileSync(wait, 'utf8')),
      60_000,
      "the parent's svc review wait returned",
    );
    const parentLine = async () => {
      const text = await w.ok(['show', i.id]);
      return {
        run: /\n {2}review {6}(.*)\n/.exec(text)![1],
        parent: new RegExp(`\\n {2}agent-web-\\d+-review +parent +alive +\\S+ +(.*)\\n`).exec(text)![1],
      };
    };
    fs.writeFileSync(
      path.join(runDir, 'synthesis.md'),
      '# Verdict: APPROVED\n\n## Summary\nall fine\n\n## Blockers\nNone.\n\n## Evidence\nread\n',
    );
    let seen = await parentLine();
    assert.match(seen.run, /^r1 full at [0-9a-f]{7}: dispatched$/);
    assert.equal(
      seen.parent,
      'synthesis.md not posted, not postable: synthesis.md has no `Convoy Notes` section: add a `## Convoy Notes` heading after the `## Evidence` section (the sections after the verdict line are Summary, Blockers, Evidence, Convoy Notes, in this order)',
    );
    const json = JSON.parse(await w.ok(['show', i.id, '--json'])) as {
      reviewers: { role: string; report: { verdict: string | null; posted: boolean; problem: string | null } }[];
    };
    const parent = json.reviewers.find((r) => r.role === 'parent')!;
    assert.deepEqual([parent.report.verdict, parent.report.posted], [null, false]);
    assert.match(parent.report.problem!, /no `Convoy Notes` section/);

    fs.appendFileSync(path.join(runDir, 'synthesis.md'), '\n## Convoy Notes\n- all four approved\n');
    seen = await parentLine();
    assert.equal(seen.parent, 'synthesis.md APPROVED, not posted');
    await w.ok(['review', 'post', i.id, '--run', 'r1']);
    seen = await parentLine();
    assert.match(seen.run, /^r1 full at [0-9a-f]{7}: verdict APPROVED$/);
    assert.equal(seen.parent, 'posted APPROVED');
  });

  it('rule 3 with a malformed lane report: the daemon posts FAILED as a comment-type review, naming the unreadable file', async () => {
    const i = await w.issue('Unreadable lane', { requirements: 'LGTM', parent: 'DIE' });
    await w.startWork(i.id);
    const v = await w.waitKind(i.id, 'review.verdict', 1, 60_000);
    assert.equal(v.by, 'daemon');
    assert.equal(v.verdict, 'FAILED');
    assert.equal(v.via, 'comment');
    const synthesis = fs.readFileSync(path.join(i.workspace, '.svc', 'review', 'r1', 'synthesis.md'), 'utf8');
    assert.match(synthesis, /^# Verdict: FAILED\n\n## Summary\n/);
    assert.ok(
      synthesis.includes(
        "\n## Blockers\n\n### requirements\n\nThe report is unreadable: unknown verdict 'LGTM' in requirements.md",
      ),
      synthesis,
    );
    assert.match(
      synthesis,
      /\n## Convoy Notes\n\n- security: APPROVED — .*\n- correctness: APPROVED — .*\n- performance: APPROVED — .*\n- requirements: unreadable \(unknown verdict 'LGTM'/,
    );
    const pr = await w.pr(v.pr as number);
    assert.deepEqual(
      pr.reviews.map((r) => [r.state, r.commitId, r.body]),
      [['COMMENTED', v.sha, synthesis]],
    );
    assert.equal((await w.show(i.id)).pr!.reviewState, 'failed');
  });
});
