// How a lane's commits reach the person's repository when the lane has a repository of its
// own (laneGitRepo.ts): the daemon fetches them, never the lane writing there. Each fetch
// checks every object it takes (transfer.fsckObjects) and writes only svc's namespace
// `refs/svc/lanes/<lane dir name>/…`, which no lane can name; the lane's own branch
// (the one svc made for it) is then moved in refs/heads only as a fast-forward or creation,
// so a lane cannot rewrite what the person has on it. Nothing else of the person's refs
// is ever written from a lane's state. When: a report is filed (the frozen done head must
// be in the project's store for a critic's, verifier's or land's checkout of it), a push
// through svc went, and before reap removes the lane repository (every ref it holds that
// the project lacks, so no commit is lost with it).
//
// The fetch reads the lane repository with the daemon's rights: its config and alternates
// are the daemon's (read-only inside); a link a lane planted in its refs or objects is only
// ever read through, and what is read is validated before anything is written.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { git } from '../git/git';
import { runGit, spawnGit } from '../git/gitExec';

const MIRROR_TIMEOUT_MS = 120_000;

/** svc's namespace in the project's repository for one lane directory's refs. */
export function mirrorNamespace(laneDir: string): string {
  return `refs/svc/lanes/${path.basename(laneDir)}`;
}

/**
 * Fetches `refs` (full names in the lane, or `HEAD` for the worktree's own) from the lane
 * directory (or `from`, its lane repository when the directory is gone) into the project's repository under the lane's namespace; then fast-forwards
 * (or creates) refs/heads/`ownBranch` to the lane's, when it is among them. Returns what
 * each ref is now in the namespace.
 */
export async function mirrorLaneRefs(
  project: string,
  laneDir: string,
  refs: string[],
  ownBranch: string | null,
  from: string = laneDir,
): Promise<Map<string, string>> {
  const ns = mirrorNamespace(laneDir);
  const out = new Map<string, string>();
  if (refs.length === 0) return out;
  const target = (r: string) => `${ns}/${r === 'HEAD' ? 'HEAD' : r.replace(/^refs\//, '')}`;
  await runGit(
    project,
    [
      '-c',
      'transfer.fsckObjects=true',
      '-c',
      'fetch.fsckObjects=true',
      '-c',
      'protocol.file.allow=always',
      'fetch',
      '--quiet',
      '--no-tags',
      '--no-write-fetch-head',
      '--no-auto-gc',
      '--no-recurse-submodules',
      from,
      ...refs.map((r) => `+${r}:${target(r)}`),
    ],
    { extra: { GIT_TERMINAL_PROMPT: '0' }, timeoutMs: MIRROR_TIMEOUT_MS },
  );
  const shas = await git(project, ['rev-parse', ...refs.map(target)]);
  shas
    .trim()
    .split('\n')
    .forEach((sha, i) => out.set(refs[i], sha));
  const own = ownBranch ? out.get(`refs/heads/${ownBranch}`) : undefined;
  if (ownBranch && own) await fastForward(project, `refs/heads/${ownBranch}`, own);
  return out;
}

/** Moves `ref` to `sha` when it is absent or an ancestor of it; else leaves it (the namespace keeps the lane's). */
async function fastForward(project: string, ref: string, sha: string): Promise<void> {
  const cur = await spawnGit(project, ['rev-parse', '--verify', '--quiet', ref]);
  const old = cur.code === 0 ? cur.stdout.toString('utf8').trim() : '';
  if (old === sha) return;
  if (old) {
    const anc = await spawnGit(project, ['merge-base', '--is-ancestor', old, sha]);
    if (anc.code !== 0) return;
  }
  // Compare-and-swap: a ref the person moved meanwhile is left as they made it.
  await spawnGit(project, ['update-ref', '-m', 'svc: mirrored from its lane', ref, sha, old || '0'.repeat(sha.length)]);
}

/**
 * Every ref of the lane repository the project's repository does not hold at the same
 * commit (the lane's branches, kept refs, tags of its own) plus its worktree's HEAD: what
 * reap mirrors before the lane repository goes. Left out: what holds no work and would only
 * make the copy fail, so that a lane that wrecked its own refs is still reaped: a ref naming
 * no object (a broken one), and a ref read through a link the lane planted in its refs (git
 * reads the files where it leads as refs; none of them is the lane's work).
 */
export async function laneOnlyRefs(project: string, laneDir: string, from: string = laneDir): Promise<string[]> {
  const fmt = ['for-each-ref', '--format=%(objectname) %(refname)', 'refs/heads/', 'refs/tags/'];
  const [lane, mine, common] = await Promise.all([
    git(from, fmt),
    git(project, fmt),
    git(from, ['rev-parse', '--path-format=absolute', '--git-common-dir']),
  ]);
  const have = new Set(mine.split('\n').filter(Boolean));
  const candidates = lane
    .split('\n')
    .filter((l) => l && !have.has(l))
    .map((l) => ({ sha: l.slice(0, l.indexOf(' ')), ref: l.slice(l.indexOf(' ') + 1) }))
    .filter((r) => !throughLink(common.trim(), r.ref));
  const present = await presentObjects(
    from,
    candidates.map((r) => r.sha),
  );
  const refs = candidates.filter((r) => present.has(r.sha)).map((r) => r.ref);
  // A worktree's HEAD; read from the bare lane repository (its worktree gone) it is not the lane's.
  if (from !== laneDir) return refs;
  const head = await spawnGit(laneDir, ['rev-parse', '--verify', '--quiet', 'HEAD']);
  return head.code === 0 ? [...refs, 'HEAD'] : refs;
}

/** Whether a folder on the way to the loose ref `ref` in `common` is a symbolic link. */
function throughLink(common: string, ref: string): boolean {
  const parts = ref.split('/');
  for (let i = 1; i < parts.length; i++) {
    const st = fs.lstatSync(path.join(common, ...parts.slice(0, i)), { throwIfNoEntry: false });
    if (!st) return false; // a packed ref: no folder of its own
    if (st.isSymbolicLink()) return true;
  }
  return false;
}

/** Which of `shas` name an object the lane's git can read. */
async function presentObjects(laneDir: string, shas: string[]): Promise<Set<string>> {
  if (shas.length === 0) return new Set();
  const out = await runGit(laneDir, ['cat-file', '--batch-check=%(objectname) %(objecttype)'], {
    input: Buffer.from(shas.join('\n') + '\n'),
    timeoutMs: MIRROR_TIMEOUT_MS,
  });
  const found = new Set<string>();
  for (const line of out.stdout.toString('utf8').split('\n')) {
    const [sha, type] = line.split(' ');
    if (type && type !== 'missing') found.add(sha);
  }
  return found;
}
