// An issue's base ref (server/issues/workspace.ts baseRef), read on every review request,
// `svc done` and new workspace: origin's default branch is fetched only when it moved, by
// the same check a lane launch uses (server/git/fetchBase.ts). Real git, a local bare origin.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Project } from '../../shared/config';
import { baseRef } from '../../server/issues/workspace';
import { gitScratch } from '../helpers/gitScratch';

const REPO = path.resolve(__dirname, '..', '..');

describe('base ref: fetched only when origin moved', () => {
  const root = path.join(REPO, '.scratch', `unit-baseref-${process.pid}`);
  const origin = path.join(root, 'origin.git');
  const repo = path.join(root, 'repo');
  const other = path.join(root, 'other');
  const { env, git } = gitScratch(root);
  const project = { path: repo, default_branch: 'main', code_host: 'local' } as Project;
  const fetchHead = () => path.join(repo, '.git', 'FETCH_HEAD');
  const saved: Record<string, string | undefined> = {};

  before(() => {
    // The daemon's git runs with the daemon's environment: give it this scratch's.
    for (const k of ['HOME', 'GIT_CONFIG_NOSYSTEM', 'GIT_CEILING_DIRECTORIES'] as const) {
      saved[k] = process.env[k];
      process.env[k] = env[k];
    }
    fs.mkdirSync(root, { recursive: true });
    git(root, 'init', '-q', '--bare', '--initial-branch=main', origin);
    git(root, 'clone', '-q', origin, other);
    fs.writeFileSync(path.join(other, 'a.txt'), 'a\n');
    git(other, 'add', '.');
    git(other, 'commit', '-qm', 'one');
    git(other, 'push', '-q', 'origin', 'HEAD:main');
    git(root, 'clone', '-q', origin, repo);
  });
  after(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('skips the fetch while origin/main names what origin has, and fetches once it moved', async () => {
    fs.rmSync(fetchHead(), { force: true });
    assert.equal(await baseRef(project), 'origin/main');
    assert.equal(fs.existsSync(fetchHead()), false, 'no fetch: origin has not moved');

    fs.writeFileSync(path.join(other, 'b.txt'), 'b\n');
    git(other, 'add', '.');
    git(other, 'commit', '-qm', 'two');
    git(other, 'push', '-q', 'origin', 'HEAD:main');
    assert.equal(await baseRef(project), 'origin/main');
    assert.equal(fs.existsSync(fetchHead()), true, 'fetched: origin moved');
    assert.equal(git(repo, 'rev-parse', 'origin/main'), git(other, 'rev-parse', 'HEAD'));

    fs.rmSync(fetchHead());
    assert.equal(await baseRef(project), 'origin/main');
    assert.equal(fs.existsSync(fetchHead()), false, 'no fetch again once caught up');
  });

  it('is the local default branch when the project has no origin', async () => {
    const lone = path.join(root, 'lone');
    git(root, 'init', '-q', '--initial-branch=trunk', lone);
    assert.equal(await baseRef({ ...project, path: lone, default_branch: 'trunk' }), 'trunk');
  });
});
