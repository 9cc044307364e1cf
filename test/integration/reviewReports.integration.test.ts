// Review files as models write them (script harness, local host, real git): a verdict on a
// plain `Verdict:` first line is accepted and posted as the heading; a dead parent's
// synthesis.md that `svc review post` would refuse is not posted, and rule 3 combines the
// four lane reports instead, keeping the parent's file beside the result.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
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
    assert.equal(fs.readFileSync(kept, 'utf8'), '# Verdict: APPROVED\n\n## Summary\nall fine\n\n## Blockers\nNone.\n\n## Evidence\nread\n');
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
});
