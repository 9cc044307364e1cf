// The facts keeper: the git facts of lanes with a repository of their own, kept under
// inotify watches in a process that outlives the daemon, so the first `lane list` after a
// daemon restart answers untouched lanes without a `git status` (issue 43). The daemon's own
// watches die with it, and without a watch nothing short of reading every tracked file's
// stat data (what `git status` does) can say a lane is still clean.
//
// A kept answer is only ever one nothing could have changed: the watches on the worktree
// and on its repository's git dir are in place BEFORE the daemon starts the git commands it
// reads (`watch` answers the generation then), every change heard bumps the generation, and
// `keep` is refused when the generation moved meanwhile. Any change later drops the answer,
// except a rewrite of the worktree's index that leaves its entries as they were (every
// `git status` without --no-optional-locks refreshes the index's stat data): that keeps the
// answer when the index's content digest (indexContent.ts) is still the one taken when the
// watch began. A watch that can no longer see every change (an overflow, a new folder past
// the bound) keeps nothing until it is set up again.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { GitFacts } from './git';
import { digestOf, indexStamp } from './indexContent';
import { watchTree } from './treeWatch';
import type { TreeWatch } from './treeWatch';
import { worktreeGitDir } from './factsTasks';

interface Kept {
  facts: GitFacts;
  /** What else the answer depended on (the global git config and excludes files), as the daemon stamped it. */
  context: string;
  /** The index's content digest when the read began (undefined: unknown, so no rewrite is forgiven). */
  digest: string | undefined;
  /** The index file's identity on disk then: unchanged, it was not rewritten (only index.lock came and went). */
  stamp: string | undefined;
  /** The index was rewritten since: its digest must still be `digest` for the answer to hold. */
  touched: boolean;
}

interface Watched {
  commonDir: string;
  watches: TreeWatch[];
  /** Changes heard so far; an answer read at one generation holds only at the same one. */
  gen: number;
  /** A watch lost sight of some change: nothing is kept until the watch is set up again. */
  lost: boolean;
  /** The index, relative to commonDir (`worktrees/<name>/index`), and its path. */
  indexRel: string;
  indexFile: string;
  hashBytes: number;
  /**
   * The index's content digest taken by the last `watch`, at generation `digestGen`: the
   * digest of what a read begun then will see, as long as the generation has not moved.
   */
  digest: string | undefined;
  stamp: string | undefined;
  digestGen: number;
  /** Folders this watch holds (the whole keeper holds at most its budget). */
  folders: number;
  kept?: Kept;
  /** When it was last asked about, for letting the oldest go. */
  used: number;
}

export class FactsKeeper {
  private readonly watched = new Map<string, Watched>();
  private folders = 0;
  private clock = 0;

  /** `folderBudget`: inotify watches this keeper may hold in all (the person's editor shares the kernel's limit). */
  constructor(private readonly folderBudget: number) {}

  /**
   * Makes sure `dir` and `commonDir` are watched, and answers the generation an answer read
   * from now on is counted at; or why they cannot be watched.
   */
  watch(dir: string, commonDir: string): { gen: number } | { unwatched: string } {
    const had = this.watched.get(dir);
    if (had && !had.lost && had.commonDir === commonDir) {
      had.used = ++this.clock;
      // The index may have changed since the digest was taken (each change bumped the
      // generation): taken again for the read that begins now.
      if (had.digestGen !== had.gen) {
        had.stamp = indexStamp(had.indexFile);
        had.digest = readDigest(had.indexFile, had.hashBytes);
        had.digestGen = had.gen;
      }
      return { gen: had.gen };
    }
    if (had) this.forget(dir);
    const gitDir = real(worktreeGitDir(dir));
    const common = real(commonDir);
    if (!gitDir || !common) return { unwatched: `${dir} is not a git worktree of ${commonDir}` };
    const indexFile = path.join(gitDir, 'index');
    const indexRel = path.relative(common, indexFile);
    if (indexRel.startsWith('..') || path.isAbsolute(indexRel))
      return { unwatched: `${dir}'s git dir is not under ${commonDir}` };
    const w: Watched = {
      commonDir,
      watches: [],
      gen: 0,
      lost: false,
      indexRel,
      indexFile,
      hashBytes: hashBytesOfRepo(common),
      digest: undefined,
      stamp: undefined,
      digestGen: -1,
      folders: 0,
      used: ++this.clock,
    };
    try {
      for (const root of [dir, common]) {
        const t = watchTree(
          root,
          (file) => this.heard(w, root === common ? file : null),
          () => this.lostSight(w),
        );
        w.watches.push(t);
      }
    } catch (e) {
      for (const t of w.watches) t.close();
      return { unwatched: e instanceof Error ? e.message : String(e) };
    }
    w.folders = w.watches.reduce((n, t) => n + (t.size?.() ?? 1), 0);
    this.makeRoom(w.folders);
    if (this.folders + w.folders > this.folderBudget) {
      for (const t of w.watches) t.close();
      return { unwatched: `the keeper's ${this.folderBudget} folder watches are taken` };
    }
    this.folders += w.folders;
    // Taken after the watches are in place: any change to the index from now on is heard.
    w.stamp = indexStamp(indexFile);
    w.digest = readDigest(indexFile, w.hashBytes);
    w.digestGen = w.gen;
    this.watched.set(dir, w);
    return { gen: w.gen };
  }

