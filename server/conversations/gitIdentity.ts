// The user's git identity, handed to every agent as GIT_AUTHOR_* and GIT_COMMITTER_*: some
// harnesses run commands with the global git config hidden (gemini's shell sets
// GIT_CONFIG_GLOBAL=/dev/null), and a lane must still be able to commit as the user.
import { gitTextSync } from '../git/gitExec';

const VARS = { name: ['GIT_AUTHOR_NAME', 'GIT_COMMITTER_NAME'], email: ['GIT_AUTHOR_EMAIL', 'GIT_COMMITTER_EMAIL'] } as const;

/** user.name and user.email as git resolves them in `cwd` (repository config over global), as variables. */
export function gitIdentityEnv(cwd: string, env: NodeJS.ProcessEnv): Record<string, string> {
  const out = gitTextSync(cwd, ['config', '--get-regexp', '^user\\.(name|email)$'], { env, timeoutMs: 5000 });
  if (out === undefined) return {}; // no git, no identity, or cwd gone: the agent's git says what is missing
  const vars: Record<string, string> = {};
  for (const line of out.split('\n')) {
    const m = /^user\.(name|email) (.*)$/.exec(line);
    if (!m) continue;
    for (const v of VARS[m[1] as 'name' | 'email']) vars[v] = m[2];
  }
  return vars;
}
