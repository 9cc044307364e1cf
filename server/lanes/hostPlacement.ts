// Where a lane on a host goes: the host's lanes root as the host resolves it
// (`~/…` is the SSH user's home there), and how its directory is made there — a worktree
// of the host's own bare clone of the project's origin (fetched before each launch), or a
// play lane's empty folder — by svc's helper on the host.
import { gitOk, git } from '../git/git';
import { repoIdOf } from '../hosts/hostLink';
import { shellWord, shq, sshLine } from '../hosts/remoteShell';
import { hostLanesRootMissingError, hostNeedsOriginError, laneDirFailedError } from './laneRefusals';
import type { LanesContext } from './lanesContext';
import { localPlacement } from './placement';
import type { LaneDir, LanePlacement } from './placement';
import type { Project } from '../../shared/config';

/**
 * A lane on host `name`. Its directories are paths there, checked there; a start that is
 * not a commit (a previous iteration's branch) is resolved there, and whether the branch
 * exists is asked of the host's clone when the worktree is made.
 */
export async function hostPlacement(
  ctx: LanesContext,
  name: string,
  repo: string,
  project: string,
  gitBacked: boolean,
): Promise<LanePlacement> {
  const spec = ctx.hostOps.host(name).spec;
  let origin = '';
  if (gitBacked) {
    if (!(await gitOk(repo, ['remote', 'get-url', 'origin']))) {
      throw hostNeedsOriginError(name, project);
    }
    origin = (await git(repo, ['remote', 'get-url', 'origin'])).trim();
  }
  const ready = await ctx.hostOps.prepare(name);
  const root = spec.lanesRoot.startsWith('~/')
    ? `${ready.home}/${spec.lanesRoot.slice(2).replace(/\/+$/, '')}`
    : spec.lanesRoot.replace(/\/+$/, '');
  // Before anything is recorded: a missing lanes root is the person's to create, not svc's.
  const probe = await ctx.hostOps.host(name).run(`test -d ${shq(root)}`);
  if (probe.code !== 0) {
    throw hostLanesRootMissingError(root, name, sshLine(spec, `mkdir -p ${shellWord(root)}`));
  }
  const sparse = ctx.app.config.project(project).gauntlet?.sparse_checkout;
  const prepare = (d: LaneDir): Promise<{ head: string | null }> =>
    ctx.hostOps.call(name, {
      op: 'prepare',
      origin,
      repoId: repoIdOf(project, origin),
      lanesRoot: root,
      dir: d.dir,
      kind: gitBacked ? 'worktree' : 'play',
      branch: d.branch,
      start: d.start,
      sparse,
      reuse: d.reuse,
    });
  return {
    host: name,
    root,
    dirExists: () => undefined,
    resolveStart: (start) => Promise.resolve(start),
    branchTaken: () => Promise.resolve(false),
    reuse: async (d) => (await prepare({ ...d, start: null, reuse: true })).head,
    make: async (d) => {
      await prepare({ ...d, reuse: false });
      return undefined;
    },
    // Anything on a host gets where it happened.
    makeFailed: (e) => laneDirFailedError((e as Error).message, name),
  };
}

/**
 * The placement of a new lane: on host `host` (config.yaml hosts.<name>), or on this machine
 * when null (`ownGit`: with a repository of its own, config.yaml lanes.git).
 */
export async function placementFor(
  ctx: LanesContext,
  host: string | null,
  project: Project & { key: string },
  gitBacked: boolean,
  ownGit: boolean,
): Promise<LanePlacement> {
  return host === null
    ? localPlacement(project, gitBacked, ownGit)
    : await hostPlacement(ctx, host, project.path, project.key, gitBacked);
}
