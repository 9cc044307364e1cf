// The user's git identity, handed to every agent as GIT_AUTHOR_* and GIT_COMMITTER_*: some
// harnesses run commands with the global git config hidden (gemini's shell sets
// GIT_CONFIG_GLOBAL=/dev/null), and a lane must still be able to commit as the user.
import { AGENT_PROBE_TIMEOUT_MS, GitTimeout, spawnGit } from '../git/gitExec';

const VARS = {
  name: ['GIT_AUTHOR_NAME', 'GIT_COMMITTER_NAME'],
  email: ['GIT_AUTHOR_EMAIL', 'GIT_COMMITTER_EMAIL'],
} as const;

export interface GitIdentity {
  vars: Record<string, string>;
  /** The config files the values came from (git config --show-origin). */
  origins: string[];
  /** Git did not answer in time: the identity is unknown this once (never kept). */
  timedOut?: string;
}

/** user.name and user.email as git resolves them in `cwd` (repository config over global), as variables. */
export function gitIdentity(
  cwd: string,
  env: NodeJS.ProcessEnv,
  timeoutMs = AGENT_PROBE_TIMEOUT_MS,
): Promise<GitIdentity> {
  // No git, no identity, or cwd gone: the agent's git says what is missing.
  return spawnGit(cwd, ['config', '--show-origin', '-z', '--get-regexp', '^user\\.(name|email)$'], {
    env,
    timeoutMs,
  }).then(
    (r) => (r.code === 0 ? parse(r.stdout.toString('utf8')) : { vars: {}, origins: [] }),
    (e: unknown) => ({ vars: {}, origins: [], ...(e instanceof GitTimeout ? { timedOut: e.message } : {}) }),
  );
}

export async function gitIdentityEnv(cwd: string, env: NodeJS.ProcessEnv): Promise<Record<string, string>> {
  return (await gitIdentity(cwd, env)).vars;
}

/** `-z --show-origin` records: `file:<path>\0user.name\n<value>\0`. */
function parse(out: string): GitIdentity {
  const vars: Record<string, string> = {};
  const origins = new Set<string>();
  const fields = out.split('\0');
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const origin = fields[i];
    const nl = fields[i + 1].indexOf('\n');
    const m = nl < 0 ? null : /^user\.(name|email)$/.exec(fields[i + 1].slice(0, nl));
    if (!m) continue; // a key without a value names no one
    if (origin.startsWith('file:')) origins.add(origin.slice('file:'.length));
    for (const v of VARS[m[1] as 'name' | 'email']) vars[v] = fields[i + 1].slice(nl + 1);
  }
  return { vars, origins: [...origins] };
}
