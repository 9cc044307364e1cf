// The plain implementation of DirtyFlags (dirtyFlags.ts), and the reference the kept one is
// held to: ONE `git worktree list` and ONE `git for-each-ref` per repository, then
// `git status --porcelain` in every worktree, each in its own process, at most 2 × cores at
// once. Nothing is kept between reads, so nothing can go stale; and nothing whose cost grows
// with a repository runs on the daemon's thread: git reads the trees, the daemon only counts
// whether a status printed anything.
// A status that outlives the read's bound (FACTS_TIMEOUT_MS) lists as "facts unavailable",
// but it is not killed: it runs on (up to LATE_FACTOR × the bound) and the next read of that
// lane joins it instead of starting again, so a slow machine's work is kept, not thrown away
// and redone on every list (issue 43's defect); when it answers, `onLateAnswer` is told, so
// a view that showed the lane without facts reads it again.
import * as fs from 'node:fs';
import * as os from 'node:os';
import { logger } from '../util/log';
import type { DirtyFlags, FactsUnavailable } from './dirtyFlags';
import { git, GitError } from './git';
import type { GitFacts } from './git';
import { cleanGitEnvironment, FACTS_TIMEOUT_MS, GitTimeout } from './gitExec';
import { Slots } from './factsQueues';
import { branchTracking, factsOf, realOr, worktreeList } from './worktreeList';

const log = logger('git-facts');

/** How much longer than a read's bound a status may run on for the next read. */
const LATE_FACTOR = 6;

const STATUS_ARGS = ['--no-optional-locks', 'status', '--porcelain', '-z', '--untracked-files=normal'];

export class PlainDirtyFlags implements DirtyFlags {
  /** `git status` processes started so far (tests and benches read it). */
  statusRuns = 0;
  private readonly timeoutMs: number;
  private readonly env = cleanGitEnvironment();
  private readonly slots: Slots;
  /** Statuses still running, by dir: a read joins one instead of starting another. */
  private readonly running = new Map<string, Running>();

  /** Told when a status a read gave up on answers after all, so views read the lane again. */
  private readonly onLateAnswer: (dir: string) => void;

  constructor(opts: { timeoutMs?: number; parallel?: number; onLateAnswer?: (dir: string) => void } = {}) {
    this.timeoutMs = opts.timeoutMs ?? FACTS_TIMEOUT_MS;
    this.onLateAnswer = opts.onLateAnswer ?? (() => undefined);
    this.slots = new Slots(opts.parallel ?? 2 * os.availableParallelism());
  }

  /**
   * `fresh`: every status this read answers with starts after the call (none is joined), for
   * a reader that must know nothing it reports was read before it began (keeperDirtyFlags.ts).
   */
  async ofRepo(
    repo: string,
    dirs: string[],
    opts: { fresh?: boolean } = {},
  ): Promise<Map<string, GitFacts | FactsUnavailable>> {
    const out = new Map<string, GitFacts | FactsUnavailable>();
    let listing: Awaited<ReturnType<typeof worktreeList>>;
    let tracking: Awaited<ReturnType<typeof branchTracking>>;
    try {
      [listing, tracking] = await Promise.all([
        worktreeList(repo, this.timeoutMs, this.env),
        branchTracking(repo, this.timeoutMs, this.env),
      ]);
    } catch (e) {
      if (!(e instanceof GitTimeout)) throw e;
      log.warn(`${repo}: no git facts for ${dirs.length} worktree(s): ${e.message}`);
      for (const dir of dirs) out.set(dir, { unavailable: e.short });
      return out;
    }
    await Promise.all(
      dirs.map(async (dir) => {
        const wt = listing.get(dir) ?? (fs.existsSync(dir) ? listing.get(realOr(dir)) : undefined);
        if (!wt) return;
        const dirty = await this.dirty(dir, opts.fresh === true);
        out.set(dir, typeof dirty === 'boolean' ? factsOf(wt, tracking, dirty) : dirty);
      }),
    );
    return out;
  }

  /**
   * Whether `dir` has changes, or why it is not known within the read's bound. The bound runs
   * from the status's start, not from the read's: a lane waiting for a slot is not late.
   */
  private async dirty(dir: string, fresh: boolean): Promise<boolean | FactsUnavailable> {
    let run = fresh ? undefined : this.running.get(dir);
    if (!run) {
      run = this.status(dir);
      this.running.set(dir, run);
      const mine = run;
      const done = () => {
        if (this.running.get(dir) === mine) this.running.delete(dir);
      };
      run.done.then(done, done);
    }
    let timer: NodeJS.Timeout | undefined;
    const bound = run.started.then(
      () =>
        new Promise<FactsUnavailable>((resolve) => {
          const late = new GitTimeout(STATUS_ARGS, dir, this.timeoutMs);
          timer = setTimeout(() => resolve({ unavailable: late.short }), this.timeoutMs);
        }),
    );
    try {
      const got = await Promise.race([run.done, bound]);
      if (typeof got !== 'boolean') {
        log.warn(`${dir}: no dirty flag within ${this.timeoutMs} ms; it runs on for the next read`);
        // A view that listed the lane as unavailable reads nothing again on its own.
        run.done.then(
          () => this.onLateAnswer(dir),
          () => undefined,
        );
      }
      return got;
    } catch (e) {
      // A status git refused (a damaged index, a lock it could not take) is this lane's
      // problem, shown on its row; the other lanes of the list keep their facts.
      if (!(e instanceof GitTimeout) && !(e instanceof GitError)) throw e;
      log.warn(`${dir}: no dirty flag: ${e.message}`);
      return { unavailable: e instanceof GitTimeout ? e.short : statusFailure(e) };
    } finally {
      clearTimeout(timer);
    }
  }

  /** One `git status` in its own slot, bounded by LATE_FACTOR × the read's bound. */
  private status(dir: string): Running {
    let started!: () => void;
    const startedP = new Promise<void>((r) => (started = r));
    const done = this.slots.run(async () => {
      started();
      this.statusRuns++;
      const out = await git(dir, STATUS_ARGS, { timeoutMs: LATE_FACTOR * this.timeoutMs, env: this.env });
      return out.length > 0;
    });
    return { started: startedP, done };
  }

  forget(dir: string): void {
    this.running.delete(dir);
  }

  close(): void {
    this.running.clear();
  }
}

/** `git status failed: <git's first line>`, what a row shows for a status git refused. */
function statusFailure(e: GitError): string {
  const first = e.stderr.trim().split('\n')[0] || (e.code === null ? 'no exit code' : `exit ${e.code}`);
  return `git status failed: ${first}`;
}

/** A status in a slot: when it started (its bound runs from then) and its answer. */
interface Running {
  started: Promise<void>;
  done: Promise<boolean>;
}
