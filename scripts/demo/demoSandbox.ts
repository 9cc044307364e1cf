// Whether the demo's lanes run in the default sandbox here. Without a working bubblewrap
// (a fresh machine has none) the demo runs its scripted lanes with the sandbox off and says
// so in one line, with how to get the default: the demo shows svc, not a sandbox failure.
import { defaultSandboxMode } from '../../server/sandbox/sandboxMode';
import { OFF_FIX, probeSandbox } from '../../server/sandbox/sandboxProbe';

/** `none`: the platform has no sandbox (lanes run off by default); `off`: the demo turns it off, `line` says why. */
export type DemoSandbox = { mode: 'workspace' | 'none' } | { mode: 'off'; line: string };

export async function demoSandbox(env: NodeJS.ProcessEnv, platform = process.platform): Promise<DemoSandbox> {
  if (defaultSandboxMode(platform) === 'off') return { mode: 'none' };
  const health = await probeSandbox(env, platform, 'PATH');
  if (health.ok) return { mode: 'workspace' };
  // The demo turns the sandbox off itself: the fix is only the way to the default.
  const fix = health.fix.endsWith(OFF_FIX) ? health.fix.slice(0, -OFF_FIX.length).replace(/[;\s]+$/, '') : health.fix;
  return { mode: 'off', line: `sandbox off: ${health.reason}; for the default sandbox, ${fix}` };
}
