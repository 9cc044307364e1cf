// Every DirtyFlags implementation (server/git/dirtyFlags.ts) against git itself: random
// sequences of worktree mutations from a seeded PRNG (edit, same-size edit with its mtime put
// back, a restore of the committed bytes with the mtime put back, add, stage, delete, rename,
// chmod, commit, checkout, ignored files, index refresh, clean), and after each step the plain
// one, the kept one that has watched all along, a kept one just restarted over the same
// store, and the plain one answered through the facts keeper (keeperDirtyFlags.ts) — the one
// that has read all along and one just restarted over the same keeper — must each say what
// `git status` says: dirty or not, at the head and branch git shows.
// Real git, real SQLite; a bounded number of steps so it fits the unit tier.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { conversationMigrations } from '../../server/conversations/migrations';
import { factsUnavailable } from '../../server/git/dirtyFlags';
import type { DirtyFlags } from '../../server/git/dirtyFlags';
import { FactsKeeper } from '../../server/git/factsKeeper';
import { serveKeeper } from '../../server/git/factsKeeperServer';
import { KeeperDirtyFlags } from '../../server/git/keeperDirtyFlags';
import { KeeperLink } from '../../server/git/keeperLink';
import { PlainDirtyFlags } from '../../server/git/plainDirtyFlags';
import { WorktreeFacts } from '../../server/git/worktreeFacts';
import { keptFactsStore } from '../../server/lanes/keptFactsStore';
import { laneMigrations } from '../../server/lanes/migrations';
import { openDb } from '../../server/store/db';
import type { Db } from '../../server/store/db';
import { storeMigrations } from '../../server/store/migrations';
import { gitScratch } from '../helpers/gitScratch';
import { prng } from '../helpers/socketFuzz'; // mulberry32: a failing sequence replays by its seed

const REPO = path.resolve(__dirname, '..', '..');
const SEEDS = [1, 2];
const STEPS = 10;
/** Lets the kept one's watches see a step's events (and puts index writes after file writes). */
const settle = () => new Promise((r) => setTimeout(r, 150));

