// How a lane repository of its own is made (config.yaml `lanes.git: own`,
// server/lanes/laneGitRepo.ts): written as files, not by `git init`, in the project's object
// format, with the project's hooks path. A project in sha256 gets a sha256 lane repository
// whose worktree commits; a project with `core.hooksPath` set gives it to the lane as it is
// (relative: the worktree's own folder); one without gives the project's hooks folder. Git
// finds nothing wrong with either repository.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { laneWorld, ok, startLane } from '../helpers/lanes';
import type { LaneWorld } from '../helpers/lanes';
import { git, makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import { laneRepoPath } from '../../server/lanes/laneGitRepo';

describe('lane git of its own: the lane repository as it is made', function () {
  this.timeout(120_000);
  let s: Scratch;
  let w: LaneWorld;
  let sha256: string;

  before(async () => {
    s = makeScratch('laneownmade');
    fs.mkdirSync(s.svcHome, { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(s.svcHome, 'config.yaml'), 'lanes:\n  git: own\n', { mode: 0o600 });
    w = await laneWorld(s);
    // A sha256 project with a hooks path of its own (husky's form: relative to the worktree).
    const origin = path.join(s.home, 'p256-origin.git');
    sha256 = path.join(s.home, 'p256');
    git(s.home, s.env, 'init', '-q', '--bare', '--object-format=sha256', '--initial-branch=main', origin);
    // (git 2.39 clones an empty sha256 repository as sha1: the checkout is made, then pushed.)
    git(s.home, s.env, 'init', '-q', '--object-format=sha256', '--initial-branch=main', sha256);
    git(sha256, s.env, 'remote', 'add', 'origin', origin);
    fs.writeFileSync(path.join(sha256, 'README.md'), '# p256\n');
    git(sha256, s.env, 'add', '.');
    git(sha256, s.env, 'commit', '-q', '-m', 'initial');
    git(sha256, s.env, 'push', '-q', '-u', 'origin', 'main');
    git(sha256, s.env, 'remote', 'set-head', 'origin', 'main');
    git(sha256, s.env, 'config', 'core.hooksPath', '.husky');
    await ok(s.svc(['project', 'add', 'p256', sha256]));
  });
  after(async () => s?.dispose());

  const launch = (project: string, key: string) =>
    startLane(w, { project, run: 'm', key, role: 'builder', model: 'm', prompt: 'hi' });

  it('a sha256 project: a sha256 lane repository with its hooks path, whose worktree commits', async () => {
    const lane = await launch('p256', 'a');
    const repo = laneRepoPath(lane.cwd);
    assert.equal(git(lane.cwd, s.env, 'rev-parse', '--show-object-format'), 'sha256');
    assert.equal(git(lane.cwd, s.env, 'rev-parse', 'HEAD'), git(sha256, s.env, 'rev-parse', 'HEAD'));
    assert.match(git(lane.cwd, s.env, 'rev-parse', 'HEAD'), /^[0-9a-f]{64}$/);
    assert.equal(git(lane.cwd, s.env, 'config', 'core.hooksPath'), '.husky');
    assert.equal(git(repo, s.env, 'rev-parse', '--is-bare-repository'), 'true');
    fs.writeFileSync(path.join(lane.cwd, 'a.txt'), 'a\n');
    git(lane.cwd, s.env, 'add', 'a.txt');
    git(lane.cwd, s.env, 'commit', '-q', '-m', 'a');
    assert.equal(git(repo, s.env, 'rev-parse', 'refs/heads/m/a'), git(lane.cwd, s.env, 'rev-parse', 'HEAD'));
    assert.equal(git(lane.cwd, s.env, 'fsck', '--no-progress', '--no-dangling'), '');
    assert.equal(git(lane.cwd, s.env, 'status', '--porcelain'), '');
  });

  it('a sha1 project with no hooks path: the project hooks folder, as git init would make it', async () => {
    const lane = await launch('proj', 'b');
    const repo = laneRepoPath(lane.cwd);
    const common = fs.realpathSync(path.join(w.repo, '.git'));
    assert.equal(git(lane.cwd, s.env, 'rev-parse', '--show-object-format'), 'sha1');
    assert.equal(git(lane.cwd, s.env, 'config', 'core.hooksPath'), path.join(common, 'hooks'));
    assert.deepEqual(fs.readdirSync(path.join(repo, 'objects')).sort(), ['info', 'pack']);
    assert.deepEqual(fs.readdirSync(path.join(repo, 'refs')).sort(), ['heads', 'tags']);
    assert.equal(fs.readFileSync(path.join(repo, 'objects', 'info', 'alternates'), 'utf8'), `${common}/objects\n`);
    assert.equal(git(lane.cwd, s.env, 'fsck', '--no-progress', '--no-dangling'), '');
  });
});
