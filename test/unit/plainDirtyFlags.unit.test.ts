// The plain DirtyFlags (server/git/plainDirtyFlags.ts) where git refuses one worktree: that
// worktree lists why, the others of the same repository keep their facts.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PlainDirtyFlags } from '../../server/git/plainDirtyFlags';
import { gitScratch } from '../helpers/gitScratch';

const REPO = path.resolve(__dirname, '..', '..');

describe('plain dirty flags: a worktree git refuses', function () {
  this.timeout(30_000);
  const root = path.join(REPO, '.scratch', `unit-plain-dirty-${process.pid}`);
  const { git } = gitScratch(root);

  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('lists a damaged index as "git status failed" with git\'s reason, and the sibling with its facts', async () => {
    const repo = path.join(root, 'repo');
    fs.mkdirSync(repo, { recursive: true });
    git(repo, 'init', '-q', '--initial-branch=main');
    fs.writeFileSync(path.join(repo, 'a.txt'), 'a\n');
    git(repo, 'add', '.');
    git(repo, 'commit', '-qm', 'one');
    const [broken, fine] = ['broken', 'fine'].map((n) => path.join(root, n));
    git(repo, 'worktree', 'add', '-q', '-b', 'broken', broken, 'HEAD');
    git(repo, 'worktree', 'add', '-q', '-b', 'fine', fine, 'HEAD');
    const index = path.join(git(broken, 'rev-parse', '--absolute-git-dir'), 'index');
    fs.writeFileSync(index, 'garbage');
    const flags = new PlainDirtyFlags({ timeoutMs: 5_000 });
    try {
      const got = await flags.ofRepo(repo, [broken, fine]);
      assert.deepEqual(got.get(broken), {
        unavailable: `git status failed: fatal: ${index}: index file smaller than expected`,
      });
      const f = got.get(fine);
      assert.ok(f && !('unavailable' in f), `facts of the sibling: ${JSON.stringify(f)}`);
      assert.equal(f.dirty, false);
      assert.equal(f.branch, 'fine');
    } finally {
      flags.close();
    }
  });
});
