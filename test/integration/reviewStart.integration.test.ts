// How a review run starts (script harness, local host, real git): the new run's reviewers
// start while git checks their worktree out, and the earlier run's reviewers stop only once
// the new ones are alive; a worktree git cannot make fails the request with git's reason,
// and the reviewers started for it give their names back.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { conversationsList } from '../../shared/protocol/conversations';
import type { ConversationInfo } from '../../shared/protocol/conversations';
import { rpcRequest } from '../helpers/rpc';
import { eventually, git } from '../helpers/scratch';
import { reviewWorld } from './reviewWorld';
import type { World } from './reviewWorld';

const ROLES = ['parent', 'security', 'correctness', 'performance', 'requirements'];
const HANG = Object.fromEntries(ROLES.map((r) => [r, 'HANG']));

describe('review start: order and failure', function () {
  this.timeout(180_000);
  let w: World;

  before(async () => {
    w = await reviewWorld('review-start', { mode: 'full' });
  });
  after(async () => w.s.dispose());

  /** An issue with one committed change and `svc done` (its PR opened, review r1 requested), every reviewer hanging. */
  const issueDone = async (title: string): Promise<string> => {
    const i = await w.issue(title, HANG);
    fs.writeFileSync(path.join(i.workspace, 'feature.txt'), `${title}\n`);
    git(i.workspace, w.s.env, 'add', '.');
    git(i.workspace, w.s.env, 'commit', '-qm', title);
    await w.ok(['done', i.id]);
    return i.id;
  };

  const reviewersOf = async (issue: string, runId: string): Promise<ConversationInfo[]> => {
    const { conversations } = await rpcRequest(w.s.svcHome, conversationsList, { all: true });
    return conversations.filter((c) => c.issueId === issue && c.title.startsWith(`${issue} review ${runId}`));
  };

  const request = async (issue: string) =>
    w.s.svc(['review', 'request', issue]).then((r) => ({ ...r, stderr: r.stderr.trim() }));

  it("the earlier run's reviewers stop only after the new run's five are alive, then give their names up and are archived", async () => {
    const id = await issueDone('Start order');
    await eventually(async () => (await reviewersOf(id, 'r1')).filter((c) => c.alive).length === 5, 30_000);

    const r = await request(id);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`^Review r2 \\(full\\) of ${id} requested at [0-9a-f]{7} on PR #1\\n$`));
    // The answer comes once the five are alive.
    const fresh = await reviewersOf(id, 'r2');
    assert.deepEqual(
      fresh.map((c) => [c.name, c.alive]),
      ROLES.map((role) => [
        role === 'parent' ? `agent-${id.toLowerCase()}-review` : `agent-${id.toLowerCase()}-review-${role}`,
        true,
      ]),
    );
    const lastAlive = Math.max(...fresh.map((c) => c.startedAt!));

    await eventually(async () => (await reviewersOf(id, 'r1')).every((c) => c.endedAt !== null && c.archived), 30_000);
    const old = await reviewersOf(id, 'r1');
    assert.equal(old.length, 5);
    for (const c of old) {
      assert.ok(
        c.endedAt! >= lastAlive,
        `${c.name} ended at ${c.endedAt}, before the new run's last reviewer was alive (${lastAlive})`,
      );
      assert.match(c.name, new RegExp(`^agent-${id.toLowerCase()}-review(-[a-z]+)?\\.r1$`));
    }
    await w.ok(['review', 'abort', id]);
  });

  it("a worktree git cannot make: the request fails with git's reason, its reviewers give their names back, and the next request starts", async () => {
    const id = await issueDone('Start failure');
    await eventually(async () => (await reviewersOf(id, 'r1')).filter((c) => c.alive).length === 5, 30_000);
    // The project's own hook fails every checkout from here on (the issue's workspace exists already).
    const hook = path.join(w.repo, '.git', 'hooks', 'post-checkout');
    fs.writeFileSync(hook, '#!/bin/sh\necho "hook says no" >&2\nexit 3\n', { mode: 0o755 });
    try {
      const r = await request(id);
      assert.equal(r.code, 1);
      assert.equal(r.stdout, '');
      const sha = w.journal(id).at(-1)!.sha as string;
      const worktree = path.join(w.s.home, 'web-lanes', `issue-${id.toLowerCase()}-review-r2`);
      assert.equal(
        r.stderr,
        `review r2 of ${id} was requested but its reviewers could not start: git worktree add --quiet --detach ${worktree} ${sha} failed (exit 3): hook says no`,
      );
    } finally {
      fs.rmSync(hook);
    }
    const failed = await reviewersOf(id, 'r2');
    assert.equal(failed.length, 5);
    for (const c of failed) {
      assert.equal(c.alive, false, `${c.name} is alive`);
      assert.equal(c.archived, true, `${c.name} is not archived`);
      assert.match(c.name, new RegExp(`^agent-${id.toLowerCase()}-review(-[a-z]+)?\\.r2$`));
    }
    assert.deepEqual(w.kinds(id), ['review.requested', 'review.dispatched', 'review.requested']);

    const again = await request(id);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, new RegExp(`^Review r3 \\(full\\) of ${id} requested at [0-9a-f]{7} on PR #2\\n$`));
    const r3 = await reviewersOf(id, 'r3');
    assert.deepEqual(
      r3.map((c) => c.alive),
      [true, true, true, true, true],
    );
    assert.ok(fs.existsSync(path.join(w.journal(id).at(-1)!.worktree as string, 'feature.txt')));
    await w.ok(['review', 'abort', id]);
  });
});
