// The permission or sandbox mode a harness's lanes run in, in words, from what svc can
// see: the profile's arguments and environment and the adapter's own settings file.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Profile } from '../harness/profiles';

function claudeDefaultMode(home: string | undefined): string | null {
  if (!home) return null;
  try {
    const s = JSON.parse(fs.readFileSync(path.join(home, '.claude', 'settings.json'), 'utf8')) as { permissions?: { defaultMode?: unknown } };
    return typeof s.permissions?.defaultMode === 'string' ? s.permissions.defaultMode : null;
  } catch {
    return null;
  }
}

function argValue(args: string[], flag: string): string | null {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === flag && i + 1 < args.length) return args[i + 1];
    if (args[i].startsWith(`${flag}=`)) return args[i].slice(flag.length + 1);
  }
  return null;
}

/** `env`: the environment agents of this profile get (daemon env with the profile's env over it). */
export function laneMode(profile: Profile, env: NodeJS.ProcessEnv, builtIn: boolean): string {
  if (!builtIn) return `as its command ${profile.command} decides`;
  switch (profile.name) {
    case 'claude': {
      const mode = claudeDefaultMode(env.HOME);
      return mode
        ? `permission mode ${mode} (permissions.defaultMode in ~/.claude/settings.json)`
        : "the adapter's default permission mode (auto: a classifier decides tool calls; no permission request reaches svc)";
    }
    case 'codex': {
      const mode = env.INITIAL_AGENT_MODE;
      return mode ? `agent mode ${mode} (INITIAL_AGENT_MODE)` : "codex's default agent mode (sandboxed: writes only inside the workspace, no network)";
    }
    case 'gemini': {
      if (profile.args.includes('--yolo') || profile.args.includes('-y')) return 'yolo (every tool call approved without asking)';
      const mode = argValue(profile.args, '--approval-mode');
      return mode ? `approval mode ${mode} (--approval-mode)` : "gemini's default approval mode (asks before edits and shell commands)";
    }
    case 'script':
      return 'runs its run steps with sh -c, unsandboxed; asks only on ask steps';
    default:
      return `as its command ${profile.command} decides`;
  }
}
