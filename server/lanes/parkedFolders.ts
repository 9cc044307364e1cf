// Which lanes' folders hold parked patches, for lists of many lanes: the Command Deck lists
// every lane on each change, and listing each lane's folder (1,684 `readdir`s for 2,000
// conversations) was a fifth of its lane list. The folders stay the record
// (reap/parkedPatches.ts): a person may delete a patch by hand, or copy one back, and the
// list must show what is on disk. So every read still asks the disk about every folder,
// with one `stat` instead of a listing: a folder's names are listed again whenever its
// directory changed since they were (adding, removing or renaming an entry changes the
// directory's mtime and ctime, and no one can set a ctime back). The patches' headers
// are read on each read, as before; only the names are kept.
import * as fs from 'node:fs';
import { isParkedPatchName } from '../reap/parkedPatches';

/**
 * A change within this long before a listing may share its timestamp with a change right
 * after it (timestamps are coarse: a clock tick, 2 s on FAT): such a listing is not kept.
 * Git calls the same case "racily clean".
 */
const RACY_MS = 3000;

interface Listed {
  /** The directory as it was stat'ed just before it was listed. */
  stamp: string;
  /** Its parked patch names (most folders: none). */
  patches: readonly string[];
}

export class ParkedFolders {
  private readonly listed = new Map<string, Listed>();
  /** Folders listed so far (tests read it to see an unchanged folder is not listed again). */
  listings = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** The parked patch names in `folder` as they are on disk now (none when it is missing or unreadable). */
  patchNames(folder: string): readonly string[] {
    const before = this.now();
    let st: fs.Stats | undefined;
    try {
      st = fs.statSync(folder, { throwIfNoEntry: false });
    } catch {
      st = undefined; // not reachable (a permission, a file in the way of its path): no patches to show
    }
    if (!st?.isDirectory()) {
      this.listed.delete(folder);
      return [];
    }
    const stamp = `${st.dev}:${st.ino}:${st.mtimeMs}:${st.ctimeMs}`;
    const kept = this.listed.get(folder);
    if (kept?.stamp === stamp) return kept.patches;
    let names: string[];
    try {
      names = fs.readdirSync(folder);
      this.listings++;
    } catch {
      this.listed.delete(folder);
      return [];
    }
    const patches = names.filter(isParkedPatchName);
    // Listed after the stat: a change in between shows as a new stamp next time. A change
    // in the same clock tick as the stat would not, so a folder changed just now is not kept.
    if (Math.max(st.mtimeMs, st.ctimeMs) < before - RACY_MS) this.listed.set(folder, { stamp, patches });
    else this.listed.delete(folder);
    return patches;
  }
}
