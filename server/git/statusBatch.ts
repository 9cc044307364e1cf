// Many worktrees' `git status` from ONE process the daemon starts: `git for-each-repo` runs
// `git -C <worktree> status` for each worktree named in a config key given on its own
// command line, one after another, each from git's own small process.
//
// Why: the daemon starting a process blocks its one thread until the child has exec'd
// (libuv waits for that), and the fork copies the daemon's page tables. With one `git status`
// per lane, a list of many lanes no one has counted yet (new lanes) spent most of its time
// in those starts, one after another, so its "2 × cores at once" ran about as slowly as the
// lanes' `git status` run one by one. A few batches, each a process of its own, run side by
// side at the cost of the statuses themselves.
//
// Each worktree's answer is told apart by the porcelain v2 branch header git prints first
// for every worktree (`# branch.oid …`), in the order the worktrees were given. A worktree
// is dirty when anything but headers follows its header: exactly what the per-lane
// `git status --porcelain --untracked-files=normal` shows as non-empty output (v1 and v2
// list the same entries; v2 only adds the headers).
import { GitTimeout, spawnGit } from './gitExec';

/** The config key for-each-repo reads the worktrees from (given with -c, never written anywhere). */
const KEY = 'svc.factsworktree';

/**
 * Worktrees per batch at most: small enough that a batch ends well within the 5 s bound on a
 * loaded machine (50 statuses at ~70 ms each, as at load 20), and its `-c` values, which git
 * passes to each `git -C` in one environment variable (Linux caps one at 128 KiB), stay small.
 */
export const MAX_BATCH = 50;

export const STATUS_V2 = [
  '--no-optional-locks',
  'status',
  '--porcelain=v2',
  '-z',
  '--branch',
  '--no-ahead-behind',
  '--untracked-files=normal',
];

/** How a batch went: the dirty flag of the first `dirty.length` worktrees; the rest need another run. */
export interface BatchAnswer {
  dirty: boolean[];
  /**
   * Worktrees the batch stopped at: the one whose answer may be cut short and the one it was
   * running (a status that failed or hung); each should run on its own. Those after them
   * can go in another batch.
   */
  stoppedAt: number;
  /** This git has no `for-each-repo` (before 2.30): batches are pointless. */
  unsupported: boolean;
}

/**
 * Runs `git status` in each of `dirs` (worktrees of `repo`) in one process. Rejects only when
 * git cannot start. A worktree whose status failed ends the batch there; one that outlives
 * `timeoutMs` ends it too (git is killed): the answers before it are kept either way.
 */
export async function statusOfMany(
  repo: string,
  dirs: string[],
  call: { timeoutMs: number; env: NodeJS.ProcessEnv },
): Promise<BatchAnswer> {
  const args = dirs.flatMap((d) => ['-c', `${KEY}=${d}`]);
  args.push('for-each-repo', `--config=${KEY}`, '--', ...STATUS_V2);
  let out: Buffer;
  let complete: boolean;
  let unsupported = false;
  try {
    const r = await spawnGit(repo, args, { ...call, ownGroup: true });
    out = r.stdout;
    complete = r.code === 0;
    unsupported = r.code !== 0 && /for-each-repo.*is not a git command/.test(r.stderr);
  } catch (e) {
    if (!(e instanceof GitTimeout)) throw e;
    out = e.partial;
    complete = false;
  }
  let dirty: boolean[];
  try {
    dirty = dirtyOfEach(out);
  } catch {
    return { dirty: [], stoppedAt: dirs.length, unsupported }; // output not as expected: each runs on its own
  }
  if (complete && dirty.length === dirs.length) return { dirty, stoppedAt: dirs.length, unsupported };
  // The last answer seen may be cut short; the batch stopped at it or at the one after it.
  const seen = Math.min(dirty.length, dirs.length);
  return { dirty: dirty.slice(0, Math.max(0, seen - 1)), stoppedAt: seen, unsupported };
}

/**
 * The dirty flag of each worktree in for-each-repo's output, in order. Throws on output that
 * does not start with a branch header. A rename entry (`2 …`) has its original path as the
 * next field, which may read like anything (even a header): it is skipped as a field.
 */
export function dirtyOfEach(out: Buffer): boolean[] {
  const flags: boolean[] = [];
  // latin1 maps each byte to one character: prefixes are compared, paths never decoded.
  const fields = out.toString('latin1').split('\0');
  if (fields[fields.length - 1] === '') fields.pop();
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i];
    if (f.startsWith('# branch.oid ')) flags.push(false);
    else if (flags.length === 0) throw new Error('git status output before its branch header');
    else if (!f.startsWith('# ')) {
      flags[flags.length - 1] = true;
      if (f.startsWith('2 ')) i++;
    }
  }
  return flags;
}
