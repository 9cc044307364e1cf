// What a lane's dirty flag depends on outside its worktree and repository: the person's
// global and system git config and the global excludes file (an ignore rule added or taken
// away there changes what `git status` calls untracked). A kept answer (factsKeeper.ts) is
// stamped with these files' identity on disk and holds only while the stamp is the same.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** The stamp for `env` (the daemon's git environment): each file's inode, size and mtime, or `-`. */
export function gitContextStamp(env: NodeJS.ProcessEnv = process.env): string {
  const home = env.HOME || os.homedir();
  const xdg = env.XDG_CONFIG_HOME || path.join(home, '.config');
  const globalConfig = env.GIT_CONFIG_GLOBAL || path.join(home, '.gitconfig');
  const files = [
    globalConfig,
    path.join(xdg, 'git', 'config'),
    path.join(xdg, 'git', 'ignore'),
    env.GIT_CONFIG_NOSYSTEM ? '' : env.GIT_CONFIG_SYSTEM || '/etc/gitconfig',
  ];
  // A core.excludesFile named in the global config is stamped too.
  for (const config of files.slice(0, 2)) {
    const named = excludesFileOf(config, home);
    if (named) files.push(named);
  }
  return files.map((f) => `${f}=${f ? identity(f) : '-'}`).join('\n');
}

function identity(file: string): string {
  try {
    const st = fs.statSync(file, { bigint: true });
    return `${st.ino}:${st.size}:${st.mtimeNs}`;
  } catch {
    return '-';
  }
}

function excludesFileOf(config: string, home: string): string | undefined {
  let text: string;
  try {
    text = fs.readFileSync(config, 'utf8');
  } catch {
    return undefined;
  }
  const m = /^\s*excludesfile\s*=\s*"?([^"\n]+?)"?\s*$/im.exec(text);
  if (!m) return undefined;
  return m[1].startsWith('~/') ? path.join(home, m[1].slice(2)) : m[1];
}
