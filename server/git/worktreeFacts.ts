// Git facts of many worktrees at once, for `svc lane list` and the Command Deck.
// Branch and head come from ONE `git worktree list` per repository, ahead counts from
// ONE `git for-each-ref` per repository. Only the dirty flag needs a `git status` per
// worktree, and that answer is kept until the worktree or its index changes (inotify
// watches on the worktree and on its git dir, and HEAD as the listing shows it), so a
// second read of an untouched lane costs no process at all. Facts are still current on
// every read: any change invalidates the kept answer before the next read can see it.
// The index is the exception: every `git status` anyone runs refreshes its stat data, and
// that changes nothing the list shows. An index whose entries (indexContent.ts) are the
// ones the kept answer saw keeps the answer; only a change of content recounts.
// A clean answer is also kept in the store with what it depended on (worktreeRecheck.ts), so
// the first list after a daemon restart re-checks those lanes by their files' stat data
// instead of running `git status` in every one; a lane that changed meanwhile is recounted.
// Every git here answers within FACTS_TIMEOUT_MS or is given up on: a worktree whose git
// hangs (a network filesystem, a file that never answers) lists as "facts unavailable:
// git did not answer within 5 s" instead of holding the whole list.
// Nothing here whose cost grows with a repository's size runs on the daemon's thread: the
// re-checks, the snapshots a kept answer depends on and the index digests run on worker
// threads (factsWorkers.ts), the statuses in git's own processes. So a list of many large
// lanes holds no other request, and the timers bounding git fire on time.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { logger } from '../util/log';
import type { DirtyFlags, FactsUnavailable } from './dirtyFlags';
import { git } from './git';
import type { GitFacts } from './git';
import { cleanGitEnvironment, FACTS_TIMEOUT_MS, GitTimeout } from './gitExec';
import { worktreeGitDir } from './factsTasks';
import type { FactsTask, FactsTaskResult, RecheckResult, Snapshot } from './factsTasks';
import { FactsWorkers } from './factsWorkers';
import { indexStamp } from './indexContent';
import { MAX_BATCH, statusOfMany } from './statusBatch';
import { watchTree } from './treeWatch';
import type { TreeWatch as Watch } from './treeWatch';
import { Recounts, Slots } from './factsQueues';
import { branchTracking, factsOf, realOr, worktreeList } from './worktreeList';
import { hashBytesOf } from './worktreeRecheck';
import type { KeptClean, Rechecked } from './worktreeRecheck';

/** Where clean answers outlive the daemon (the store); see worktreeRecheck.ts. */
export interface FactsMemory {
  recall(dir: string): KeptClean | undefined;
  keep(dir: string, kept: KeptClean): void;
  drop(dir: string): void;
  /** Writes what keep and drop left waiting (a store writes them at once, not per lane). */
  flush?(): void;
}

export { factsUnavailable } from './dirtyFlags';
export type { FactsUnavailable } from './dirtyFlags';

const log = logger('git-facts');

/** Between two worktrees' watch set-ups: long enough for a finished read's answer to be written. */
const WATCH_PAUSE_MS = 1;

interface DirtyEntry {
  valid: boolean;
  dirty: boolean;
  /** Both watches are in place; without them a kept answer could go stale, so none is kept. */
  trusted: boolean;
  watchers: Watch[];
  /** The worktree's git dir and index file, when known. */
  gitDir?: string;
  indexFile?: string;
  /** What the kept answer was counted against: HEAD, and the index on disk and by content. */
  head?: string | null;
  stamp?: string;
  digest?: string;
}

/** The kept implementation of DirtyFlags (dirtyFlags.ts; `git.dirty_flags: kept`). */
export class WorktreeFacts implements DirtyFlags {
  private readonly dirtyCache = new Map<string, DirtyEntry>();
  /** `git status` runs so far (tests and benchmarks read it to see what was recounted). */
  statusRuns = 0;
  /** Lanes found still clean by a re-check of a kept answer, without git. */
  rechecks = 0;
  /** Processes those runs took: fewer than the runs when a read recounted many lanes in batches. */
  statusProcesses = 0;
  /** Worktrees whose watches are set up (tests read it to see none delays an answer). */
  watched = 0;
  private readonly timeoutMs: number;
  /** Git's environment, built once: a first list runs git in every lane. */
  private readonly env = cleanGitEnvironment();
  /** `git status` runs at once: a cold list of 1,000 lanes must not start 1,000 processes together. */
  private readonly slots: Slots;
  /** The threads the file-system work runs on, as many as the git runs at once. */
  private readonly workers: FactsWorkers;
  private readonly memory: FactsMemory;
  /** Reads being answered now; watches wait until there are none (see watchLater). */
  private reading = 0;
  /** Worktrees whose watches are still to be set up, oldest first. */
  private readonly toWatch: { dir: string; entry: DirtyEntry }[] = [];
  private watchTimer: NodeJS.Timeout | undefined;
  private flushTimer: NodeJS.Immediate | undefined;
  /** Whether this git can batch statuses (statusBatch.ts); it cannot before 2.30. */
  private batching = true;

