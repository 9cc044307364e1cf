// The permission or sandbox mode a harness's lanes run in, in words. svc itself puts each
// lane's session in the profile's `auto` mode (a role set to ask gets the `ask` mode), so
// that mode, not the adapter's own default or settings file, is what lanes run in.
import type { Profile } from '../harness/profiles';
import { defaultSandboxMode } from '../sandbox/sandboxMode';

/** What the built-in profiles' modes allow, in a person's words. */
const MODE_WORDS: Record<string, string> = {
  bypassPermissions: 'every tool call allowed without asking',
  'agent-full-access': 'full access: no sandbox, writes anywhere, network on',
  yolo: 'every tool call approved without asking',
  default: 'asks before edits and commands',
  'workspace-write': 'sandboxed: writes only inside the workspace',
};

const described = (mode: string) => (MODE_WORDS[mode] ? `${mode} (${MODE_WORDS[mode]})` : mode);

/** Where the script harness's steps run: svc's sandbox is the lane's, not the harness's own. */
function scriptSandbox(profile: Profile, platform: NodeJS.Platform): string {
  if (profile.sandbox === 'off') return `unconfined (harnesses.${profile.name}.sandbox: off)`;
  if (defaultSandboxMode(platform) === 'off') return `unconfined (svc has no sandbox on ${platform})`;
  return "in the lane's workspace sandbox unless its role or launch says off";
}

export function laneMode(profile: Profile, builtIn: boolean, platform: NodeJS.Platform = process.platform): string {
  if (!builtIn) return `as its command ${profile.command} decides`;
  if (profile.name === 'script')
    return `runs its run steps with sh -c ${scriptSandbox(profile, platform)}; asks only on ask steps`;
  const { auto, ask } = profile.modes;
  if (!auto) return `as its command ${profile.command} decides`;
  return `${described(auto)}, set by svc on each lane's session${ask ? `; a role set to ask runs in ${described(ask)}` : ''}`;
}
