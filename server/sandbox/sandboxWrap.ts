// The sandbox a lane's agent starts in, as the harness session asks for it: probe that the
// sandbox can start here (the reason and the fix when not), make the plan's facts concrete,
// and return the command line that runs the agent inside.
import { sandboxKindOf } from './sandboxMode';
import type { SandboxProbe } from './sandboxProbe';
import { sandboxedCommand, sandboxFacts } from './sandboxedCommand';
import type { SandboxRequest } from './sandboxedCommand';

export type Wrapped = { ok: true; command: string; args: string[] } | { ok: false; reason: string; fix: string };

export function sandboxWrap(
  probe: SandboxProbe,
  request: SandboxRequest,
  platform: NodeJS.Platform = process.platform,
): (command: string, args: string[]) => Promise<Wrapped> {
  return async (command, args) => {
    const kind = sandboxKindOf(platform);
    const health = await probe.check(process.env);
    if (!health.ok || kind === 'none')
      return health.ok
        ? { ok: false, reason: `svc has no sandbox on ${platform}`, fix: 'run lanes with --sandbox off' }
        : health;
    return { ok: true, ...sandboxedCommand(kind, health.tool, sandboxFacts(request, platform), command, args) };
  };
}
