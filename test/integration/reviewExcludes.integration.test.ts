// svc's review files (`.svc/`, `review.md`) are ignored in issue workspaces only. A
// repository set up by an earlier svc carries them in the shared info/exclude, where they
// hid a lane's own review.md from git status (and reap deleted it): the daemon's start
// moves them into each workspace's own excludes and takes them out of the shared file.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { migrateReviewExcludes } from '../../server/issues/reviewExcludes';
import { git, makeRepo, makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';

describe('review files are excluded in issue workspaces only', function () {
  this.timeout(120_000);
  let s: Scratch;
  const saved = { HOME: process.env.HOME, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME };

  before(() => {
    s = makeScratch('review-excludes');
    // The daemon's git reads the user's global config and excludes: point both at the scratch home.
    process.env.HOME = s.home;
    delete process.env.XDG_CONFIG_HOME;
  });
  after(async () => {
    process.env.HOME = saved.HOME;
    if (saved.XDG_CONFIG_HOME !== undefined) process.env.XDG_CONFIG_HOME = saved.XDG_CONFIG_HOME;
    await s.dispose();
  });

  it("migrates an earlier svc's shared entries: workspaces keep them (and the user's global excludes), lanes see their files", async () => {
    const { dir: repo } = makeRepo(s);
    const ws = path.join(`${repo}-lanes`, 'issue-web-1');
    const lane = path.join(`${repo}-lanes`, 'r1-k-builder-i1');
    git(repo, s.env, 'worktree', 'add', '--quiet', '-b', 'issue/web-1', ws);
    git(repo, s.env, 'worktree', 'add', '--quiet', '--detach', lane);
    const shared = path.join(repo, '.git', 'info', 'exclude');
    fs.writeFileSync(
      shared,
      '# mine\n*.bak\n# svc: review files and the pipeline journal are never part of the work\n.svc/\nreview.md\n',
    );
    fs.mkdirSync(path.join(s.home, '.config', 'git'), { recursive: true });
    fs.writeFileSync(path.join(s.home, '.config', 'git', 'ignore'), '*.swp\n');
    for (const wt of [ws, lane]) {
      fs.mkdirSync(path.join(wt, '.svc'));
      fs.writeFileSync(path.join(wt, '.svc', 'notes.md'), 'notes\n');
      fs.writeFileSync(path.join(wt, 'review.md'), 'review\n');
      fs.writeFileSync(path.join(wt, 'x.swp'), 'swap\n');
      fs.writeFileSync(path.join(wt, 'x.bak'), 'backup\n');
    }
    const status = (wt: string) => git(wt, s.env, 'status', '--porcelain', '--untracked-files=all');
    assert.equal(status(lane), '', 'before: the shared entries hide the lane files');

    await migrateReviewExcludes([{ repo, workspace: ws }]);

    assert.equal(fs.readFileSync(shared, 'utf8'), '# mine\n*.bak\n', "only svc's block left the shared file");
    assert.equal(status(ws), '', 'the workspace still ignores the review files, the global excludes and info/exclude');
    assert.equal(
      status(lane),
      '?? .svc/notes.md\n?? review.md',
      "a lane's own files are visible; the user's rules still apply",
    );
    assert.equal(
      git(ws, s.env, 'config', '--worktree', 'core.excludesFile'),
      path.join(repo, '.git', 'worktrees', 'issue-web-1', 'svc-exclude'),
    );

    await migrateReviewExcludes([{ repo, workspace: ws }]);
    assert.equal(fs.readFileSync(shared, 'utf8'), '# mine\n*.bak\n', 'running it again changes nothing');
    assert.equal(status(ws), '');
  });
});
