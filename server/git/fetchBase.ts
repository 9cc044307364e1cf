// The project's base ref, fetched only when it moved: what a lane starts from, what an
// issue's workspace branches from and what a review diffs against. One copy for all of
// them (lanes, issues, review), so every path skips the same unneeded fetch.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { git, serialized } from './git';
import { checkNoPlantedLinks } from './plantedLinks';

/**
 * `origin/<default>` after fetching it; the local branch when the project has no origin.
 * A fetch whose remote ref has not moved is skipped: when origin is a folder on this
 * machine (the local code host's bare repository), its branch is read there directly and,
 * when it names the commit origin/<default> already names, there is nothing to fetch.
 */
export async function fetchBase(repo: string, defaultBranchName: string): Promise<string> {
  return (await fetchBaseCommit(repo, defaultBranchName)).ref;
}

/**
 * fetchBase, also saying the commit the base ref names when that was read on the way (the
 * fetch was skipped): a launch then needs no `git rev-parse` of its own before the worktree.
 */
export async function fetchBaseCommit(
  repo: string,
  defaultBranchName: string,
): Promise<{ ref: string; commit?: string }> {
  const tracking = `refs/remotes/origin/${defaultBranchName}`;
  const ref = `refs/heads/${defaultBranchName}`;
  const theirsAt = (local: string) => gitOut(local, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  // Origin's branch is read at the URL origin had last time, alongside the read of the URL
  // itself, instead of after it; the answer counts only when the URL is still that one.
  const lastUrl = lastOrigin.get(repo);
  const lastLocal = lastUrl !== undefined ? localRemote(repo, lastUrl) : undefined;
  const [url, have, early] = await Promise.all([
    gitOut(repo, ['remote', 'get-url', 'origin']),
    gitOut(repo, ['rev-parse', '--verify', '--quiet', `${tracking}^{commit}`]),
    lastLocal !== undefined ? theirsAt(lastLocal) : undefined,
  ]);
  if (url === undefined) {
    lastOrigin.delete(repo);
    return { ref: defaultBranchName };
  }
  lastOrigin.set(repo, url);
  const local = localRemote(repo, url);
  const theirs =
    local === undefined ? undefined : url === lastUrl && local === lastLocal ? early : await theirsAt(local);
  if (have && theirs === have) return { ref: `origin/${defaultBranchName}`, commit: have };
  // The fetch writes objects, the tracking ref and its reflog where lanes can write.
  checkNoPlantedLinks(repo, [tracking], { objects: true });
  await serialized(repo, () => git(repo, ['fetch', '--quiet', '--no-tags', 'origin', `+${ref}:${tracking}`]));
  return { ref: `origin/${defaultBranchName}` };
}

/** Each repository's origin URL as last read: where origin's branch is read early next time. */
const lastOrigin = new Map<string, string>();

async function gitOut(cwd: string, args: string[]): Promise<string | undefined> {
  try {
    return (await git(cwd, args)).trim();
  } catch {
    return undefined;
  }
}

/** The folder of a remote URL that is a path on this machine (`/…` or `file:///…`), if it exists. */
function localRemote(repo: string, url: string): string | undefined {
  const p = url.startsWith('file://') ? decodeURIComponent(url.slice('file://'.length)) : url;
  if (!path.isAbsolute(p)) return undefined; // scp-like or a URL: ask the network
  try {
    return fs.statSync(path.resolve(repo, p)).isDirectory() ? p : undefined;
  } catch {
    return undefined;
  }
}