  constructor(opts: { timeoutMs?: number; parallel?: number; memory?: FactsMemory } = {}) {
    this.timeoutMs = opts.timeoutMs ?? FACTS_TIMEOUT_MS;
    // Without a store (tests, tools) clean answers are kept for this process only.
    this.memory = opts.memory ?? processMemory();
    this.slots = new Slots(opts.parallel ?? Math.max(4, 2 * os.availableParallelism()));
    this.workers = new FactsWorkers(this.slots.size);
  }

  /**
   * Facts for each worktree dir of `repo`; a dir that is not a worktree of it is absent, one
   * whose git did not answer in time is FactsUnavailable (all of them, when the listing did not).
   */
  async ofRepo(repo: string, dirs: string[]): Promise<Map<string, GitFacts | FactsUnavailable>> {
    this.reading++;
    try {
      return await this.read(repo, dirs);
    } finally {
      if (--this.reading === 0) {
        this.flushSoon();
        this.drainWatchesSoon();
      }
    }
  }

  private async read(repo: string, dirs: string[]): Promise<Map<string, GitFacts | FactsUnavailable>> {
    const out = new Map<string, GitFacts | FactsUnavailable>();
    let listing: Awaited<ReturnType<typeof worktreeList>>;
    let tracking: Awaited<ReturnType<typeof branchTracking>>;
    const listed = Promise.all([
      worktreeList(repo, this.timeoutMs, this.env),
      branchTracking(repo, this.timeoutMs, this.env),
    ]);
    const early = this.recheckEarly(dirs);
    try {
      [listing, tracking] = await listed;
    } catch (e) {
      if (!(e instanceof GitTimeout)) throw e;
      log.warn(`${repo}: no git facts for ${dirs.length} worktree(s): ${e.message}`);
      for (const dir of dirs) out.set(dir, { unavailable: e.short });
      await this.keepLearned(early);
      return out;
    }
    const recounts = new Recounts<Recount>(dirs.length, (all) => this.recount(repo, all));
    await Promise.all(
      dirs.map(async (dir) => {
        // A lane's dir is a real path already (lanes roots are resolved at launch): look it up
        // as it is first; a dir that is gone is no worktree (and realpath's throw is not free).
        const wt = listing.get(dir) ?? (fs.existsSync(dir) ? listing.get(realOr(dir)) : undefined);
        if (!wt) {
          recounts.decided();
          return;
        }
        let dirty: boolean;
        try {
          dirty = await this.dirty(dir, wt.head, { early, recounts });
        } catch (e) {
          if (!(e instanceof GitTimeout)) throw e;
          log.warn(`${dir}: no dirty flag: ${e.message}`);
          out.set(dir, { unavailable: e.short });
          return;
        }
        out.set(dir, factsOf(wt, tracking, dirty));
      }),
    );
    return out;
  }

  /** Stops watching a worktree (it was reaped or archived). */
  forget(dir: string): void {
    this.remember(dir, (m) => {
      m.drop(dir);
      m.flush?.(); // a reap is rare: its row goes at once
    });
    const e = this.dirtyCache.get(dir);
    if (!e) return;
    if (e.watchers.length > 0) this.watched--;
    for (const w of e.watchers) w.close();
    this.dirtyCache.delete(dir);
  }

  close(): void {
    clearTimeout(this.watchTimer);
    clearImmediate(this.flushTimer);
    this.flushTimer = undefined;
    this.memory.flush?.();
    this.workers.close();
    this.toWatch.length = 0;
    for (const e of this.dirtyCache.values()) for (const w of e.watchers) w.close();
    this.dirtyCache.clear();
  }

