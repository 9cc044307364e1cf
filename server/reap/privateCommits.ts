// Commits that only a worktree's own git state holds. A linked worktree keeps a private
// folder in the repository (`<common>/worktrees/<name>`): its HEAD and HEAD reflog, its
// per-worktree refs (refs/worktree/*, refs/bisect/*, refs/rewritten/*) and their reflogs,
// ORIG_HEAD, MERGE_HEAD and the other pseudo-refs, the state of a rebase or cherry-pick.
// `git worktree remove` deletes that folder, so a commit named only there — made on a
// detached HEAD and left by a checkout, held by `git update-ref refs/worktree/keep` — is
// on no ref afterwards and goes at the next gc. Reap keeps every such commit on a new
// branch first, and names it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gitText, runGit } from '../git/gitExec';
import { checkNoPlantedLinks } from '../git/plantedLinks';
import type { GitEnv } from '../git/gitExec';
import type { WorktreeInfo } from './worktreeInfo';

/** A branch reap created to hold commits only the worktree held. */
export interface KeptRef {
  /** Short branch name. */
  branch: string;
  sha: string;
  /** Commits it keeps that nothing else held. */
  commits: number;
  /** True when it holds the worktree's detached HEAD. */
  head: boolean;
}

// Large files in the private folder are not ref or reflog files (a split index, a patch
// series of rebase-apply can be big, but they name commits in their first lines anyway).
const MAX_SCAN_BYTES = 8 * 1024 * 1024;
const SHA = /\b[0-9a-f]{40}(?:[0-9a-f]{24})?\b/g;

/**
 * Every object id written in the worktree's private git folder, except its index (which
 * names blobs and trees) and svc's own scratch folders: ref files, reflogs (both sides of
 * every entry), pseudo-refs, rebase and sequencer state.
 */
export function idsInPrivateState(gitDir: string): string[] {
  const ids = new Set<string>();
  const walk = (dir: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const full = path.join(dir, e.name);
      if (dir === gitDir && (e.name === 'index' || e.name.startsWith('sharedindex.') || e.name.startsWith('svc-')))
        continue;
      if (e.isDirectory()) walk(full);
      else if (e.isFile()) {
        try {
          if (fs.statSync(full).size > MAX_SCAN_BYTES) continue;
          for (const m of fs.readFileSync(full, 'latin1').matchAll(SHA)) ids.add(m[0]);
        } catch {
          // gone meanwhile
        }
      }
    }
  };
  walk(gitDir);
  return [...ids];
}

/** The ids among `ids` that name commits (tags peeled), each once. */
async function commitsAmong(top: string, ids: string[], opts: GitEnv): Promise<string[]> {
  if (ids.length === 0) return [];
  const input = Buffer.from(ids.map((id) => `${id}^{commit}\n`).join(''));
  const r = await runGit(top, ['cat-file', '--batch-check=%(objectname) %(objecttype)'], { ...opts, input });
  const out = new Set<string>();
  for (const line of r.stdout.toString('utf8').split('\n')) {
    const [id, type] = line.split(' ');
    if (type === 'commit') out.add(id);
  }
  return [...out];
}

/**
 * The commits reachable from the worktree's private state that nothing else in the
 * repository holds: no shared ref (branch, tag, remote branch, stash, notes…) and no
 * reflog that outlives the worktree (a branch's own reflog keeps an amended commit for as
 * long as it kept it before). Returned with their parents, newest first.
 */
export async function commitsOnlyThisWorktreeHolds(
  info: WorktreeInfo,
  opts: GitEnv = {},
): Promise<{ sha: string; parents: string[] }[]> {
  const candidates = await commitsAmong(info.top, idsInPrivateState(info.gitDir), opts);
  if (candidates.length === 0) return [];
  // Run from the common dir with --single-worktree: the repository as it stands once this
  // worktree is gone (its main worktree's HEAD and reflog, every shared ref and reflog).
  // Revisions read from stdin are always positive; the holders follow --not. --ignore-missing
  // (before the holders, which it governs): a ref naming no object, which a lane can plant in
  // the shared refs/, holds nothing and must not stop the reap of every lane.
  const r = await runGit(
    info.commonDir,
    ['rev-list', '--ignore-missing', '--parents', '--stdin', '--not', '--single-worktree', '--all', '--reflog'],
    {
      ...opts,
      extra: { GIT_DIR: info.commonDir },
      input: Buffer.from(candidates.map((c) => `${c}\n`).join('')),
    },
  );
  const text = r.stdout.toString('utf8').trim();
  if (text === '') return [];
  return text.split('\n').map((line) => {
    const [sha, ...parents] = line.split(' ');
    return { sha, parents };
  });
}

/**
 * Creates a branch at each newest commit that only the worktree holds (`name` for its
 * detached HEAD, `<name>-<short sha>` for the others) so removing the worktree orphans
 * nothing. Never moves an existing branch: a taken name gets a `-2`, `-3`… suffix.
 */
export async function keepPrivateCommits(info: WorktreeInfo, name: string, opts: GitEnv = {}): Promise<KeptRef[]> {
  const orphans = await commitsOnlyThisWorktreeHolds(info, opts);
  if (orphans.length === 0) return [];
  const byId = new Map(orphans.map((o) => [o.sha, o]));
  const isParent = new Set(orphans.flatMap((o) => o.parents));
  const tips = orphans
    .filter((o) => !isParent.has(o.sha))
    .sort((a, b) => Number(b.sha === info.head) - Number(a.sha === info.head));
  const kept: KeptRef[] = [];
  for (const tip of tips) {
    const head = tip.sha === info.head;
    const branch = await createBranch(info, head ? name : `${name}-${tip.sha.slice(0, 7)}`, tip.sha, opts);
    kept.push({ branch, sha: tip.sha, commits: countFrom(tip.sha, byId), head });
  }
  return kept;
}

/** Commits of the orphan set reachable from `tip` (the tip included). */
function countFrom(tip: string, byId: Map<string, { parents: string[] }>): number {
  const seen = new Set<string>();
  const stack = [tip];
  while (stack.length) {
    const sha = stack.pop() as string;
    if (seen.has(sha) || !byId.has(sha)) continue;
    seen.add(sha);
    stack.push(...byId.get(sha)!.parents);
  }
  return seen.size;
}

async function createBranch(info: WorktreeInfo, wanted: string, sha: string, opts: GitEnv): Promise<string> {
  await gitText(info.top, ['check-ref-format', '--branch', wanted], opts);
  for (let n = 1; n < 100; n++) {
    const name = n === 1 ? wanted : `${wanted}-${n}`;
    const ref = `refs/heads/${name}`;
    const exists = await runGit(info.top, ['rev-parse', '-q', '--verify', `${ref}^{commit}`], {
      ...opts,
      okCodes: [1],
    });
    if (exists.code === 0) {
      if (exists.stdout.toString('utf8').trim() === sha) return name;
      continue;
    }
    // The shared refs/ and logs/ are writable to lanes: nothing is written through a link planted there.
    checkNoPlantedLinks(info.top, [ref]);
    const made = await runGit(
      info.top,
      ['update-ref', '-m', 'svc reap: keep commits only the worktree held', ref, sha, ''],
      { ...opts, okCodes: [128] },
    );
    if (made.code === 0) return name;
  }
  throw new Error(`no free branch name near ${wanted} to keep ${sha}`);
}
