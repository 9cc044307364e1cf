// The daemon's own git writes in a repository whose refs/, logs/ and objects/ a local lane
// can write (its worktree shares them): a symbolic link planted there would make git write
// where the link points, with the person's rights (a reflog line appended to a shell start-up
// file, a ref file in SVC_HOME). Git never makes a link in these places, so before the
// daemon writes a branch (a lane's worktree) or fetches the base, every place that write
// goes through is checked with lstat: no link anywhere on the way, and no FIFO, socket or
// device where git writes a ref or reflog (a FIFO would hang git). Cheap: a few lstat calls
// per branch, and the 256 loose-object folders once per fetch.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { plantedLinkError } from './gitRefusals';

/** The common git dir of the checkout at `repo` (`.git`, or what a worktree's `.git` file and `commondir` name). */
export function commonGitDir(repo: string): string | undefined {
  const dotGit = path.join(repo, '.git');
  try {
    if (fs.lstatSync(dotGit).isDirectory()) return dotGit;
    const m = /^gitdir:\s*(.+?)\s*$/m.exec(fs.readFileSync(dotGit, 'utf8'));
    if (!m) return undefined;
    const gitDir = path.resolve(repo, m[1]);
    const common = fs.readFileSync(path.join(gitDir, 'commondir'), 'utf8').trim();
    return path.resolve(gitDir, common);
  } catch {
    return undefined;
  }
}

/** The places writing `ref` (a full ref name) goes through, relative to the common dir: its folders, then the ref and its reflog. */
export function refWritePlaces(ref: string): { folders: string[]; files: string[] } {
  const parts = ref.split('/');
  const folders: string[] = ['logs'];
  for (let i = 1; i < parts.length; i++) {
    folders.push(parts.slice(0, i).join('/'));
    folders.push(path.posix.join('logs', ...parts.slice(0, i)));
  }
  return { folders, files: [ref, path.posix.join('logs', ref)] };
}

/** The loose-object folders and the pack folder a fetch writes into. */
export function objectWritePlaces(): string[] {
  const hex = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
  return ['objects', 'objects/pack', 'objects/info', ...hex.map((h) => `objects/${h}`)];
}

/** The first place that is not what git would make there, described; undefined when all are. */
export function plantedPlace(commonDir: string, places: { folders: string[]; files: string[] }): string | undefined {
  const kind = (rel: string): 'none' | 'dir' | 'file' | 'link' | 'other' => {
    let st: fs.Stats;
    try {
      st = fs.lstatSync(path.join(commonDir, rel));
    } catch {
      return 'none';
    }
    return st.isSymbolicLink() ? 'link' : st.isDirectory() ? 'dir' : st.isFile() ? 'file' : 'other';
  };
  for (const f of places.folders) {
    const k = kind(f);
    if (k === 'link') return `${f} is a symbolic link`;
    if (k === 'other') return `${f} is not a folder`;
  }
  for (const f of places.files) {
    const k = kind(f);
    if (k === 'link') return `${f} is a symbolic link`;
    // A folder there is a branch's folder (`a/b` beside a wanted `a`): git's own refusal says that.
    if (k === 'other') return `${f} is not a regular file`;
  }
  return undefined;
}

/** Throws plantedLink unless git can write `refs` (and, `objects`, fetched objects) in `repo`'s common dir without following a link. */
export function checkNoPlantedLinks(repo: string, refs: string[], opts: { objects?: boolean } = {}): void {
  const common = commonGitDir(repo);
  if (!common) return; // not a checkout svc can read: git's own refusal says so
  const folders: string[] = [];
  const files: string[] = [];
  for (const r of refs) {
    const p = refWritePlaces(r);
    folders.push(...p.folders);
    files.push(...p.files);
  }
  if (opts.objects) folders.push(...objectWritePlaces());
  const bad = plantedPlace(common, { folders: [...new Set(folders)], files });
  if (bad) throw plantedLinkError(common, bad);
}
