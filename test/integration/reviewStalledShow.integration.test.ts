// A quick review whose reviewer stopped before it posted a verdict is stalled: `svc show`
// says so with the command that gets it going again, and that command does. (The stall
// rule would re-dispatch it by itself only 15 minutes later; until then the line is the
// person's only sign that nothing moves.)
import * as assert from 'node:assert/strict';
import { eventually } from '../helpers/scratch';
import { reviewWorld } from './reviewWorld';
import type { World } from './reviewWorld';

describe('review: a stalled quick review says what to do next', function () {
  this.timeout(120_000);
  let w: World;

  before(async () => {
    w = await reviewWorld('review-stalled', { mode: 'quick' });
  });
  after(async () => w.s.dispose());

  it('svc show names the stall and svc review restart; the restart runs the reviewer again', async () => {
    const i = await w.issue('Quiet feature', { quick: 'HANG' });
    await w.startWork(i.id);
    await w.waitKind(i.id, 'review.dispatched');
    const reviewer = 'agent-web-1-review';
    await eventually(async () => (await w.show(i.id)).reviewers.some((r) => r.alive), 30_000, 'the reviewer runs');
    const running = await w.ok(['show', i.id]);
    assert.doesNotMatch(running, /^  stalled/m, 'a running review is not stalled');

    await w.ok(['conv', 'stop', reviewer]);
    const text = await w.ok(['show', i.id]);
    const lines = text.split('\n');
    const at = lines.findIndex((l) => l.startsWith('  review      '));
    assert.match(lines[at], /^ {2}review {6}r1 quick at [0-9a-f]{7}: dispatched$/);
    assert.equal(
      lines[at + 1],
      `  stalled     its reviewer is not alive and no verdict was posted; next: svc review restart ${i.id}`,
    );

    w.ctl(i.id, 'quick', 'APPROVED');
    await w.ok(['review', 'restart', i.id]);
    await w.waitKind(i.id, 'review.verdict');
    assert.doesNotMatch(await w.ok(['show', i.id]), /^  stalled/m);
  });
});
