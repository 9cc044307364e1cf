// git: installed, and the identity every agent commits as (user.name and user.email, as
// git resolves them for the user; agents get it as GIT_AUTHOR_*/GIT_COMMITTER_*).
import { execFile } from 'node:child_process';
import type { DoctorCheck } from '../../shared/protocol/doctor';
import { gitIdentityEnv } from '../conversations/gitIdentity';

function gitVersion(env: NodeJS.ProcessEnv): Promise<string | null> {
  return new Promise((resolve) =>
    execFile('git', ['--version'], { env, timeout: 5000 }, (err, out) => resolve(err ? null : String(out).trim())),
  );
}

export async function checkGit(env: NodeJS.ProcessEnv, cwd: string): Promise<DoctorCheck[]> {
  const version = await gitVersion(env);
  if (!version)
    return [
      {
        area: 'git',
        subject: 'git',
        status: 'problem',
        text: "git is not on the daemon's PATH (lanes are git worktrees)",
        fix: 'install git (e.g. apt-get install git), then svc daemon restart',
      },
    ];
  const id = await gitIdentityEnv(cwd, env);
  const checks: DoctorCheck[] = [{ area: 'git', subject: 'git', status: 'ok', text: version, fix: null }];
  // Variables already in the environment win over the config (agents get them as they are).
  const fields = [
    ['user.name', 'GIT_AUTHOR_NAME', '"Your Name"'],
    ['user.email', 'GIT_AUTHOR_EMAIL', 'you@example.com'],
  ] as const;
  for (const [field, variable, example] of fields) {
    const fromEnv = (env[variable] ?? '').trim() !== '';
    const v = fromEnv ? env[variable] : id[variable];
    checks.push(
      v
        ? {
            area: 'git',
            subject: field,
            status: 'ok',
            text: `git ${field}: ${v}${fromEnv ? ` (from ${variable})` : ''}`,
            fix: null,
          }
        : {
            area: 'git',
            subject: field,
            status: 'problem',
            text: `git ${field} is not set: agents cannot commit ("Author identity unknown")`,
            fix: `git config --global ${field} ${example}`,
          },
    );
  }
  return checks;
}
