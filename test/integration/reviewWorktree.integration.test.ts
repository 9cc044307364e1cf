// The review worktree is made at the PR head without a `cat-file` first: at once when the
// commit is here, after fetching the PR's branch when `git worktree add` finds no such
// commit, and refused (nothing left behind) when origin has no such commit either.
// Real git: a checkout and its local bare origin.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Project } from '../../shared/config';
import { createReviewWorktree } from '../../server/issues/workspace';
import { SvcError } from '../../shared/errors';
import { git, makeRepo, makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';

describe('review worktree at the PR head', function () {
  this.timeout(60_000);
  let s: Scratch;
  let repo: { dir: string; origin: string };
  let project: Project;

  beforeEach(() => {
    s = makeScratch('review-worktree');
    repo = makeRepo(s);
    project = Project.parse({ path: repo.dir });
  });
  afterEach(async () => s.dispose());

  /** A commit on `branch` pushed to origin from another clone: not in the project's object store. */
  const pushedElsewhere = (branch: string): string => {
    const other = path.join(s.home, 'other');
    git(s.home, s.env, 'clone', '--quiet', repo.origin, other);
    git(other, s.env, 'checkout', '--quiet', '-b', branch);
    fs.writeFileSync(path.join(other, 'feature.txt'), 'work\n');
    git(other, s.env, 'add', '.');
    git(other, s.env, 'commit', '--quiet', '-m', 'work');
    git(other, s.env, 'push', '--quiet', 'origin', branch);
    return git(other, s.env, 'rev-parse', 'HEAD');
  };

  it('makes the worktree detached at a commit the checkout has', async () => {
    const head = git(repo.dir, s.env, 'rev-parse', 'HEAD');
    const dir = path.join(s.home, 'lanes', 'web-1-r1');
    await createReviewWorktree(project, 'issue/web-1', dir, head);
    assert.equal(git(dir, s.env, 'rev-parse', 'HEAD'), head);
    assert.equal(git(dir, s.env, 'rev-parse', '--abbrev-ref', 'HEAD'), 'HEAD');
  });

  it("fetches the PR's branch when the head is not here yet, then makes the worktree", async () => {
    const head = pushedElsewhere('issue/web-2');
    assert.throws(() => git(repo.dir, s.env, 'cat-file', '-e', `${head}^{commit}`), /failed/);
    const dir = path.join(s.home, 'lanes', 'web-2-r1');
    await createReviewWorktree(project, 'issue/web-2', dir, head);
    assert.equal(git(dir, s.env, 'rev-parse', 'HEAD'), head);
    assert.equal(fs.readFileSync(path.join(dir, 'feature.txt'), 'utf8'), 'work\n');
    assert.equal(git(repo.dir, s.env, 'rev-parse', 'refs/remotes/origin/issue/web-2'), head);
  });

  it('refuses a head origin does not have either, and leaves no folder', async () => {
    pushedElsewhere('issue/web-3');
    const missing = 'f'.repeat(40);
    const dir = path.join(s.home, 'lanes', 'web-3-r1');
    const e = await createReviewWorktree(project, 'issue/web-3', dir, missing).then(
      () => assert.fail('made a worktree'),
      (err: unknown) => err,
    );
    assert.ok(e instanceof SvcError);
    assert.equal(e.message, `commit fffffff of issue/web-3 is not in ${repo.dir} even after fetching origin`);
    assert.equal(fs.existsSync(dir), false);
    assert.doesNotMatch(git(repo.dir, s.env, 'worktree', 'list'), /web-3-r1/);
  });
});