  keep(dir: string, gen: number, facts: GitFacts, context: string): boolean {
    const w = this.watched.get(dir);
    if (!w || w.lost || w.gen !== gen) return false;
    const same = w.digestGen === gen;
    w.kept = {
      facts,
      context,
      digest: same ? w.digest : undefined,
      stamp: same ? w.stamp : undefined,
      touched: false,
    };
    return true;
  }

  /** The kept facts of `dir` when nothing it depends on changed since they were read. */
  recall(dir: string, context: string): GitFacts | undefined {
    const w = this.watched.get(dir);
    if (!w?.kept || w.lost) return undefined;
    w.used = ++this.clock;
    if (w.kept.context !== context) return this.drop(w);
    if (w.kept.touched) {
      // The same file on disk was not rewritten: a status took index.lock and let it go.
      // Otherwise its entries are compared (30,000 of them: ~3 MB read and hashed).
      const stamp = indexStamp(w.indexFile);
      if (stamp === undefined || stamp !== w.kept.stamp) {
        const now = readDigest(w.indexFile, w.hashBytes);
        if (now === undefined || now !== w.kept.digest) return this.drop(w);
        w.kept.stamp = stamp;
      }
      w.kept.touched = false;
    }
    return w.kept.facts;
  }

  forget(dir: string): void {
    const w = this.watched.get(dir);
    if (!w) return;
    for (const t of w.watches) t.close();
    this.folders -= w.folders;
    this.watched.delete(dir);
  }

  close(): void {
    for (const dir of [...this.watched.keys()]) this.forget(dir);
  }

  /** Worktrees watched now (tests read it). */
  get size(): number {
    return this.watched.size;
  }

  /**
   * A change under the worktree (`gitRel` null) or under the git dir (`gitRel` relative to
   * it; null when the platform did not name it).
   */
  private heard(w: Watched, gitRel: string | null): void {
    w.gen++;
    if (!w.kept) return;
    const indexOnly = gitRel !== null && (gitRel === w.indexRel || gitRel === `${w.indexRel}.lock`);
    if (indexOnly && w.kept.digest !== undefined) w.kept.touched = true;
    else w.kept = undefined;
  }

  private lostSight(w: Watched): void {
    w.lost = true;
    w.kept = undefined;
  }

  private drop(w: Watched): undefined {
    w.kept = undefined;
    return undefined;
  }

  /** Lets the least recently asked-about worktrees go until `folders` more fit the budget. */
  private makeRoom(folders: number): void {
    while (this.folders + folders > this.folderBudget) {
      let oldest: [string, Watched] | undefined;
      for (const e of this.watched) if (!oldest || e[1].used < oldest[1].used) oldest = e;
      if (!oldest) return;
      this.forget(oldest[0]);
    }
  }
}

function real(p: string | undefined): string | undefined {
  try {
    return p === undefined ? undefined : fs.realpathSync(p);
  } catch {
    return undefined;
  }
}

/**
 * The digest of the index at `file`, read only when it is a regular file: the index is in the
 * lane's own git dir, which the lane writes, and a FIFO or device there must not hold the
 * keeper's thread (O_NONBLOCK, checked before reading) nor a link lead it elsewhere.
 */
function readDigest(file: string, hashBytes: number): string | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    return fs.fstatSync(fd).isFile() ? digestOf(fs.readFileSync(fd), hashBytes) : undefined;
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/** 32 for a SHA-256 repository, else 20 (its config says so; the keeper never runs git). */
function hashBytesOfRepo(commonDir: string): number {
  try {
    return /^\s*objectformat\s*=\s*sha256\s*$/im.test(fs.readFileSync(path.join(commonDir, 'config'), 'utf8'))
      ? 32
      : 20;
  } catch {
    return 20;
  }
}
