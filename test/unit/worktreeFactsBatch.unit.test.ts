// Many lanes no one has counted yet (new lanes, a first list) are recounted in a few
// batches, one `git for-each-repo` process each, instead of one `git status` process per
// lane: each lane's dirty flag must be exactly what its own `git status` says, whatever its
// change, and a batch that does not answer (a worktree whose git hangs) leaves each lane to
// its own run. Real git in a scratch repository.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { dirtyOfEach } from '../../server/git/statusBatch';
import { factsUnavailable, WorktreeFacts } from '../../server/git/worktreeFacts';
import { gitScratch } from '../helpers/gitScratch';

const REPO = path.resolve(__dirname, '..', '..');

describe('worktree facts: recounts in batches', () => {
  const root = path.join(REPO, '.scratch', `unit-worktreefacts-batch-${process.pid}`);
  const repo = path.join(root, 'repo');
  const { git } = gitScratch(root);
  const open: WorktreeFacts[] = [];
  const facts = (opts: { parallel: number; timeoutMs?: number }) => {
    const f = new WorktreeFacts(opts);
    open.push(f);
    return f;
  };
  /** Each worktree and the change made in it; the flag is what that worktree's own `git status` says. */
  const changes: [string, (wt: string) => void][] = [
    ['clean', () => undefined],
    ['a tracked file edited', (wt) => fs.appendFileSync(path.join(wt, 'a.txt'), 'more\n')],
    ['an untracked file', (wt) => fs.writeFileSync(path.join(wt, 'new.txt'), 'new\n')],
    [
      'an untracked file in a new folder',
      (wt) => {
        fs.mkdirSync(path.join(wt, 'sub', 'deep'), { recursive: true });
        fs.writeFileSync(path.join(wt, 'sub', 'deep', 'x.txt'), 'x\n');
      },
    ],
    ['only an ignored file', (wt) => fs.writeFileSync(path.join(wt, 'build.log'), 'log\n')],
    ['a staged new file', (wt) => (fs.writeFileSync(path.join(wt, 'staged.txt'), 's\n'), git(wt, 'add', 'staged.txt'))],
    ['a tracked file deleted', (wt) => fs.rmSync(path.join(wt, 'b.txt'))],
    // A rename's original path is a field of its own, and this one reads like the next worktree's header.
    ['a rename from "# branch.oid x"', (wt) => git(wt, 'mv', '# branch.oid x', 'renamed.txt')],
    ['clean again', () => undefined],
    ['an empty new folder only', (wt) => fs.mkdirSync(path.join(wt, 'empty'))],
    ['a tracked file emptied', (wt) => fs.writeFileSync(path.join(wt, 'a.txt'), '')],
    ['clean at the end', () => undefined],
  ];
  const dirs = changes.map((_, i) => path.join(root, `wt${i}`));

  before(() => {
    fs.mkdirSync(repo, { recursive: true });
    git(repo, 'init', '-q', '--initial-branch=main');
    fs.writeFileSync(path.join(repo, 'a.txt'), 'a\n');
    fs.writeFileSync(path.join(repo, 'b.txt'), 'b\n');
    fs.writeFileSync(path.join(repo, '# branch.oid x'), 'odd\n');
    fs.writeFileSync(path.join(repo, '.gitignore'), '*.log\n');
    git(repo, 'add', '.');
    git(repo, 'commit', '-qm', 'one');
    changes.forEach(([, change], i) => {
      git(repo, 'worktree', 'add', '-q', '-b', `lane${i}`, dirs[i], 'HEAD');
      change(dirs[i]);
    });
  });
  afterEach(() => {
    for (const f of open.splice(0)) f.close();
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('gives each lane the dirty flag its own git status gives, from one process per batch', async () => {
    const f = facts({ parallel: 3 });
    const found = await f.ofRepo(repo, dirs);
    const dirty = dirs.map((d) => {
      const x = found.get(d);
      assert.ok(x && !factsUnavailable(x), `${d}: ${JSON.stringify(x)}`);
      return x.dirty;
    });
    const own = dirs.map((d) => git(d, 'status', '--porcelain', '--untracked-files=normal') !== '');
    assert.deepEqual(dirty, own);
    assert.deepEqual(dirty, [false, true, true, true, false, true, true, true, false, false, true, false]);
    assert.equal(f.statusRuns, 12);
    assert.equal(f.statusProcesses, 3); // three batches of four, not twelve processes
    assert.deepEqual(
      dirs.map((d) => (found.get(d) as { branch: string }).branch),
      dirs.map((_, i) => `lane${i}`),
    );
  });

  it('recounts lane by lane when no more lanes need it than may run at once', async () => {
    const f = facts({ parallel: 4 });
    const found = await f.ofRepo(repo, dirs.slice(0, 4));
    assert.deepEqual(
      dirs.slice(0, 4).map((d) => (found.get(d) as { dirty: boolean }).dirty),
      [false, true, true, true],
    );
    assert.equal(f.statusRuns, 4);
    assert.equal(f.statusProcesses, 4);
  });

  it('a batch with a worktree whose git hangs: that lane is "facts unavailable", the others keep theirs', async () => {
    const hung = path.join(root, 'hung');
    git(repo, 'worktree', 'add', '-q', '-b', 'hung', hung, 'HEAD');
    // An index that is a FIFO: `git status` blocks opening it, as on a filesystem that stopped answering.
    const index = path.join(git(hung, 'rev-parse', '--absolute-git-dir'), 'index');
    fs.rmSync(index);
    execFileSync('mkfifo', [index]);
    try {
      // Long enough for the two quick lanes before the hung one to answer even on a loaded machine.
      const f = facts({ parallel: 2, timeoutMs: 1500 });
      const some = [dirs[0], dirs[1], hung, dirs[2], dirs[8]];
      const t = Date.now();
      const found = await f.ofRepo(repo, some);
      // The batch's bound, then the hung lane's own: two bounds, not one per lane.
      assert.ok(Date.now() - t < 6000, `answered after ${Date.now() - t} ms`);
      assert.deepEqual(found.get(hung), { unavailable: 'git did not answer within 1.5 s' });
      assert.deepEqual(
        [dirs[0], dirs[1], dirs[2], dirs[8]].map((d) => (found.get(d) as { dirty: boolean }).dirty),
        [false, true, true, false],
      );
      // Two batches ([0, 1, hung] and [2, 8]); the first, given up on, keeps the answer it
      // surely holds (lane 0; lane 1's may be cut short) and runs lane 1 and the hung one alone.
      assert.equal(f.statusProcesses, 4);
      assert.equal(f.statusRuns, 5);
    } finally {
      fs.rmSync(index);
      git(repo, 'worktree', 'remove', '--force', hung);
    }
  });

  it('tells the worktrees apart by their branch headers only', () => {
    const out = (fields: string[]) => Buffer.from(fields.map((x) => `${x}\0`).join(''), 'latin1');
    assert.deepEqual(
      dirtyOfEach(
        out([
          '# branch.oid abc',
          '# branch.head a',
          '# branch.oid abc',
          '# branch.head b',
          '2 R. N... 100644 100644 100644 1 1 R100 new',
          '# branch.oid x',
          '# branch.oid def',
          '# branch.head (detached)',
          '# branch.oid (initial)',
          '# branch.head c',
          '? untracked',
        ]),
      ),
      [false, true, false, true],
    );
    assert.deepEqual(dirtyOfEach(Buffer.alloc(0)), []);
    assert.throws(() => dirtyOfEach(out(['? before any header'])), /before its branch header/);
  });
});
