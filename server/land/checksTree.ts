// The worktree a project's landings run their checks in, kept between landings of one base
// and made fresh for each: every file the check sees written from the commit by one
// `git checkout`, nothing else left in it, and its git admin folder back to what a new
// worktree has (docs/decisions/land.md, "Project checks"). A new worktree per landing
// cost two more git processes (add, remove) and the admin folder's set-up on every
// landing's path. Anything unexpected (the folder gone, its `.git` changed, a
// checkout that fails) makes the worktree anew, as every landing did before.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { git, serialized } from '../git/git';

/** What a new worktree's admin folder holds that the reuse keeps: its two pointers and HEAD. */
const ADMIN_KEPT = new Set(['gitdir', 'commondir', 'HEAD']);

/** The kept checks worktree of a base, in the project's lanes root (never a lane's folder: `.land-` and no id). */
export function keptChecksTree(lanesRoot: string, base: string): string {
  return path.join(
    lanesRoot,
    `.land-checks-${base.replace(/[^A-Za-z0-9_-]/g, (c) => `%${c.charCodeAt(0).toString(16)}`)}`,
  );
}

/** Each repository's common git dir, read once (the checks' sandbox binds parts of it). */
const commonDirs = new Map<string, string>();

export async function commonDirOf(repo: string): Promise<string> {
  const known = commonDirs.get(repo);
  if (known && fs.existsSync(known)) return known;
  const dir = (await git(repo, ['rev-parse', '--path-format=absolute', '--git-common-dir'])).trim();
  commonDirs.set(repo, dir);
  return dir;
}

/**
 * Makes `dir` a worktree of `repo` holding exactly `sha`'s tree and nothing else: the kept
 * one reused when it is still the worktree svc made there, else made anew.
 */
export async function freshChecksTree(repo: string, dir: string, sha: string): Promise<void> {
  // Nothing awaited before the checkout's start once the common dir is known: a landing
  // calls this before it reads the base, and the checkout's process starts first.
  const admin = ownAdminDir(dir, commonDirs.get(repo) ?? (await commonDirOf(repo)));
  if (admin && (await reuse(dir, admin, sha))) return;
  if (fs.existsSync(dir))
    await serialized(repo, () => git(repo, ['worktree', 'remove', '--force', dir])).catch(() =>
      fs.rmSync(dir, { recursive: true, force: true }),
    );
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const add = () => serialized(repo, () => git(repo, ['worktree', 'add', '--quiet', '--detach', dir, sha]));
  // A worktree whose folder went (removed by hand, or above) stays registered until pruned.
  await add().catch(async () => {
    await serialized(repo, () => git(repo, ['worktree', 'prune']));
    await add();
  });
}

/**
 * The admin folder of the worktree at `dir` when it is one of `commonDir`'s and points back to
 * `dir` both ways; undefined otherwise (nothing there, or not what svc made: made anew).
 */
function ownAdminDir(dir: string, commonDir: string): string | undefined {
  let pointer: string;
  try {
    pointer = fs.readFileSync(path.join(dir, '.git'), 'utf8');
  } catch {
    return undefined;
  }
  const m = /^gitdir: (.+)\n?$/.exec(pointer);
  if (!m) return undefined;
  // Git writes both pointers absolute (relative ones from git 2.48 on, when asked): compared as real paths.
  const admin = real(path.resolve(dir, m[1]));
  const worktrees = real(path.join(commonDir, 'worktrees'));
  if (!admin || !worktrees || path.dirname(admin) !== worktrees) return undefined;
  try {
    if (!fs.lstatSync(path.join(admin, 'HEAD')).isFile()) return undefined;
    const back = fs.readFileSync(path.join(admin, 'gitdir'), 'utf8').trim();
    const backReal = real(path.resolve(admin, back));
    return backReal !== undefined && backReal === real(path.join(dir, '.git')) ? admin : undefined;
  } catch {
    return undefined;
  }
}

function real(p: string): string | undefined {
  try {
    return fs.realpathSync(p);
  } catch {
    return undefined;
  }
}

/**
 * Empties the worktree (all but its `.git` pointer) and its admin folder (all but its
 * pointers and HEAD: the index, logs, any state a check left), then checks `sha` out into
 * it. With no index, git writes every file of the commit: nothing is trusted from before.
 */
async function reuse(dir: string, admin: string, sha: string): Promise<boolean> {
  try {
    for (const e of fs.readdirSync(dir))
      if (e !== '.git') fs.rmSync(path.join(dir, e), { recursive: true, force: true });
    for (const e of fs.readdirSync(admin))
      if (!ADMIN_KEPT.has(e)) fs.rmSync(path.join(admin, e), { recursive: true, force: true });
    await git(dir, ['checkout', '--quiet', '--force', '--detach', sha]);
    return true;
  } catch {
    return false;
  }
}
