// The dirty flag kept by WorktreeFacts: an index rewritten with fresh stat data only (what
// every `git status` anyone runs does) keeps the answer; a change of the index's content,
// of HEAD or of the working tree recounts. Real git in a scratch repository.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { digestOf, indexStamp } from '../../server/git/indexContent';
import { factsUnavailable, WorktreeFacts } from '../../server/git/worktreeFacts';
import { gitScratch } from '../helpers/gitScratch';

const REPO = path.resolve(__dirname, '..', '..');
const settle = () => new Promise((r) => setTimeout(r, 300)); // let the watches' events arrive

describe('worktree facts: the kept dirty flag', () => {
  const root = path.join(REPO, '.scratch', `unit-worktreefacts-${process.pid}`);
  const repo = path.join(root, 'repo');
  const wt = path.join(root, 'wt');
  const { git } = gitScratch(root);
  let facts: WorktreeFacts;
  let first: string;
  const read = async () => {
    const f = (await facts.ofRepo(repo, [wt])).get(wt);
    assert.ok(f && !factsUnavailable(f), `facts of ${wt}: ${JSON.stringify(f)}`);
    return f;
  };

  before(() => {
    fs.mkdirSync(repo, { recursive: true });
    git(repo, 'init', '-q', '--initial-branch=main');
    for (let i = 0; i < 20; i++) fs.writeFileSync(path.join(repo, `f${i}.txt`), `${i}\n`);
    git(repo, 'add', '.');
    git(repo, 'commit', '-qm', 'one');
    first = git(repo, 'rev-parse', 'HEAD');
    fs.writeFileSync(path.join(repo, 'f0.txt'), 'two\n');
    git(repo, 'commit', '-qam', 'two');
    git(repo, 'worktree', 'add', '-q', '-b', 'lane', wt, 'HEAD');
  });
  beforeEach(() => {
    facts = new WorktreeFacts();
  });
  afterEach(() => facts.close());
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('keeps the answer when the index is only refreshed (read-tree drops stat data, git status restores it)', async () => {
    assert.equal((await read()).dirty, false);
    assert.equal(facts.statusRuns, 1);
    const index = path.join(git(wt, 'rev-parse', '--absolute-git-dir'), 'index');
    const before = indexStamp(index);
    git(wt, 'read-tree', 'HEAD');
    git(wt, 'status', '--porcelain');
    assert.notEqual(indexStamp(index), before, 'the index file was rewritten');
    await settle();
    assert.equal((await read()).dirty, false);
    assert.equal((await read()).dirty, false);
    assert.equal(facts.statusRuns, 1);
  });

  it('recounts when the index content changes with no working-tree event (git rm --cached)', async () => {
    assert.equal((await read()).dirty, false);
    git(wt, 'rm', '-q', '--cached', 'f5.txt');
    assert.equal((await read()).dirty, true); // read at once: the index is judged on the read, not by its event
    assert.equal(facts.statusRuns, 2);
    git(wt, 'reset', '-q');
    assert.equal((await read()).dirty, false);
    assert.equal(facts.statusRuns, 3);
  });

  it('recounts when HEAD moves with the index and working tree untouched', async () => {
    assert.equal((await read()).dirty, false);
    const head = git(wt, 'rev-parse', 'HEAD');
    git(repo, 'update-ref', 'refs/heads/lane', first);
    await settle();
    const moved = await read();
    assert.equal(moved.headSha, first);
    assert.equal(moved.dirty, true);
    assert.equal(facts.statusRuns, 2);
    git(repo, 'update-ref', 'refs/heads/lane', head);
  });

  it('recounts on a working-tree change, and after it is undone', async () => {
    assert.equal((await read()).dirty, false);
    fs.writeFileSync(path.join(wt, 'new.txt'), 'x\n');
    await settle();
    assert.equal((await read()).dirty, true);
    fs.rmSync(path.join(wt, 'new.txt'));
    await settle();
    assert.equal((await read()).dirty, false);
    assert.equal(facts.statusRuns, 3);
  });

  it('digests an index of every version the same, and refuses a split index', () => {
    const index = path.join(git(wt, 'rev-parse', '--absolute-git-dir'), 'index');
    const digests = ['2', '3', '4'].map((v) => {
      git(wt, 'update-index', '--index-version', v);
      return digestOf(fs.readFileSync(index), 20);
    });
    assert.ok(digests[0]);
    assert.equal(digests[0].length, 40);
    // v3 without extended flags is v2 byte for byte; v4 compresses paths, so its digest differs.
    assert.equal(digests[1], digests[0]);
    assert.notEqual(digests[2], undefined);
    git(wt, 'update-index', '--index-version', '2');
    git(wt, 'update-index', '--split-index');
    assert.equal(digestOf(fs.readFileSync(index), 20), undefined);
    git(wt, 'update-index', '--no-split-index');
    assert.equal(digestOf(fs.readFileSync(index), 20), digests[0]);
  });
});

describe('worktree facts: a git that does not answer', () => {
  const root = path.join(REPO, '.scratch', `unit-worktreefacts-hang-${process.pid}`);
  const repo = path.join(root, 'repo');
  const ok = path.join(root, 'ok');
  const hung = path.join(root, 'hung');
  const { git } = gitScratch(root);

  before(() => {
    fs.mkdirSync(repo, { recursive: true });
    git(repo, 'init', '-q', '--initial-branch=main');
    fs.writeFileSync(path.join(repo, 'a.txt'), 'a\n');
    git(repo, 'add', '.');
    git(repo, 'commit', '-qm', 'one');
    git(repo, 'worktree', 'add', '-q', '-b', 'ok', ok, 'HEAD');
    git(repo, 'worktree', 'add', '-q', '-b', 'hung', hung, 'HEAD');
    // An index that is a FIFO: `git status` blocks opening it, as on a filesystem that stopped answering.
    const index = path.join(git(hung, 'rev-parse', '--absolute-git-dir'), 'index');
    fs.rmSync(index);
    execFileSync('mkfifo', [index]);
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('answers in time: the hung worktree is "facts unavailable", the others keep theirs', async () => {
    const facts = new WorktreeFacts({ timeoutMs: 400 });
    try {
      const t = Date.now();
      const found = await facts.ofRepo(repo, [ok, hung]);
      assert.ok(Date.now() - t < 3000, `answered after ${Date.now() - t} ms`);
      assert.deepEqual(found.get(hung), { unavailable: 'git did not answer within 0.4 s' });
      const fine = found.get(ok);
      assert.ok(fine && !factsUnavailable(fine));
      assert.equal(fine.branch, 'ok');
      assert.equal(fine.dirty, false);
      // Nothing was kept for the hung one: the next read asks git again (and gives up again).
      assert.deepEqual((await facts.ofRepo(repo, [hung])).get(hung), {
        unavailable: 'git did not answer within 0.4 s',
      });
    } finally {
      facts.close();
    }
  });
});