  /**
   * The dirty flag of `dir` at `head`: kept, re-checked, or recounted with `git status`. Tells
   * `recounts` exactly once whether it recounts (request) or not (decided), so the read can
   * start its recounts together once every lane has said.
   */
  private async dirty(dir: string, head: string | null, pass: ReadPass): Promise<boolean> {
    const { recounts } = pass;
    let asked = false;
    try {
      const early = await pass.early.get(dir);
      const e = this.entryOf(dir, early);
      if (e.valid && e.trusted && e.head === head && (await this.sameIndex(e, head))) return e.dirty;
      if (early ? early.answer?.head === head && this.rechecked(e, early.answer) : await this.recheck(dir, e, head))
        return false;
      e.valid = e.trusted; // a change while we run status invalidates again
      e.head = head;
      // The index as it is before status reads it: a change during the run shows as a change next time.
      e.stamp = e.indexFile ? indexStamp(e.indexFile) : undefined;
      e.digest = e.stamp !== undefined ? await this.digestAt(e.indexFile!, head) : undefined;
      try {
        asked = true;
        e.dirty = await recounts.request({ dir, entry: e, head });
      } catch (err) {
        e.valid = false;
        throw err;
      }
      return e.dirty;
    } finally {
      if (!asked) recounts.decided();
    }
  }

  /**
   * The entry of `dir`, made on its first read (`early`: its git dir found by an early re-check).
   * Watching a tree costs a walk of it (a recursive watch of a 3,000-file worktree took
   * longer than its git status): the watches are set up after every read in progress is
   * answered. Until they are, no answer is kept valid, so the next read checks again.
   */
  private entryOf(dir: string, early?: RecheckResult): DirtyEntry {
    let e = this.dirtyCache.get(dir);
    if (e) return e;
    const gitDir = early ? early.gitDir : worktreeGitDir(dir);
    e = {
      valid: false,
      dirty: false,
      trusted: false,
      watchers: [],
      gitDir,
      indexFile: gitDir && path.join(gitDir, 'index'),
    };
    this.dirtyCache.set(dir, e);
    this.toWatch.push({ dir, entry: e });
    return e;
  }

  /**
   * A read whose listing git did not give in time keeps what its re-checks learned: each
   * lane's entry and the watches to come, so the next read finds them trusted and re-checks
   * its lanes once more (under those watches) instead of starting over.
   */
  private async keepLearned(early: Map<string, Promise<RecheckResult | undefined>>): Promise<void> {
    for (const [dir, p] of early) {
      const r = await p;
      if (r?.gitDir) this.entryOf(dir, r);
    }
  }

  /**
   * Recounts the lanes one read found no answer for: in a few batches of one process each
   * (statusBatch.ts) when there are more of them than may run at once, else one by one.
   */
  private recount(repo: string, all: Recount[]): void {
    const parts = this.batching ? Math.max(this.slots.size, Math.ceil(all.length / MAX_BATCH)) : all.length;
    if (all.length <= this.slots.size || parts >= all.length) {
      for (const r of all) this.statusOne(r).then(r.resolve, r.reject);
      return;
    }
    const size = Math.ceil(all.length / parts);
    for (let i = 0; i < all.length; i += size) {
      const batch = all.slice(i, i + size);
      if (batch.length === 1) this.statusOne(batch[0]).then(batch[0].resolve, batch[0].reject);
      else void this.statusBatch(repo, batch);
    }
  }

  /** One lane's `git status`; whether it is dirty. */
  private statusOne({ dir, entry: e, head }: Recount): Promise<boolean> {
    return this.slots.run(async () => {
      // The directories as they are before status reads them, like the index above.
      const before = await this.snapshotOf(dir, e, head);
      this.statusRuns++;
      this.statusProcesses++;
      const status = await git(
        dir,
        ['--no-optional-locks', 'status', '--porcelain', '-z', '--untracked-files=normal'],
        { timeoutMs: this.timeoutMs, env: this.env },
      );
      this.keepOrDrop(dir, e, head, before, status.length > 0);
      return status.length > 0;
    });
  }

