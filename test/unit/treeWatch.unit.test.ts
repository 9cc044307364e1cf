// The worktree watch behind the kept dirty flags (server/git/treeWatch.ts): on Linux one
// inotify watch per folder, never per file, that still hears every change at any depth —
// including inside folders made, renamed or named in bytes that are not UTF-8 after the
// watch began — and lets go of folders that are gone. The inotify watches are counted
// from /proc/self/fdinfo, as the kernel keeps them.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MAX_WATCHED_DIRS, watchTree } from '../../server/git/treeWatch';
import type { TreeWatch } from '../../server/git/treeWatch';

const REPO = path.resolve(__dirname, '..', '..');

/** The inotify watches this process holds now. */
function inotifyWatches(): number {
  let n = 0;
  for (const fd of fs.readdirSync('/proc/self/fdinfo')) {
    try {
      n += (fs.readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8').match(/^inotify wd:/gm) ?? []).length;
    } catch {
      // closed meanwhile
    }
  }
  return n;
}

async function until(what: string, cond: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!cond()) {
    if (Date.now() > deadline) assert.fail(`not within 5 s: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

(process.platform === 'linux' ? describe : describe.skip)(
  'worktree watch: one inotify watch per folder (Linux)',
  () => {
    const root = path.join(REPO, '.scratch', `unit-treewatch-${process.pid}`);
    let n = 0;
    let dir: string;
    let heard: (string | null)[];
    let lost: number;
    let w: TreeWatch | undefined;
    const start = () => {
      w = watchTree(
        dir,
        (f) => heard.push(f),
        () => lost++,
      );
      return w;
    };
    const hears = (file: string) => until(`a change of ${file}`, () => heard.includes(file));

    beforeEach(() => {
      dir = path.join(root, `wt${++n}`);
      heard = [];
      lost = 0;
      for (const d of ['a', 'a/b', 'c'])
        for (let i = 0; i < 10; i++) {
          fs.mkdirSync(path.join(dir, d), { recursive: true });
          fs.writeFileSync(path.join(dir, d, `f${i}.txt`), `${i}\n`);
        }
      // A main checkout's git folder: watched apart, never walked.
      fs.mkdirSync(path.join(dir, '.git', 'objects', 'aa'), { recursive: true });
    });
    afterEach(() => {
      w?.close();
      w = undefined;
    });
    after(() => fs.rmSync(root, { recursive: true, force: true }));

    it('takes one watch per folder, not per file, and gives them all back on close', () => {
      const before = inotifyWatches();
      start();
      assert.equal(inotifyWatches() - before, 4, 'the worktree, a, a/b and c; none for the 30 files or .git');
      w!.close();
      assert.equal(inotifyWatches(), before);
    });

    it('hears a file written in a nested folder, and a new file in the top folder', async () => {
      start();
      fs.writeFileSync(path.join(dir, 'a', 'b', 'f3.txt'), 'changed\n');
      await hears(path.join('a', 'b', 'f3.txt'));
      fs.writeFileSync(path.join(dir, 'new.txt'), 'x');
      await hears('new.txt');
      assert.equal(lost, 0);
    });

    it('watches a folder made after it began, and what is made inside that later', async () => {
      start();
      const before = inotifyWatches();
      fs.mkdirSync(path.join(dir, 'made'));
      await hears('made');
      fs.mkdirSync(path.join(dir, 'made', 'deeper'));
      await hears(path.join('made', 'deeper'));
      fs.writeFileSync(path.join(dir, 'made', 'deeper', 'work.txt'), 'work');
      await hears(path.join('made', 'deeper', 'work.txt'));
      assert.equal(inotifyWatches() - before, 2);
    });

    it('follows a folder renamed inside the tree, and lets go of one removed', async () => {
      start();
      const before = inotifyWatches();
      fs.renameSync(path.join(dir, 'a'), path.join(dir, 'renamed'));
      await hears('renamed');
      fs.writeFileSync(path.join(dir, 'renamed', 'b', 'f1.txt'), 'after the rename');
      await hears(path.join('renamed', 'b', 'f1.txt'));
      fs.rmSync(path.join(dir, 'c'), { recursive: true });
      await hears('c');
      await until('the watches of the removed folder are given back', () => inotifyWatches() === before - 1);
      assert.equal(lost, 0);
    });

    it('watches a folder whose name is not UTF-8', async () => {
      start();
      const name = Buffer.from([0x6e, 0xe9, 0x77]); // "néw" in latin1
      const folder = Buffer.concat([Buffer.from(dir + path.sep), name]);
      fs.mkdirSync(folder);
      await until('the folder made', () => heard.length > 0);
      const count = heard.length;
      fs.writeFileSync(Buffer.concat([folder, Buffer.from('/work.txt')]), 'work');
      await until('a change inside it', () => heard.slice(count).some((f) => f?.endsWith('work.txt')));
    });

    it(`refuses a tree of more than ${MAX_WATCHED_DIRS} folders, keeping no watch; and says so when a tree grows past it`, async () => {
      const before = inotifyWatches();
      const many = path.join(dir, 'many');
      for (let i = 0; i < MAX_WATCHED_DIRS; i++) fs.mkdirSync(path.join(many, `d${i}`), { recursive: true });
      assert.throws(start, new RegExp(`more than ${MAX_WATCHED_DIRS} folders under `));
      assert.equal(inotifyWatches(), before);
      fs.rmSync(path.join(many, 'd0'), { recursive: true });
      fs.rmSync(path.join(many, 'd1'), { recursive: true });
      fs.rmSync(path.join(many, 'd2'), { recursive: true });
      fs.rmSync(path.join(many, 'd3'), { recursive: true });
      fs.rmSync(path.join(many, 'd4'), { recursive: true });
      start(); // the worktree, a, a/b, c, many and its 4,091 folders: MAX_WATCHED_DIRS
      fs.mkdirSync(path.join(dir, 'one-more'));
      await until('the watch says it can no longer see every change', () => lost === 1);
      assert.equal(inotifyWatches(), before, 'a watch that lost sight gives back every inotify watch');
    });
  },
);
