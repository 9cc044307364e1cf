// The first lane list after a daemon restart: a clean answer kept in the store is re-checked
// against the files instead of recounted with git status, and any change made while no
// daemon watched (a tracked file edited, a new untracked file, a staged change, HEAD moved)
// is recounted, never reported clean. Each "restart" is a new WorktreeFacts on the same
// store; real git, real SQLite.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { conversationMigrations } from '../../server/conversations/migrations';
import { laneMigrations } from '../../server/lanes/migrations';
import { storeMigrations } from '../../server/store/migrations';
import { factsUnavailable, WorktreeFacts } from '../../server/git/worktreeFacts';
import { withoutBranchSections } from '../../server/git/branchSections';
import { keptFactsStore } from '../../server/lanes/keptFactsStore';
import { openDb } from '../../server/store/db';
import type { Db } from '../../server/store/db';
import { gitScratch } from '../helpers/gitScratch';

const REPO = path.resolve(__dirname, '..', '..');
// Files written in the same instant as the index are "racily clean" and recounted, as git
// itself treats them; a short pause puts the index write after them.
const pause = () => new Promise((r) => setTimeout(r, 20));

describe('worktree facts across a daemon restart', () => {
  const root = path.join(REPO, '.scratch', `unit-worktreefacts-restart-${process.pid}`);
  const repo = path.join(root, 'repo');
  const { git } = gitScratch(root);
  let db: Db;
  let n = 0;
  let wt: string;
  const open: WorktreeFacts[] = [];
  /** A daemon: its own WorktreeFacts over the one store. */
  const daemon = () => {
    const f = new WorktreeFacts({ memory: keptFactsStore(db) });
    open.push(f);
    return f;
  };
  const read = async (facts: WorktreeFacts) => {
    const f = (await facts.ofRepo(repo, [wt])).get(wt);
    assert.ok(f && !factsUnavailable(f), `facts of ${wt}: ${JSON.stringify(f)}`);
    return f;
  };
  /** Counted clean by one daemon, which then stops. */
  const countedClean = async () => {
    const f = daemon();
    assert.equal((await read(f)).dirty, false);
    assert.equal(f.statusRuns, 1);
    f.close();
  };

  before(() => {
    fs.mkdirSync(path.join(repo, 'src', 'deep'), { recursive: true });
    git(repo, 'init', '-q', '--initial-branch=main');
    for (let i = 0; i < 20; i++) fs.writeFileSync(path.join(repo, i % 2 ? 'src' : 'src/deep', `f${i}.txt`), `${i}\n`);
    fs.writeFileSync(path.join(repo, '.gitignore'), 'build/\n');
    git(repo, 'add', '.');
    git(repo, 'commit', '-qm', 'one');
  });
  beforeEach(async () => {
    db = openDb(':memory:', [storeMigrations, conversationMigrations, laneMigrations]);
    wt = path.join(root, `wt${++n}`);
    git(repo, 'worktree', 'add', '-q', '-b', `lane${n}`, wt, 'HEAD');
    await pause();
    git(wt, 'status', '--porcelain'); // the index written after every file, as git leaves it after a checkout settles
  });
  afterEach(() => {
    for (const f of open.splice(0)) f.close();
    db.close();
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('an unchanged clean worktree is re-checked, not recounted, and stays clean and current', async () => {
    await countedClean();
    const restarted = daemon();
    assert.equal((await read(restarted)).dirty, false);
    assert.equal(restarted.statusRuns, 0);
    assert.equal(restarted.rechecks, 1);
    // No watch was set up before that answer (a recursive watch walks the whole tree); it follows.
    assert.equal(restarted.watched, 0);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(restarted.watched, 1);
    // The re-checked answer is watched like a counted one.
    fs.writeFileSync(path.join(wt, 'src', 'f1.txt'), 'changed\n');
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await read(restarted)).dirty, true);
    assert.equal(restarted.statusRuns, 1);
  });

  const changes: [string, () => void][] = [
    ['a tracked file edited in place (same size)', () => fs.writeFileSync(path.join(wt, 'src', 'f1.txt'), '9\n')],
    ['a new untracked file deep in the tree', () => fs.writeFileSync(path.join(wt, 'src', 'deep', 'new.txt'), 'x\n')],
    ['a new untracked file in a new directory', () => fs.mkdirSync(path.join(wt, 'more'))],
    ['a tracked file removed', () => fs.rmSync(path.join(wt, 'src', 'f3.txt'))],
    [
      'a change staged',
      () => {
        fs.writeFileSync(path.join(wt, 'src', 'f5.txt'), 'staged\n');
        git(wt, 'add', 'src/f5.txt');
      },
    ],
    [
      'HEAD moved to a commit with other content',
      () => {
        fs.writeFileSync(path.join(repo, 'src', 'f1.txt'), 'main moved\n');
        git(repo, 'commit', '-qam', `moved ${n}`);
        git(wt, 'reset', '-q', '--soft', git(repo, 'rev-parse', 'main'));
      },
    ],
    [
      'a tracked file edited with its size and modification time put back',
      () => {
        const file = path.join(wt, 'src', 'f7.txt');
        const before = path.join(root, `f7-before-${n}`);
        execFileSync('cp', ['-p', file, before]); // the exact mtime, to the nanosecond
        fs.writeFileSync(file, '8\n');
        execFileSync('touch', ['-r', before, file]);
        assert.equal(fs.statSync(file, { bigint: true }).mtimeNs, fs.statSync(before, { bigint: true }).mtimeNs);
      },
    ],
    [
      'a commit of one of two edited files',
      () => {
        fs.writeFileSync(path.join(wt, 'src', 'f9.txt'), 'committed\n');
        fs.writeFileSync(path.join(wt, 'src', 'f11.txt'), 'left\n');
        git(wt, 'commit', '-qm', `part ${n}`, 'src/f9.txt');
      },
    ],
    [
      "the lane's branch moved from another checkout to a commit with other content",
      () => {
        fs.writeFileSync(path.join(repo, 'src', 'f13.txt'), `main moved again ${n}\n`);
        git(repo, 'commit', '-qam', `moved again ${n}`);
        git(repo, 'update-ref', `refs/heads/lane${n}`, git(repo, 'rev-parse', 'main'));
      },
    ],
  ];
  for (const [what, change] of changes) {
    it(`recounts after ${what} while no daemon ran, and says dirty`, async () => {
      await countedClean();
      change();
      if (what.includes('new directory')) fs.writeFileSync(path.join(wt, 'more', 'file.txt'), 'x\n');
      const restarted = daemon();
      const f = await read(restarted);
      assert.equal(f.dirty, true, `${what}: ${git(wt, 'status', '--porcelain')}`);
      assert.equal(restarted.statusRuns, 1);
      assert.equal(restarted.rechecks, 0);
    });
  }

  it('an ignored file created meanwhile still recounts (its directory changed), and the answer is clean', async () => {
    await countedClean();
    fs.mkdirSync(path.join(wt, 'build'));
    const restarted = daemon();
    assert.equal((await read(restarted)).dirty, false);
    assert.equal(restarted.statusRuns, 1);
    // Counted again and kept: the next restart re-checks.
    restarted.close();
    const again = daemon();
    assert.equal((await read(again)).dirty, false);
    assert.equal(again.statusRuns, 0);
  });

  it('a commit that leaves the worktree clean is recounted, and the restart says clean at the new head', async () => {
    await countedClean();
    fs.writeFileSync(path.join(wt, 'src', 'f15.txt'), 'all committed\n');
    git(wt, 'commit', '-qam', `all ${n}`);
    const restarted = daemon();
    const f = await read(restarted);
    assert.equal(f.dirty, false);
    assert.equal(f.headSha, git(wt, 'rev-parse', 'HEAD'));
    assert.equal(restarted.statusRuns, 1);
    assert.equal(restarted.rechecks, 0);
  });

  it("a branch's upstream written to the shared config meanwhile (every lane start does) keeps the re-check", async () => {
    await countedClean();
    git(repo, 'config', `branch.other${n}.remote`, 'origin');
    git(repo, 'config', `branch.other${n}.merge`, `refs/heads/other${n}`);
    const restarted = daemon();
    assert.equal((await read(restarted)).dirty, false);
    assert.equal(restarted.statusRuns, 0);
    assert.equal(restarted.rechecks, 1);
  });

  it('any other change of the shared config meanwhile recounts', async () => {
    await countedClean();
    git(repo, 'config', 'core.excludesFile', path.join(root, `excludes-${n}`));
    try {
      const restarted = daemon();
      assert.equal((await read(restarted)).dirty, false);
      assert.equal(restarted.statusRuns, 1);
      assert.equal(restarted.rechecks, 0);
    } finally {
      git(repo, 'config', '--unset', 'core.excludesFile');
    }
  });

  it("leaves out only what is surely a branch section of a config's text", () => {
    const text = [
      '[core]',
      '\tbare = false',
      '[branch "a/b"]',
      '\tremote = origin',
      '\tmerge = refs/heads/a/b',
      '[status]',
      '\tshowUntrackedFiles = all',
      '[branch "q\\"x"]',
      '\tremote = o',
      '[Branch "c"]',
      '\tremote = o',
    ].join('\n');
    assert.equal(
      withoutBranchSections(text),
      ['[core]', '\tbare = false', '[status]', '\tshowUntrackedFiles = all', '[Branch "c"]', '\tremote = o'].join('\n'),
    );
    // A value continued on the next line could make that line read like a header: not filtered at all.
    assert.equal(withoutBranchSections('[alias]\n\tx = a \\\n[branch "b"]\n\tremote = o\n'), undefined);
  });

  it('a dirty answer is never kept: a restart recounts it', async () => {
    fs.writeFileSync(path.join(wt, 'untracked.txt'), 'x\n');
    const f = daemon();
    assert.equal((await read(f)).dirty, true);
    f.close();
    const restarted = daemon();
    assert.equal((await read(restarted)).dirty, true);
    assert.equal(restarted.statusRuns, 1);
    assert.equal(db.prepare('SELECT COUNT(*) FROM kept_worktree_facts WHERE dir = ?').pluck().get(wt), 0);
  });

  it('a reaped lane forgets its kept answer', async () => {
    await countedClean();
    assert.equal(db.prepare('SELECT COUNT(*) FROM kept_worktree_facts WHERE dir = ?').pluck().get(wt), 1);
    daemon().forget(wt);
    assert.equal(db.prepare('SELECT COUNT(*) FROM kept_worktree_facts WHERE dir = ?').pluck().get(wt), 0);
  });
});