  /**
   * Lanes' `git status` in one process. Those it did not answer (a status that failed, a
   * batch that outlived the timeout, a git without for-each-repo) each run on their own,
   * which says for each what went wrong as a lone run always did.
   */
  private async statusBatch(repo: string, batch: Recount[]): Promise<void> {
    let answered = 0;
    let stoppedAt = 0;
    try {
      await this.slots.run(async () => {
        const before = await Promise.all(batch.map((r) => this.snapshotOf(r.dir, r.entry, r.head)));
        this.statusProcesses++;
        const got = await statusOfMany(
          repo,
          batch.map((r) => r.dir),
          { timeoutMs: this.timeoutMs, env: this.env },
        );
        if (got.unsupported) this.batching = false;
        got.dirty.forEach((dirty, i) => {
          const r = batch[i];
          this.statusRuns++;
          this.keepOrDrop(r.dir, r.entry, r.head, before[i], dirty);
          r.resolve(dirty);
        });
        answered = got.dirty.length;
        stoppedAt = got.stoppedAt;
      });
    } catch (e) {
      log.warn(`${repo}: a batch of git status did not run; each lane runs its own`, e);
      stoppedAt = batch.length;
    }
    // Where the batch stopped (a status that failed, hung or was cut short), each lane runs on
    // its own and says for itself what went wrong; the lanes after it go on in another batch.
    const alone = batch.slice(answered, this.batching ? stoppedAt + 1 : batch.length);
    const rest = batch.slice(answered + alone.length);
    for (const r of alone) this.statusOne(r).then(r.resolve, r.reject);
    if (rest.length > 1) void this.statusBatch(repo, rest);
    else for (const r of rest) this.statusOne(r).then(r.resolve, r.reject);
  }

  /** What a clean answer depends on, taken before status reads the worktree (undefined: not kept). */
  private async snapshotOf(dir: string, e: DirtyEntry, head: string | null): Promise<Snapshot | undefined> {
    return head && e.gitDir && e.digest ? this.task({ kind: 'snapshot', dir, gitDir: e.gitDir }) : undefined;
  }

  /** A task on the worker threads; one that fails (a thread that died) is "not known". */
  private async task<T extends FactsTask>(t: T): Promise<FactsTaskResult<T> | undefined> {
    try {
      return await this.workers.run(t);
    } catch (err) {
      log.warn(`${t.kind} of ${'dir' in t ? t.dir : t.file} did not run; it counts as not known`, err);
      return undefined;
    }
  }

  private keepOrDrop(dir: string, e: DirtyEntry, head: string | null, before: Snapshot | undefined, dirty: boolean) {
    const keep = !dirty && before && head && e.digest ? { head, indexDigest: e.digest, ...before } : undefined;
    this.remember(dir, (m) => (keep ? m.keep(dir, keep) : m.drop(dir)));
  }

  /**
   * Writes the kept answers once the read that made them is answered: the answer goes out
   * first, and its lanes' rows go to the store in one commit.
   */
  private flushSoon(): void {
    if (this.flushTimer) return;
    this.flushTimer = setImmediate(() => {
      this.flushTimer = undefined;
      this.memory.flush?.();
    });
    this.flushTimer.unref();
  }

  /** A store that cannot be written only costs the next restart a recount, never this answer. */
  private remember(dir: string, write: (m: FactsMemory) => void): void {
    try {
      write(this.memory);
    } catch (err) {
      log.warn(`${dir}: its git answer is not kept for the next restart`, err);
    }
  }

  /** Whether the answer kept before a restart still holds (then it is this entry's answer). */
  private async recheck(dir: string, e: DirtyEntry, head: string | null): Promise<boolean> {
    const kept = this.memory.recall(dir);
    if (!kept || kept.head !== head || !e.gitDir || !e.indexFile) return false;
    const answer = (await this.task({ kind: 'recheck', dir, kept }))?.answer;
    return answer !== undefined && this.rechecked(e, answer);
  }

  /** Takes a re-check's answer as the entry's: clean at the kept head. */
  private rechecked(e: DirtyEntry, answer: Rechecked): boolean {
    this.rechecks++;
    // Kept valid only under watches set up before this check; else the next read checks again.
    Object.assign(e, { valid: e.trusted, dirty: false, ...answer });
    return true;
  }

