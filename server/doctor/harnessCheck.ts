// One harness: installed (its command on the agents' PATH), version, credentials, the
// mode its lanes run in. A harness that is not installed is a problem only when a
// setting or a profile names it; credentials missing for an installed one always are.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { DoctorCheck, HarnessHealth } from '../../shared/protocol/doctor';
import { SVC_VERSION } from '../../shared/version';
import { findCommand } from '../harness/agentProcess';
import type { Profile } from '../harness/profiles';
import { laneMode } from './laneMode';
import { packageVersion, versionFlag } from './harnessVersion';

export interface HarnessInput {
  profile: Profile;
  builtIn: boolean;
  used: boolean;
  /** The daemon's environment (agents get it with the profile's env over it). */
  env: NodeJS.ProcessEnv;
  /** config.yaml as messages show it (`~/.svc/config.yaml`). */
  configShown: string;
}

/** Credential files an adapter reads besides its variables (Claude's `/login`). */
/** The files each harness's own login writes (`claude /login`, `codex login`, gemini's Google sign-in): credentials as good as a key. */
function credentialFiles(name: string, env: NodeJS.ProcessEnv): string[] {
  if (!env.HOME) return [];
  if (name === 'claude') return [path.join(env.HOME, '.claude', '.credentials.json')];
  if (name === 'codex') return [path.join(env.CODEX_HOME || path.join(env.HOME, '.codex'), 'auth.json')];
  if (name === 'gemini') return [path.join(env.HOME, '.gemini', 'oauth_creds.json')];
  return [];
}

export async function checkHarness(i: HarnessInput): Promise<{ health: HarnessHealth; checks: DoctorCheck[] }> {
  const { profile } = i;
  const env = { ...i.env, ...profile.env };
  const cwd = env.HOME && fs.existsSync(env.HOME) ? env.HOME : process.cwd();
  const found = findCommand(profile.command, env.PATH, cwd) ?? null;
  let version: string | null = null;
  if (profile.name === 'script' && i.builtIn) version = SVC_VERSION;
  else if (found) {
    // Only the package the profile names: any package.json further up could be another's.
    const bare = profile.args.filter((a) => a !== profile.acpFlag?.flag).length === 0;
    version =
      (profile.install ? packageVersion(found, profile.install) : null) ??
      (bare ? await versionFlag(found, env, cwd) : null);
  }

  const needs = profile.authEnv ?? [];
  const files = credentialFiles(profile.name, env);
  const foundAuth = needs.find((v) => (env[v] ?? '').trim() !== '') ?? files.find((f) => fs.existsSync(f)) ?? null;
  const health: HarnessHealth = {
    name: profile.name,
    builtIn: i.builtIn,
    command: profile.command,
    path: found,
    installed: found !== null,
    version,
    auth: {
      needs: [...needs, ...files.map((f) => (env.HOME ? f.replace(env.HOME, '~') : f))],
      found: foundAuth && env.HOME ? foundAuth.replace(env.HOME, '~') : foundAuth,
    },
    mode: laneMode(profile, i.builtIn),
    used: i.used,
  };

  const checks: DoctorCheck[] = [];
  const subject = profile.name;
  if (!found) {
    const how = profile.install ? `npm install -g ${profile.install}` : `install ${profile.command}`;
    checks.push({
      area: 'harness',
      subject,
      status: i.used ? 'problem' : 'note',
      text: `${subject}: not installed (${profile.command} not found on the agents' PATH)${i.used ? '; a setting or profile uses it' : ''}`,
      fix: `${how}, or set harnesses.${subject}.command in ${i.configShown} to its path; then svc daemon restart so the daemon sees the new PATH`,
    });
    return { health, checks };
  }
  const facts = [`installed at ${found}`, version ? `version ${version}` : 'version unknown'];
  checks.push({
    area: 'harness',
    subject,
    status: 'ok',
    text: `${subject}: ${facts.join(', ')}; lanes run in: ${health.mode}`,
    fix: null,
  });
  if (needs.length && !foundAuth) {
    const list = needs.join(' or ');
    checks.push({
      area: 'harness',
      subject,
      status: 'problem',
      text: `${subject}: no credentials (${list} is not set for agents${files.length ? `, and no ${health.auth.needs.slice(needs.length).join(', ')}` : ''})`,
      fix: `export ${needs[0]}=<your key> where the daemon starts, then svc daemon restart; or set harnesses.${subject}.env.${needs[0]} in ${i.configShown}`,
    });
  } else if (needs.length) {
    checks.push({
      area: 'harness',
      subject,
      status: 'ok',
      text: `${subject}: credentials from ${health.auth.found}`,
      fix: null,
    });
  }
  return { health, checks };
}
