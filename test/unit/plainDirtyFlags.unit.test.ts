// The plain DirtyFlags (server/git/plainDirtyFlags.ts) where git refuses one worktree: that
// worktree lists why, the others of the same repository keep their facts; a status that
// outlives a read's bound is told when it answers.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PlainDirtyFlags } from '../../server/git/plainDirtyFlags';
import { gitScratch } from '../helpers/gitScratch';
import { eventually } from '../helpers/scratch';

const REPO = path.resolve(__dirname, '..', '..');

describe('plain dirty flags: a slow or refused worktree', function () {
  this.timeout(30_000);
  const root = path.join(REPO, '.scratch', `unit-plain-dirty-${process.pid}`);
  const { git } = gitScratch(root);

  after(() => fs.rmSync(root, { recursive: true, force: true }));

  const repoWithOneCommit = (name: string): string => {
    const repo = path.join(root, name);
    fs.mkdirSync(repo, { recursive: true });
    git(repo, 'init', '-q', '--initial-branch=main');
    fs.writeFileSync(path.join(repo, 'a.txt'), 'a\n');
    git(repo, 'add', '.');
    git(repo, 'commit', '-qm', 'one');
    return repo;
  };

  it('lists a status slower than its bound as unavailable, then tells when it answers; the next read has its facts', async () => {
    const repo = repoWithOneCommit('slow');
    // An fsmonitor hook that takes 0.6 s (git asks it twice), then has no answer: git looks itself.
    const hook = path.join(root, 'slow-fsmonitor.sh');
    fs.writeFileSync(hook, '#!/bin/sh\nsleep 0.6\nexit 1\n', { mode: 0o755 });
    git(repo, 'config', 'core.fsmonitor', hook);
    const told: string[] = [];
    const flags = new PlainDirtyFlags({ timeoutMs: 500, onLateAnswer: (dir) => told.push(dir) });
    try {
      const first = await flags.ofRepo(repo, [repo]);
      assert.deepEqual(first.get(repo), { unavailable: 'git did not answer within 0.5 s' });
      assert.deepEqual(told, []);
      await eventually(() => told.length > 0, 5_000, 'the late answer told');
      assert.deepEqual(told, [repo]);
      git(repo, 'config', '--unset', 'core.fsmonitor');
      const f = (await flags.ofRepo(repo, [repo])).get(repo);
      assert.ok(f && !('unavailable' in f), `facts after the late answer: ${JSON.stringify(f)}`);
      assert.equal(f.dirty, false);
    } finally {
      flags.close();
    }
  });

  it('lists a damaged index as "git status failed" with git\'s reason, and the sibling with its facts', async () => {
    const repo = repoWithOneCommit('repo');
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