  /**
   * Re-checks the kept answers of lanes this daemon has not read yet (its first list after a
   * restart) while git lists the worktrees, instead of after: the re-checks keep the worker
   * threads busy and the listing keeps git busy. Each is checked against the kept HEAD, and
   * its answer counts only for a lane the listing then shows at that HEAD. A lane whose
   * worktree has no git dir, or whose task failed, is read as if it had no early re-check.
   */
  private recheckEarly(dirs: string[]): Map<string, Promise<RecheckResult | undefined>> {
    const early = new Map<string, Promise<RecheckResult | undefined>>();
    for (const dir of dirs) {
      if (this.dirtyCache.has(dir)) continue;
      const kept = this.memory.recall(dir);
      if (kept)
        early.set(
          dir,
          this.task({ kind: 'recheck', dir, kept }).then((r) => (r?.gitDir ? r : undefined)),
        );
    }
    return early;
  }

  /** Whether the index still holds what the kept answer was counted against (stat data aside). */
  private async sameIndex(e: DirtyEntry, head: string | null): Promise<boolean> {
    if (!e.indexFile) return true; // no index to change: the watches cover the rest
    const stamp = indexStamp(e.indexFile);
    if (stamp === e.stamp) return true;
    if (stamp === undefined || e.digest === undefined) return false;
    const digest = await this.digestAt(e.indexFile, head);
    if (digest !== e.digest) return false;
    e.stamp = stamp; // refreshed stat data only: the next read needs no digest
    return true;
  }

  /** The index's content digest (indexContent.ts), read on a worker thread. */
  private async digestAt(file: string, head: string | null): Promise<string | undefined> {
    const hashBytes = hashBytesOf(head);
    return hashBytes === undefined ? undefined : this.task({ kind: 'digest', file, hashBytes });
  }

  /**
   * Sets up the waiting watches one worktree per turn of the event loop, starting a moment
   * after the last read in progress ended, so its answer is written first and a request that
   * arrives meanwhile waits for one walk at most. A read that starts pauses the queue.
   */
  private drainWatchesSoon(): void {
    if (this.watchTimer || this.toWatch.length === 0) return;
    this.watchTimer = setTimeout(() => {
      this.watchTimer = undefined;
      if (this.reading > 0) return; // the read's end schedules the rest
      const next = this.toWatch.shift();
      if (next && this.dirtyCache.get(next.dir) === next.entry) this.watch(next.dir, next.entry);
      this.drainWatchesSoon();
    }, WATCH_PAUSE_MS);
    this.watchTimer.unref();
  }

  private watch(dir: string, e: DirtyEntry): void {
    const invalidate = () => {
      e.valid = false;
    };
    const lost = () => {
      if (e.trusted) log.warn(`lost the watch of ${dir}; its dirty flag is computed on every read`);
      e.trusted = false;
      invalidate();
    };
    // The index is judged by its content on each read (sameIndex), not by its events.
    const inGitDir = (file: string | null) => {
      if (file !== 'index' && file !== 'index.lock') invalidate();
    };
    const add = (target: string, start: () => Watch): boolean => {
      try {
        e.watchers.push(start());
        return true;
      } catch (err) {
        log.warn(`cannot watch ${target}; its dirty flag is computed on every read`, err);
        return false;
      }
    };
    const gitDir = e.gitDir;
    // A main checkout's .git is inside the worktree: its events are git-dir events.
    const inWorktree = (file: string | null) => {
      if (file === '.git' || !file?.startsWith(`.git${path.sep}`)) invalidate();
      else inGitDir(file.slice(5));
    };
    e.trusted =
      add(dir, () => watchTree(dir, inWorktree, lost)) &&
      gitDir !== undefined &&
      add(gitDir, () => {
        const w = fs.watch(gitDir, { persistent: false }, (_event, file) => inGitDir(file));
        w.on('error', lost);
        return w;
      });
    this.watched++;
  }
}

function processMemory(): FactsMemory {
  const kept = new Map<string, KeptClean>();
  return { recall: (dir) => kept.get(dir), keep: (dir, k) => kept.set(dir, k), drop: (dir) => kept.delete(dir) };
}

/** What one read works with besides its lanes. */
interface ReadPass {
  /** Lanes re-checked while the listing ran, by dir (recheckEarly). */
  early: Map<string, Promise<RecheckResult | undefined>>;
  recounts: Recounts<Recount>;
}

/** A lane to recount, and where its answer goes. */
interface Recount {
  dir: string;
  entry: DirtyEntry;
  head: string | null;
  resolve: (dirty: boolean) => void;
  reject: (e: unknown) => void;
}
