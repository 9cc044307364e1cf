// The bubblewrap command line for one agent: the whole filesystem read-only, the mounts
// of its plan over it in order, its own PID namespace, and the network kept (it must reach
// its model's API). No --new-session: the agent must stay in the process group svc signals
// on stop (the daemon has no controlling terminal for it to reach anyway).
import type { Mount } from './sandboxPlan';

/**
 * What every sandbox starts from, the agent's and the probe's (sandboxProbe.ts): the whole
 * filesystem read-only and a PID namespace of its own. Everything the sandbox started dies
 * with that namespace; the namespace dies with the daemon that started it, which could no
 * longer talk to the agent.
 *
 * No capability at all: run by root (containers, CI), bubblewrap otherwise hands the agent
 * every one, and with CAP_SYS_ADMIN it could unmount the tmpfs that hides SVC_HOME. Without
 * them a mount, unmount or remount inside is refused as it is to any user. bubblewrap always
 * sets no-new-privileges, so no setuid program inside gains them back.
 */
export const BWRAP_BASE_ARGS: readonly string[] = [
  '--cap-drop',
  'ALL',
  '--die-with-parent',
  '--unshare-pid',
  '--ro-bind',
  '/',
  '/',
  '--dev',
  '/dev',
  '--proc',
  '/proc',
];

export function bwrapArgs(mounts: Mount[], cwd: string): string[] {
  const args = [...BWRAP_BASE_ARGS];
  for (const m of mounts) {
    if (m.kind === 'tmpfs') args.push(...(m.mode ? ['--perms', m.mode] : []), '--tmpfs', m.path);
    else args.push(m.kind === 'rw' ? '--bind' : '--ro-bind', m.from ?? m.path, m.path);
  }
  args.push('--chdir', cwd, '--');
  return args;
}
