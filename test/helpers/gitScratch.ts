// Real git for unit tests, confined to a scratch folder: no system config, HOME (and so the
// user's config) inside the scratch, no repository above it, and a fixed identity.
import { execFileSync } from 'node:child_process';

export function gitScratch(root: string): { env: NodeJS.ProcessEnv; git: (cwd: string, ...args: string[]) => string } {
  const env = {
    ...process.env,
    GIT_CONFIG_NOSYSTEM: '1',
    HOME: root,
    GIT_CEILING_DIRECTORIES: root,
    GIT_AUTHOR_NAME: 't',
    GIT_AUTHOR_EMAIL: 't@t.invalid',
    GIT_COMMITTER_NAME: 't',
    GIT_COMMITTER_EMAIL: 't@t.invalid',
  };
  const git = (cwd: string, ...args: string[]) =>
    execFileSync('git', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  return { env, git };
}
