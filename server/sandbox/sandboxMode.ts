// Which sandbox a lane's agent runs in. `workspace` is the default wherever svc can
// confine an agent (bubblewrap on Linux, Seatbelt on macOS); Windows has no sandbox svc
// can build, so lanes there run `off` and say so. The most specific setting wins: the
// launch's --sandbox, then the role's gauntlet setting, then the harness profile's.
import type { SandboxMode } from '../../shared/config';

/** How the agent is confined on this platform: the tool svc wraps it in, or none. */
export type SandboxKind = 'bwrap' | 'seatbelt' | 'none';

export function sandboxKindOf(platform: NodeJS.Platform): SandboxKind {
  if (platform === 'linux') return 'bwrap';
  if (platform === 'darwin') return 'seatbelt';
  return 'none';
}

export function defaultSandboxMode(platform: NodeJS.Platform): SandboxMode {
  return sandboxKindOf(platform) === 'none' ? 'off' : 'workspace';
}

export interface SandboxChoices {
  launch?: SandboxMode;
  role?: SandboxMode;
  profile?: SandboxMode;
}

/** The mode a lane starts in. */
export function resolveSandboxMode(c: SandboxChoices, platform: NodeJS.Platform): SandboxMode {
  return c.launch ?? c.role ?? c.profile ?? defaultSandboxMode(platform);
}
