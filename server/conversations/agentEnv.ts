// The environment of an agent process. Every agent gets SVC_CONVERSATION (its id),
// SVC_HOME, PATH with the shim's folder first and SVC_BIN (the shim's absolute path, for
// shells that reset PATH, such as codex's login shell), so `svc …` inside it talks to this
// daemon as that conversation — except bare (play) lanes, launched without service context.
// Forge credentials in the daemon's own environment never reach an agent: verdicts and
// PR writes go out only through the daemon, or an agent could post the service's verdict
// marker itself. A harness profile that sets one in its `env` (config.yaml
// `harnesses.<name>.env`) is the explicit opt-in for the roles launched with it.
// Every agent also gets the user's git identity (gitIdentity.ts) unless already set.
import * as path from 'node:path';
import { shellQuote } from '../../shared/format/shellQuote';
import type { Profile } from '../harness/profiles';
import { globToRegExp } from './names';

export interface EnvInput {
  convId: number;
  convName: string;
  bare: boolean;
  extraEnv: Record<string, string> | null;
  profile: Profile;
  svcHome: string;
  shimDir: string;
  base: NodeJS.ProcessEnv;
  /** The conversation's credential (conversations/callerCredential.ts): the shim presents it. */
  callerToken: string;
  /**
   * A sandboxed agent's own socket: its shim connects there (SVC_SOCKET) and the socket
   * itself says who it is, so it gets no credential (and SVC_HOME is hidden from it).
   */
  agentSocket?: string;
  /**
   * A local lane's push URLs of local remotes: its `git push` to each goes through svc
   * (`url.svc::<url>.pushInsteadOf`, run by bin/git-remote-svc), which applies the lane ref policy.
   */
  pushThroughSvc?: string[];
  /** The GIT_AUTHOR_ and GIT_COMMITTER_ variables from the user's git config; set where the environment has none. */
  gitIdentity?: Record<string, string>;
}

const SERVICE_VARS = ['SVC_CONVERSATION', 'SVC_CALLER_TOKEN', 'SVC_HOME', 'SVC_BIN', 'SVC_SCRIPT_FILE', 'SVC_SOCKET'];
/** The daemon's credentials for code hosts (tokens, the webhook secret, an App's key). */
export const FORGE_CREDENTIAL_VARS = [
  'GITHUB_TOKEN',
  'GH_TOKEN',
  'GITHUB_ENTERPRISE_TOKEN',
  'GH_ENTERPRISE_TOKEN',
  'GITHUB_WEBHOOK_SECRET',
  'SVC_GITHUB_APP_PRIVATE_KEY',
];

export function agentEnv(i: EnvInput): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...i.base };
  for (const k of [...SERVICE_VARS, ...FORGE_CREDENTIAL_VARS]) delete env[k];
  Object.assign(env, i.profile.env, i.extraEnv ?? {});
  for (const [k, v] of Object.entries(i.gitIdentity ?? {})) env[k] ??= v;
  const parts = (env.PATH ?? '').split(path.delimiter).filter((p) => p && path.resolve(p) !== path.resolve(i.shimDir));
  if (i.bare) {
    env.PATH = parts.join(path.delimiter);
    for (const k of ['SVC_CONVERSATION', 'SVC_CALLER_TOKEN', 'SVC_HOME']) delete env[k];
  } else {
    env.SVC_CONVERSATION = String(i.convId);
    if (i.agentSocket) env.SVC_SOCKET = i.agentSocket;
    else env.SVC_CALLER_TOKEN = i.callerToken;
    env.SVC_HOME = i.svcHome;
    env.SVC_BIN = path.join(i.shimDir, 'svc');
    env.PATH = [i.shimDir, ...parts].join(path.delimiter);
  }
  if (!i.bare) pushesThroughSvc(env, i.pushThroughSvc ?? [], path.join(i.shimDir, 'git-remote-svc'));
  const script = scriptFor(i.profile.scripts, i.convName);
  if (script) env.SVC_SCRIPT_FILE = path.resolve(i.svcHome, script);
  return env;
}

/**
 * Adds one `url.svc::<url>.pushInsteadOf <url>` per URL after the environment's own
 * GIT_CONFIG_* entries, and `alias.remote-svc` naming the helper by absolute paths: git runs
 * a remote helper as `git remote-svc`, finding `git-remote-svc` on PATH or else that alias,
 * so a push works from a login shell too (codex runs every command in one), whose PATH has
 * neither svc's bin folder nor, perhaps, this Node.
 */
function pushesThroughSvc(env: NodeJS.ProcessEnv, urls: string[], helper: string): void {
  if (urls.length === 0) return;
  let n = Number.parseInt(env.GIT_CONFIG_COUNT ?? '', 10);
  if (!Number.isInteger(n) || n < 0) n = 0;
  const entries: [string, string][] = [
    ...urls.map((url): [string, string] => [`url.svc::${url}.pushInsteadOf`, url]),
    ['alias.remote-svc', `!${shellQuote(process.execPath)} ${shellQuote(helper)}`],
  ];
  for (const [key, value] of entries) {
    env[`GIT_CONFIG_KEY_${n}`] = key;
    env[`GIT_CONFIG_VALUE_${n}`] = value;
    n++;
  }
  env.GIT_CONFIG_COUNT = String(n);
}

/** The script file of the first glob matching the conversation's name. */
export function scriptFor(scripts: Record<string, string>, name: string): string | undefined {
  for (const [glob, file] of Object.entries(scripts)) if (globToRegExp(glob).test(name)) return file;
  return undefined;
}
