// The sandbox of a lane's agent on a host, worked out there (the daemon never looks at the
// host's paths itself): the same probe and the same plan as on the daemon's machine
// (server/sandbox/), with the host's facts. What differs is where svc keeps its things:
// everything of svc's on the host (~/.svc-host: the clones of origins, the agents' run
// folders and environment files, other daemons' sockets) is hidden, and the parts the agent
// needs are bound back in — the clone the lane is a worktree of (read-only, with its
// objects, refs and reflogs and this worktree's admin folder writable, as locally), svc's
// bundles (the shim and the script agent, read-only), the script profile's copy, and the
// folder of this daemon's forwarded socket (a folder, not the socket itself: svc forwards
// it anew after a lost connection, and a bound file would stay the old one).
import * as os from 'node:os';
import { gitPlaces } from '../../git/gitPlaces';
import { sandboxKindOf } from '../../sandbox/sandboxMode';
import { probeSandbox } from '../../sandbox/sandboxProbe';
import { sandboxedCommand, sandboxFacts } from '../../sandbox/sandboxedCommand';
import { isInside } from '../../sandbox/sandboxPlan';
import type { Wrapped } from '../../sandbox/sandboxWrap';

export interface HostSandboxRequest {
  /** The lane's directory on the host. */
  dir: string;
  /** svc's folder on the host (~/.svc-host), hidden whole inside. */
  svcBase: string;
  /** Folders and files under it the agent must read: svc's bundles, the script's copy. */
  readable: string[];
  /** The folder of this daemon's forwarded socket. */
  socketDir: string;
  /** The harness profile's state entries as written (`~/.claude`, `${CODEX_HOME:-~/.codex}`). */
  state: string[];
  /** The agent's command line, run inside. */
  command: string;
  args: string[];
}

export async function hostSandbox(
  r: HostSandboxRequest,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): Promise<Wrapped> {
  const kind = sandboxKindOf(platform);
  const health = await probeSandbox(env, platform, 'the login PATH of the host', 'there');
  if (!health.ok) return health;
  if (kind === 'none')
    return { ok: false, reason: `svc has no sandbox on ${platform}`, fix: 'run lanes there with --sandbox off' };
  const places = await gitPlaces(r.dir, env);
  if (places.timedOut)
    return {
      ok: false,
      reason: `git did not answer in the lane's directory on the host (${places.timedOut})`,
      fix: 'start the lane again',
    };
  // The clone lives in the hidden folder: it is bound back read-only, its writable parts over it.
  const clone = places.commonDir && !isInside(places.commonDir, r.dir) ? [places.commonDir] : [];
  const facts = sandboxFacts(
    {
      cwd: r.dir,
      svcHome: r.svcBase,
      env,
      home: env.HOME ?? os.homedir(),
      gitDir: places.gitDir,
      commonDir: places.commonDir,
      localRemotes: places.localRemotes,
      hooksPath: places.hooksPath,
      state: r.state,
      readable: [...clone, ...r.readable],
      socket: r.socketDir,
    },
    platform,
  );
  return { ok: true, ...sandboxedCommand(kind, health.tool, facts, r.command, r.args) };
}