describe('dirty flags: plain and kept agree with git status over random mutations', function () {
  this.timeout(120_000);
  const root = path.join(REPO, '.scratch', `unit-dirtyflags-property-${process.pid}`);
  const { git } = gitScratch(root);

  after(() => fs.rmSync(root, { recursive: true, force: true }));

  for (const seed of SEEDS) {
    it(`seed ${seed}: ${STEPS} steps over two worktrees`, async () => {
      const base = path.join(root, `s${seed}`);
      const repo = path.join(base, 'repo');
      fs.mkdirSync(path.join(repo, 'src', 'deep'), { recursive: true });
      git(repo, 'init', '-q', '--initial-branch=main');
      for (let i = 0; i < 12; i++)
        fs.writeFileSync(path.join(repo, i % 2 ? 'src' : 'src/deep', `f${i}.txt`), `line ${i}\n`);
      fs.writeFileSync(path.join(repo, '.gitignore'), 'build/\n*.log\n');
      git(repo, 'add', '.');
      git(repo, 'commit', '-qm', 'one');
      const wts = [1, 2].map((n) => path.join(base, `wt${n}`));
      wts.forEach((wt, i) => git(repo, 'worktree', 'add', '-q', '-b', `lane${i + 1}`, wt, 'HEAD'));

      const db: Db = openDb(':memory:', [storeMigrations, conversationMigrations, laneMigrations]);
      const plain = new PlainDirtyFlags();
      const kept = new WorktreeFacts({ memory: keptFactsStore(db), parallel: 2 });
      const restartedDb: Db = openDb(':memory:', [storeMigrations, conversationMigrations, laneMigrations]);
      const keeperSocket = path.join(base, 'keeper.sock');
      const keeperServer = await serveKeeper(keeperSocket, new FactsKeeper(50_000));
      const viaKeeper = () => new KeeperDirtyFlags(new PlainDirtyFlags(), new KeeperLink(keeperSocket, base, 5000));
      const keeper = viaKeeper();
      let recalled = 0;
      const rnd = prng(seed);
      const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)];
      const tracked = (wt: string) => git(wt, 'ls-files').split('\n').filter(Boolean);
      /** Puts a file's mtime back to what it was, as a tool restoring a file would. */
      const keepTimes = (file: string, write: () => void) => {
        const st = fs.statSync(file);
        write();
        fs.utimesSync(file, st.atime, st.mtime);
      };

      const steps: Record<string, (wt: string) => string | undefined> = {
        edit: (wt) => {
          const f = pick(tracked(wt));
          fs.appendFileSync(path.join(wt, f), `more ${rnd()}\n`);
          return f;
        },
        sameSizeEdit: (wt) => {
          const f = path.join(wt, pick(tracked(wt)));
          const bytes = fs.readFileSync(f);
          if (bytes.length === 0) return undefined;
          bytes[0] = bytes[0] === 0x58 ? 0x59 : 0x58;
          keepTimes(f, () => fs.writeFileSync(f, bytes));
          return path.relative(wt, f);
        },
        restore: (wt) => {
          const f = pick(tracked(wt));
          const committed = Buffer.from(git(wt, 'show', `HEAD:${f}`) + '\n');
          keepTimes(path.join(wt, f), () => fs.writeFileSync(path.join(wt, f), committed));
          return f;
        },
        add: (wt) => {
          const f = path.join(rnd() < 0.5 ? 'src' : `new${Math.floor(rnd() * 3)}`, `n${Math.floor(rnd() * 1000)}.txt`);
          fs.mkdirSync(path.join(wt, path.dirname(f)), { recursive: true });
          fs.writeFileSync(path.join(wt, f), 'new\n');
          return f;
        },
        stage: (wt) => {
          git(wt, 'add', '-A');
          return '-A';
        },
        delete: (wt) => {
          const f = pick(tracked(wt));
          fs.rmSync(path.join(wt, f));
          return f;
        },
        rename: (wt) => {
          const f = pick(tracked(wt));
          const to = path.join(path.dirname(f), `r${Math.floor(rnd() * 1000)}-${path.basename(f)}`);
          git(wt, 'mv', f, to);
          return `${f} → ${to}`;
        },
        chmod: (wt) => {
          const f = path.join(wt, pick(tracked(wt)));
          fs.chmodSync(f, fs.statSync(f).mode & 0o100 ? 0o644 : 0o755);
          return path.relative(wt, f);
        },
        commit: (wt) => {
          git(wt, 'add', '-A');
          git(wt, 'commit', '-q', '--allow-empty', '-m', `step ${rnd()}`);
          return undefined;
        },
        checkout: (wt) => {
          const other = wts.find((w) => w !== wt)!;
          git(
            wt,
            '-c',
            'advice.detachedHead=false',
            'checkout',
            '-q',
            '-f',
            '--detach',
            git(other, 'rev-parse', 'HEAD'),
          );
          return 'the other lane’s head';
        },
        ignored: (wt) => {
          fs.mkdirSync(path.join(wt, 'build'), { recursive: true });
          fs.writeFileSync(path.join(wt, rnd() < 0.5 ? 'build/out.bin' : 'run.log'), `${rnd()}`);
          return undefined;
        },
        refresh: (wt) => {
          git(wt, 'status', '--porcelain'); // writes the index's fresh stat data
          return undefined;
        },
        clean: (wt) => {
          git(wt, 'reset', '-q', '--hard');
          git(wt, 'clean', '-qfd');
          return undefined;
        },
      };
      const names = Object.keys(steps);
      const expectAll = async (label: string) => {
        await settle();
        // One thread: each restart starts its worker threads afresh, and a thread's start is most of its cost.
        const restarted = new WorktreeFacts({ memory: keptFactsStore(restartedDb), parallel: 1 });
        const keeperRestarted = viaKeeper();
        try {
          const impls: [string, DirtyFlags][] = [
            ['plain', plain],
            ['kept', kept],
            ['kept after a restart', restarted],
            ['keeper', keeper],
            ['keeper after a restart', keeperRestarted],
          ];
          for (const [name, impl] of impls) {
            // The keeper's readers are given the repository's git dir, as own lanes give theirs.
            const got = await impl.ofRepo(impl instanceof KeeperDirtyFlags ? path.join(repo, '.git') : repo, wts);
            for (const wt of wts) {
              const f = got.get(wt);
              assert.ok(f && !factsUnavailable(f), `${label}: ${name} has no facts of ${wt}: ${JSON.stringify(f)}`);
              const dirty = git(wt, '--no-optional-locks', 'status', '--porcelain') !== '';
              assert.equal(
                f.dirty,
                dirty,
                `${label}: ${name} says ${path.basename(wt)} is ${f.dirty ? 'dirty' : 'clean'}`,
              );
              assert.equal(f.headSha, git(wt, 'rev-parse', 'HEAD'), `${label}: ${name}'s head of ${wt}`);
              const branch = git(wt, 'branch', '--show-current');
              assert.equal(f.branch, branch === '' ? null : branch, `${label}: ${name}'s branch of ${wt}`);
            }
          }
        } finally {
          restarted.close(); // writes its kept answers for the next step's restart
          recalled += keeperRestarted.recalled;
          keeperRestarted.close();
        }
      };
      try {
        await expectAll(`seed ${seed}, before any step`);
        for (let i = 0; i < STEPS; i++) {
          const wt = pick(wts);
          const step = pick(names);
          const what = steps[step](wt);
          await expectAll(`seed ${seed}, step ${i + 1}: ${step}${what ? ` ${what}` : ''} in ${path.basename(wt)}`);
        }
        // The keeper answered some lanes without git (a step changes one lane of two at most).
        assert.ok(recalled > 0, 'no lane was answered from the keeper after a restart');
      } finally {
        keeper.close();
        keeperServer.close();
        plain.close();
        kept.close();
        db.close();
        restartedDb.close();
      }
    });
  }
});
