// A watch of every change under a worktree (a file written, made, removed or renamed at
// any depth), for the kept dirty flags of worktreeFacts.ts.
//
// On Linux this is one inotify watch per FOLDER, kept up to date as folders come and go.
// Node's own recursive `fs.watch` there (before Node 26) adds one per file and folder: a
// 3,000-file worktree took 3,031 inotify watches and ~9 MB of the daemon's memory, so 100
// lanes of such a repository held 300,000 watches — past the kernel's per-user limit
// (fs.inotify.max_user_watches), which the person's editor and tools share. A folder's
// inotify watch reports its files' changes as well (inotify(7)), so nothing is lost.
// Elsewhere the platform watches a tree natively (FSEvents, ReadDirectoryChangesW) and the
// recursive `fs.watch` is used as it is.
//
// Names are handled as bytes, so a folder whose name is not UTF-8 is watched too.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Folders watched at most in one worktree; a larger tree is not watched (its flag is recounted on every read). */
export const MAX_WATCHED_DIRS = 4096;

export interface TreeWatch {
  close(): void;
  /** The inotify watches it holds (one a folder; undefined where the platform watches the tree natively). */
  size?(): number;
}

/**
 * Watches `dir` and everything under it but its top-level `.git` folder (a main checkout's
 * git dir is watched apart). `onChange` hears each change (the path relative to `dir`,
 * when the platform names it); `onLost` hears that the watch can no longer see every
 * change (an error, a new folder that could not be watched). Throws when the tree cannot
 * be watched at all (more than MAX_WATCHED_DIRS folders, or an error from the system).
 */
export function watchTree(
  dir: string,
  onChange: (file: string | null) => void,
  onLost: () => void,
  platform: NodeJS.Platform = process.platform,
): TreeWatch {
  if (platform !== 'linux') {
    const w = fs.watch(dir, { recursive: true, persistent: false }, (_event, file) => onChange(file));
    w.on('error', onLost);
    return w;
  }
  return new FolderWatches(Buffer.from(dir), onChange, onLost);
}

const SEP = Buffer.from(path.sep);
const DOT_GIT = Buffer.from('.git');

/** One non-recursive watch per folder, by the folder's path (as bytes, in latin1 for the map key). */
class FolderWatches implements TreeWatch {
  private readonly watches = new Map<string, fs.FSWatcher>();
  private closed = false;

  constructor(
    private readonly root: Buffer,
    private readonly onChange: (file: string | null) => void,
    private readonly onLost: () => void,
  ) {
    try {
      this.addTree(Buffer.alloc(0));
    } catch (e) {
      this.close();
      throw e;
    }
  }

  size(): number {
    return this.watches.size;
  }

  close(): void {
    this.closed = true;
    for (const w of this.watches.values()) w.close();
    this.watches.clear();
  }

  /**
   * Watches the folder `rel` (relative to the root; empty for the root) and every folder
   * under it. Each folder is watched before it is read, so a folder made inside it after
   * the read is reported by the watch, and one made before is found by the read.
   */
  private addTree(rel: Buffer): void {
    const todo = [rel];
    for (let next = todo.pop(); next !== undefined; next = todo.pop()) {
      const key = next.toString('latin1');
      if (this.watches.has(key)) continue;
      if (this.watches.size >= MAX_WATCHED_DIRS)
        throw new Error(`more than ${MAX_WATCHED_DIRS} folders under ${this.root.toString()}`);
      const at = next;
      const abs = at.length ? Buffer.concat([this.root, SEP, at]) : this.root;
      let w: fs.FSWatcher;
      try {
        w = fs.watch(abs, { persistent: false, encoding: 'buffer' }, (event, name) => this.heard(at, event, name));
      } catch (e) {
        // Removed between its parent's read and now: nothing left to watch there.
        if ((e as NodeJS.ErrnoException).code === 'ENOENT' && at.length) continue;
        throw e;
      }
      w.on('error', () => this.lost());
      this.watches.set(key, w);
      let entries: fs.Dirent<Buffer>[];
      try {
        entries = fs.readdirSync(abs, { withFileTypes: true, encoding: 'buffer' });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT' && at.length) continue;
        throw e;
      }
      for (const d of entries) {
        if (!d.isDirectory() || (!at.length && d.name.equals(DOT_GIT))) continue;
        todo.push(at.length ? Buffer.concat([at, SEP, d.name]) : d.name);
      }
    }
  }

  private heard(folder: Buffer, event: string, name: Buffer | null): void {
    if (this.closed) return;
    const rel = name === null ? null : folder.length ? Buffer.concat([folder, SEP, name]) : name;
    this.onChange(rel === null ? null : rel.toString());
    // A name made, removed or renamed: a new folder is watched from now on, a gone one let go.
    if (event !== 'rename' || rel === null || (!folder.length && name!.equals(DOT_GIT))) return;
    let isDir = false;
    try {
      isDir = fs.lstatSync(Buffer.concat([this.root, SEP, rel])).isDirectory();
    } catch {
      // gone
    }
    try {
      if (isDir) this.addTree(rel);
      else this.forget(rel);
    } catch {
      this.lost(); // too many folders now, or one that cannot be watched: changes there would go unseen
    }
  }

  /** Stops watching the folder `rel` and every folder under it (removed, or renamed away). */
  private forget(rel: Buffer): void {
    const key = rel.toString('latin1');
    const under = key + path.sep;
    for (const [k, w] of this.watches)
      if (k === key || k.startsWith(under)) {
        w.close();
        this.watches.delete(k);
      }
  }

  private lost(): void {
    if (this.closed) return;
    this.close();
    this.onLost();
  }
}
