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
import { spawnGit } from './gitExec';

/** The config key for-each-repo reads the worktrees from (given with -c, never written anywhere). */
const KEY = 'svc.factsworktree';

/**
 * Worktrees per batch at most: git passes the `-c` values on to each `git -C` in one
 * environment variable, which Linux caps at 128 KiB; 200 paths stay far below it.
 */
export const MAX_BATCH = 200;

export const STATUS_V2 = [
  '--no-optional-locks',
  'status',
  '--porcelain=v2',
  '-z',
  '--branch',
  '--no-ahead-behind',
  '--untracked-files=normal',
];

/** How a batch went: the dirty flag of the first `dirty.length` worktrees; the rest need their own run. */
export interface BatchAnswer {
  dirty: boolean[];
  /** This git has no `for-each-repo` (before 2.30): batches are pointless. */
  unsupported: boolean;
}

/**
 * Runs `git status` in each of `dirs` (worktrees of `repo`) in one process. Rejects only when
 * git cannot start or outlives `timeoutMs` (GitTimeout); a worktree whose status failed ends
 * the batch there, and it and those after it are left for their own run.
 */
export async function statusOfMany(
  repo: string,
  dirs: string[],
  call: { timeoutMs: number; env: NodeJS.ProcessEnv },
): Promise<BatchAnswer> {
  const args = dirs.flatMap((d) => ['-c', `${KEY}=${d}`]);
  args.push('for-each-repo', `--config=${KEY}`, '--', ...STATUS_V2);
  const r = await spawnGit(repo, args, { ...call, ownGroup: true });
  const unsupported = r.code !== 0 && /for-each-repo.*is not a git command/.test(r.stderr);
  let dirty: boolean[];
  try {
    dirty = dirtyOfEach(r.stdout);
  } catch {
    return { dirty: [], unsupported }; // output not as expected: every worktree runs on its own
  }
  if (r.code === 0 && dirty.length === dirs.length) return { dirty, unsupported };
  // for-each-repo stops at the first failing status: the last answer seen may be cut short.
  return { dirty: dirty.slice(0, Math.max(0, Math.min(dirty.length - 1, dirs.length))), unsupported };
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
