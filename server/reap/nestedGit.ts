// A `.git` anywhere in a lane's tree other than the worktree's own is another
// repository's history, or a link to one: a nested clone (even inside an ignored build
// folder), a submodule's checkout, a `.git` file someone wrote. git never stores a `.git`
// entry, so no patch can carry it, and `git worktree remove` deletes it with the folder
// around it. Reap refuses such a tree, as it refuses a play folder holding one.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { unreadableWorkError } from './reapErrors';

/** Every `.git` entry (folder, file or symlink) under `top` except `top/.git`; symlinks are not followed. */
export function nestedGitEntries(top: string, limit = 20): string[] {
  const found: string[] = [];
  const stack = [top];
  while (stack.length && found.length < limit) {
    const current = stack.pop() as string;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(current, { withFileTypes: true });
    } catch (e) {
      if (current === top) throw e;
      // A folder svc cannot read might hide a repository: refuse rather than delete it unseen.
      throw unreadableWorkError(top, [path.relative(top, current) + '/']);
    }
    for (const e of entries) {
      const full = path.join(current, e.name);
      if (e.name === '.git') {
        if (current !== top) found.push(full);
        continue;
      }
      if (e.isDirectory()) stack.push(full);
    }
  }
  return found.sort();
}
