// The facts keeper (server/git/factsKeeper.ts) over a real lane layout: a bare repository
// of its own with the lane a worktree of it, as `lanes.git: own` makes. What it keeps, what
// it forgets, and that a reader restarted over it answers without git only what nothing
// changed in.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { factsUnavailable } from '../../server/git/dirtyFlags';
import { FactsKeeper } from '../../server/git/factsKeeper';
import { serveKeeper } from '../../server/git/factsKeeperServer';
import type { KeeperServer } from '../../server/git/factsKeeperServer';
import { KeeperDirtyFlags } from '../../server/git/keeperDirtyFlags';
import { KeeperLink } from '../../server/git/keeperLink';
import { PlainDirtyFlags } from '../../server/git/plainDirtyFlags';
import { gitScratch } from '../helpers/gitScratch';

const REPO = path.resolve(__dirname, '..', '..');
/** Lets the keeper hear a step's changes. */
const settle = () => new Promise((r) => setTimeout(r, 150));

describe('facts keeper: own-repository lanes across a daemon restart', function () {
  this.timeout(60_000);
  const root = path.join(REPO, '.scratch', `unit-facts-keeper-${process.pid}`);
  const { git } = gitScratch(root);
  const project = path.join(root, 'project');
  const laneRepo = path.join(root, 'lanes', '.git-lanes', 'lane.git');
  const lane = path.join(root, 'lanes', 'lane');
  let served: KeeperServer;
  const socket = path.join(root, 'keeper.sock');

  /** A daemon's reader just started: its own connection, nothing in memory. */
  const restarted = () => new KeeperDirtyFlags(new PlainDirtyFlags(), new KeeperLink(socket, root, 5000));
  const read = async (flags: KeeperDirtyFlags) => {
    const f = (await flags.ofRepo(laneRepo, [lane])).get(lane);
    assert.ok(f && !factsUnavailable(f), `no facts: ${JSON.stringify(f)}`);
    return { dirty: f.dirty, recalled: flags.recalled, statuses: flags.plain.statusRuns };
  };
  /** Reads once (kept), lets a restarted reader read after `change`, and says what it saw. */
  const afterRestart = async (change: () => void) => {
    const first = restarted();
    await read(first);
    first.close();
    await settle();
    change();
    await settle();
    const again = restarted();
    try {
      return await read(again);
    } finally {
      again.close();
    }
  };

  before(async () => {
    fs.mkdirSync(path.join(project, 'src'), { recursive: true });
    git(project, 'init', '-q', '--initial-branch=main');
    for (let i = 0; i < 20; i++) fs.writeFileSync(path.join(project, 'src', `f${i}.txt`), `line ${i}\n`);
    git(project, 'add', '.');
    git(project, 'commit', '-qm', 'one');
    fs.mkdirSync(path.dirname(laneRepo), { recursive: true });
    git(root, 'clone', '-q', '--bare', project, laneRepo);
    git(laneRepo, 'worktree', 'add', '-q', '-b', 'lane', lane, 'main');
    served = await serveKeeper(socket, new FactsKeeper(10_000));
  });
  after(() => {
    served.close();
    fs.rmSync(root, { recursive: true, force: true });
  });
  afterEach(() => {
    git(lane, 'reset', '-q', '--hard');
    git(lane, 'clean', '-qfd');
  });

  it('answers an untouched lane after a restart without git, and clean', async () => {
    assert.deepEqual(await afterRestart(() => undefined), { dirty: false, recalled: 1, statuses: 0 });
  });

  it('keeps the answer across a git status that rewrites the index (its entries unchanged)', async () => {
    const got = await afterRestart(() => {
      const index = path.join(laneRepo, 'worktrees', 'lane', 'index');
      const before = fs.statSync(index).mtimeMs;
      fs.utimesSync(path.join(lane, 'src', 'f1.txt'), new Date(), new Date()); // stat data git will refresh
      assert.equal(git(lane, 'status', '--porcelain'), '');
      assert.notEqual(fs.statSync(index).mtimeMs, before, 'git status rewrote the index');
    });
    // The touch of f1.txt is a change in the worktree: heard, so recounted, and still clean.
    assert.deepEqual(got, { dirty: false, recalled: 0, statuses: 1 });
    assert.deepEqual(await afterRestart(() => assert.equal(git(lane, 'status', '--porcelain'), '')), {
      dirty: false,
      recalled: 1,
      statuses: 0,
    });
  });

  it('recounts after a file edited with its size and modification time put back', async () => {
    const got = await afterRestart(() => {
      const file = path.join(lane, 'src', 'f2.txt');
      const st = fs.statSync(file);
      fs.writeFileSync(file, 'LINE 2\n');
      fs.utimesSync(file, st.atime, st.mtime);
    });
    assert.deepEqual(got, { dirty: true, recalled: 0, statuses: 1 });
  });

  it('recounts after a change staged, a new untracked folder, or a commit', async () => {
    for (const change of [
      () => {
        fs.appendFileSync(path.join(lane, 'src', 'f3.txt'), 'more\n');
        git(lane, 'add', '-A');
      },
      () => {
        fs.mkdirSync(path.join(lane, 'new', 'deep'), { recursive: true });
        fs.writeFileSync(path.join(lane, 'new', 'deep', 'x.txt'), 'x\n');
      },
    ])
      assert.deepEqual(await afterRestart(change), { dirty: true, recalled: 0, statuses: 1 });
    git(lane, 'reset', '-q', '--hard');
    git(lane, 'clean', '-qfd');
    await settle();
    const head = git(lane, 'rev-parse', 'HEAD');
    const got = await afterRestart(() => git(lane, 'commit', '-q', '--allow-empty', '-m', 'two'));
    assert.deepEqual(got, { dirty: false, recalled: 0, statuses: 1 });
    assert.notEqual(git(lane, 'rev-parse', 'HEAD'), head);
    // The index's content moved with the commit; a refresh after it still keeps the new answer.
    fs.writeFileSync(path.join(lane, 'src', 'added.txt'), 'added\n');
    git(lane, 'add', '-A');
    git(lane, 'commit', '-q', '-m', 'three');
    await settle();
    assert.deepEqual(await afterRestart(() => assert.equal(git(lane, 'status', '--porcelain'), '')), {
      dirty: false,
      recalled: 1,
      statuses: 0,
    });
  });

  it('refuses to keep an answer when the lane changed while it was read', async () => {
    const flags = restarted();
    try {
      await read(flags);
      const keeper = served.keeper;
      const w = keeper.watch(lane, laneRepo);
      assert.ok('gen' in w);
      fs.writeFileSync(path.join(lane, 'late.txt'), 'late\n');
      await settle();
      assert.equal(
        keeper.keep(lane, w.gen, { branch: 'lane', headSha: null, ahead: null, upstream: null, dirty: false }, ''),
        false,
      );
      assert.equal(keeper.recall(lane, ''), undefined);
    } finally {
      flags.close();
    }
  });
});
