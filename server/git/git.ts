// Git for the daemon as text: the git CLI (through gitExec's runner, which cleans the
// environment), judged by exit code. (simple-git resolves a failed command whose stderr
// is empty, which turns `--quiet` probes into false positives.) Never pass a user value
// where git could read an option: refs are checked first and placed after `--end-of-options`.
import { GitTimeout, spawnGit } from './gitExec';
import { badRef } from './gitRefusals';

export class GitError extends Error {
  constructor(
    readonly args: string[],
    readonly code: number | null,
    readonly stderr: string,
  ) {
    super(`git ${args.join(' ')} failed${code !== null ? ` (exit ${code})` : ''}: ${stderr.trim() || 'no message'}`);
  }
}

/**
 * Runs git in `cwd` and returns stdout as text; a non-zero exit throws GitError, no answer within
 * `timeoutMs` GitTimeout. `env`: the environment (default `process.env`), e.g. one cleanGitEnvironment built.
 */
export async function git(
  cwd: string,
  args: string[],
  opts: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<string> {
  const r = await spawnGit(cwd, args, opts).catch((e: Error) =>
    Promise.reject(e instanceof GitTimeout ? e : new GitError(args, null, e.message)),
  );
  if (r.code !== 0) throw new GitError(args, r.signal ? null : r.code, r.stderr);
  return r.stdout.toString('utf8');
}

export async function gitOk(cwd: string, args: string[]): Promise<boolean> {
  try {
    await git(cwd, args);
    return true;
  } catch {
    return false;
  }
}

/** A user-given ref must not look like an option. */
function refusedOptionLike(what: string, ref: string): void {
  if (ref.startsWith('-')) throw badRef.optionLike(what, ref);
  if (/[\0\n\r]/.test(ref)) throw badRef.controlCharacter(what);
}

/** Resolves a user-given commit-ish to a full SHA, or refuses it. */
export async function resolveCommit(repo: string, ref: string, what: string): Promise<string> {
  refusedOptionLike(what, ref);
  try {
    return (await git(repo, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`])).trim();
  } catch {
    throw badRef.notACommit(what, ref, repo);
  }
}

/** Checks a user-given branch name with git check-ref-format. */
export async function checkBranchName(repo: string, name: string): Promise<void> {
  refusedOptionLike('branch', name);
  if (!surelyValidBranchName(name) && !(await gitOk(repo, ['check-ref-format', '--branch', name])))
    throw badRef.notABranchName(name);
}

/** Whether git accepts `name` as a branch name (names svc builds itself, never option-like). */
export async function isValidBranchName(repo: string, name: string): Promise<boolean> {
  return (
    !name.startsWith('-') &&
    (surelyValidBranchName(name) || (await gitOk(repo, ['check-ref-format', '--branch', name])))
  );
}

/** A component git's ref rules cannot refuse: no `..`, no leading `.`, no `.lock` or `.` at its end. */
const PLAIN_COMPONENT = /^[A-Za-z0-9_][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*$/;

/**
 * Whether `name` is a branch name git accepts, known without asking it (a launch's branch is
 * checked before its worktree is made, and a `git check-ref-format` process costs more than
 * the rule): only letters, digits, `_`, `-`, `/` between components and `.` inside them, in
 * components none of git's rules refuse. Anything else (false) is left to git to judge.
 */
export function surelyValidBranchName(name: string): boolean {
  if (name === 'HEAD' || name.startsWith('-')) return false;
  return name.split('/').every((c) => PLAIN_COMPONENT.test(c) && !c.endsWith('.lock'));
}

export async function branchExists(repo: string, name: string): Promise<boolean> {
  return gitOk(repo, ['show-ref', '--verify', '--quiet', `refs/heads/${name}`]);
}

/** Which of `refs` (full ref names) exist, asked in one git run; none when git fails. */
export async function existingRefs(repo: string, refs: string[]): Promise<Set<string>> {
  try {
    // A pattern also matches the refs below it (`refs/heads/a` matches `refs/heads/a/b`): only exact names count.
    const out = await git(repo, ['for-each-ref', '--format=%(refname)', ...refs]);
    return new Set(out.split('\n').filter((r) => refs.includes(r)));
  } catch {
    return new Set();
  }
}

export interface GitFacts {
  branch: string | null;
  headSha: string | null;
  /** Commits ahead of upstream; null when there is no upstream. */
  ahead: number | null;
  dirty: boolean;
  upstream: string | null;
}

/** Branch, head, ahead and dirty from one `git status --porcelain=v2 --branch`. */
export async function gitFacts(dir: string, opts: { timeoutMs?: number } = {}): Promise<GitFacts> {
  const out = await git(dir, ['--no-optional-locks', 'status', '--porcelain=v2', '--branch', '-z'], opts);
  const facts: GitFacts = { branch: null, headSha: null, ahead: null, dirty: false, upstream: null };
  for (const entry of out.split('\0')) {
    if (entry === '') continue;
    if (entry.startsWith('# branch.oid ')) {
      const oid = entry.slice('# branch.oid '.length);
      facts.headSha = oid === '(initial)' ? null : oid;
    } else if (entry.startsWith('# branch.head ')) {
      const head = entry.slice('# branch.head '.length);
      facts.branch = head === '(detached)' ? null : head;
    } else if (entry.startsWith('# branch.upstream ')) {
      facts.upstream = entry.slice('# branch.upstream '.length);
    } else if (entry.startsWith('# branch.ab ')) {
      facts.ahead = Number(/\+(\d+)/.exec(entry)?.[1] ?? 0);
    } else if (!entry.startsWith('#')) {
      facts.dirty = true;
    }
  }
  return facts;
}

/** Serializes git mutations per repository (worktree add, fetch), which lock shared files. */
const queues = new Map<string, Promise<unknown>>();
export function serialized<T>(repo: string, fn: () => Promise<T>): Promise<T> {
  const prev = queues.get(repo) ?? Promise.resolve();
  const next = prev.then(fn, fn);
  queues.set(
    repo,
    next.catch(() => undefined),
  );
  return next;
}
