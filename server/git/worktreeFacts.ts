// Git facts of many worktrees at once, for `svc lane list` and the Command Deck.
// Branch and head come from ONE `git worktree list` per repository, ahead counts from
// ONE `git for-each-ref` per repository. Only the dirty flag needs a `git status` per
// worktree, and that answer is kept until the worktree or its index changes (inotify
// watches on the worktree and on its git dir), so a second read of an untouched lane
// costs no process at all. Facts are still current on every read: any change
// invalidates the kept answer before the next read can see it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { logger } from '../util/log';
import { git } from './git';
import type { GitFacts } from './git';

const log = logger('git-facts');

interface DirtyEntry {
  valid: boolean;
  dirty: boolean;
  /** Both watches are in place; without them a kept answer could go stale, so none is kept. */
  trusted: boolean;
  watchers: fs.FSWatcher[];
}

export class WorktreeFacts {
  private readonly dirtyCache = new Map<string, DirtyEntry>();

  /** Facts for each worktree dir of `repo`; a dir that is not a worktree of it is absent. */
  async ofRepo(repo: string, dirs: string[]): Promise<Map<string, GitFacts>> {
    const [listing, tracking] = await Promise.all([worktreeList(repo), branchTracking(repo)]);
    const out = new Map<string, GitFacts>();
    await Promise.all(
      dirs.map(async (dir) => {
        const wt = listing.get(realOr(dir));
        if (!wt) return;
        const t = wt.branch ? tracking.get(wt.branch) : undefined;
        out.set(dir, {
          branch: wt.branch,
          headSha: wt.head,
          ahead: t?.ahead ?? null,
          upstream: t?.upstream ?? null,
          dirty: await this.dirty(dir),
        });
      }),
    );
    return out;
  }

  /** Stops watching a worktree (it was reaped or archived). */
  forget(dir: string): void {
    const e = this.dirtyCache.get(dir);
    if (!e) return;
    for (const w of e.watchers) w.close();
    this.dirtyCache.delete(dir);
  }

  close(): void {
    for (const dir of [...this.dirtyCache.keys()]) this.forget(dir);
  }

  private async dirty(dir: string): Promise<boolean> {
    let e = this.dirtyCache.get(dir);
    if (!e) {
      e = { valid: false, dirty: false, trusted: false, watchers: [] };
      this.dirtyCache.set(dir, e);
      this.watch(dir, e);
    }
    if (e.valid && e.trusted) return e.dirty;
    e.valid = true; // a change while we run status invalidates again
    try {
      const out = await git(dir, ['--no-optional-locks', 'status', '--porcelain', '-z', '--untracked-files=normal']);
      e.dirty = out.length > 0;
    } catch (err) {
      e.valid = false;
      throw err;
    }
    return e.dirty;
  }

  private watch(dir: string, e: DirtyEntry): void {
    const invalidate = () => {
      e.valid = false;
    };
    const add = (target: string, recursive: boolean): boolean => {
      try {
        const w = fs.watch(target, { recursive, persistent: false }, invalidate);
        w.on('error', () => {
          e.trusted = false;
          invalidate();
        });
        e.watchers.push(w);
        return true;
      } catch (err) {
        log.warn(`cannot watch ${target}; its dirty flag is computed on every read`, err);
        return false;
      }
    };
    const gitDir = worktreeGitDir(dir);
    e.trusted = add(dir, true) && gitDir !== undefined && add(gitDir, false);
  }
}

/** The git dir of a linked worktree (`.git` is a file `gitdir: …`), or of a main checkout. */
function worktreeGitDir(dir: string): string | undefined {
  const dotGit = path.join(dir, '.git');
  try {
    const st = fs.statSync(dotGit);
    if (st.isDirectory()) return dotGit;
    const m = /^gitdir: (.+)$/m.exec(fs.readFileSync(dotGit, 'utf8'));
    return m ? path.resolve(dir, m[1].trim()) : undefined;
  } catch {
    return undefined;
  }
}

async function worktreeList(repo: string): Promise<Map<string, { head: string | null; branch: string | null }>> {
  const out = await git(repo, ['worktree', 'list', '--porcelain', '-z']);
  const map = new Map<string, { head: string | null; branch: string | null }>();
  let cur: { path?: string; head: string | null; branch: string | null } = { head: null, branch: null };
  for (const field of out.split('\0')) {
    if (field === '') {
      if (cur.path) map.set(realOr(cur.path), { head: cur.head, branch: cur.branch });
      cur = { head: null, branch: null };
    } else if (field.startsWith('worktree ')) cur.path = field.slice('worktree '.length);
    else if (field.startsWith('HEAD ')) cur.head = field.slice('HEAD '.length);
    else if (field.startsWith('branch ')) cur.branch = field.slice('branch '.length).replace(/^refs\/heads\//, '');
  }
  if (cur.path) map.set(realOr(cur.path), { head: cur.head, branch: cur.branch });
  return map;
}

/** branch → its upstream and commits ahead of it (null when the upstream is missing). */
async function branchTracking(repo: string): Promise<Map<string, { upstream: string | null; ahead: number | null }>> {
  const out = await git(repo, ['for-each-ref', '--format=%(refname:short)%00%(upstream:short)%00%(upstream:track,nobracket)', 'refs/heads']);
  const map = new Map<string, { upstream: string | null; ahead: number | null }>();
  for (const line of out.split('\n')) {
    if (!line) continue;
    const [branch, upstream, track] = line.split('\0');
    if (!upstream || track === 'gone') map.set(branch, { upstream: upstream || null, ahead: null });
    else map.set(branch, { upstream, ahead: Number(/ahead (\d+)/.exec(track)?.[1] ?? 0) });
  }
  return map;
}

function realOr(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}
