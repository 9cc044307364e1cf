// A `.git` anywhere in a lane's tree other than the worktree's own is another
// repository's history, or a link to one: a nested clone (even inside an ignored build
// folder), a submodule's checkout, a `.git` file someone wrote. git never stores a `.git`
// entry, so no patch can carry it, and `git worktree remove` deletes it with the folder
// around it. Reap refuses such a tree, as it refuses a play folder holding one.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { unreadableWorkError } from './reapErrors';

/**
 * Every `.git` entry (folder, file or symlink) under `top` except `top/.git`; symlinks are
 * not followed. Names are read as bytes: a folder whose name is not UTF-8 is still walked.
 */
export function nestedGitEntries(top: string, limit = 20): string[] {
  const found: string[] = [];
  const root = Buffer.from(top);
  const stack: Buffer[] = [root];
  while (stack.length && found.length < limit) {
    const current = stack.pop() as Buffer;
    let entries: fs.Dirent<Buffer>[];
    try {
      entries = fs.readdirSync(current, { withFileTypes: true, encoding: 'buffer' });
    } catch (e) {
      if (current === root) throw e;
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') continue; // gone meanwhile
      // A folder svc cannot read might hide a repository: refuse rather than delete it unseen.
      throw unreadableWorkError(top, [current.subarray(root.length + 1).toString('utf8') + '/']);
    }
    for (const e of entries) {
      const full = Buffer.concat([current, Buffer.from(path.sep), e.name]);
      if (e.name.toString('latin1') === '.git') {
        if (current !== root) found.push(full.toString('utf8'));
        continue;
      }
      if (e.isDirectory()) stack.push(full);
    }
  }
  return found.sort();
}

/** The repositories under `<gitDir>/modules` (each a folder with a HEAD), as `modules/<name>` paths. */
export function submoduleGitDirs(gitDir: string, limit = 20): string[] {
  const root = path.join(gitDir, 'modules');
  const found: string[] = [];
  const stack = [root];
  while (stack.length && found.length < limit) {
    const current = stack.pop() as string;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(current, { withFileTypes: true });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') continue;
      throw unreadableWorkError(gitDir, [path.relative(gitDir, current) + '/']);
    }
    if (current !== root && entries.some((e) => e.name === 'HEAD')) {
      found.push(current);
      continue;
    }
    // A submodule named `a/b` has its repository at modules/a/modules/b or modules/a/b.
    for (const e of entries) if (e.isDirectory()) stack.push(path.join(current, e.name));
  }
  return found.sort();
}
