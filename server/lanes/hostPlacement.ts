// Where a lane on a host goes: the host's lanes root as the host resolves it
// (`~/…` is the SSH user's home there), and how its directory is made there — a worktree
// of the host's own bare clone of the project's origin (fetched before each launch), or a
// play lane's empty folder — by svc's helper on the host.
import { gitOk, git } from '../git/git';
import { repoIdOf } from '../hosts/hostLink';
import { shellWord, shq, sshLine } from '../hosts/remoteShell';
import { hostLanesRootMissingError, hostNeedsOriginError } from './laneRefusals';
import type { LanesContext } from './lanesContext';

export interface HostPlacement {
  name: string;
  /** The lanes root on the host, absolute. */
  root: string;
  prepare(d: { dir: string; branch: string | null; start: string | null; reuse: boolean }): Promise<{ head: string | null }>;
}

export async function hostPlacement(ctx: LanesContext, name: string, repo: string, project: string, gitBacked: boolean): Promise<HostPlacement> {
  const spec = ctx.hostOps.host(name).spec;
  let origin = '';
  if (gitBacked) {
    if (!(await gitOk(repo, ['remote', 'get-url', 'origin']))) {
      throw hostNeedsOriginError(name, project);
    }
    origin = (await git(repo, ['remote', 'get-url', 'origin'])).trim();
  }
  const ready = await ctx.hostOps.prepare(name);
  const root = spec.lanesRoot.startsWith('~/') ? `${ready.home}/${spec.lanesRoot.slice(2).replace(/\/+$/, '')}` : spec.lanesRoot.replace(/\/+$/, '');
  // Before anything is recorded: a missing lanes root is the person's to create, not svc's.
  const probe = await ctx.hostOps.host(name).run(`test -d ${shq(root)}`);
  if (probe.code !== 0) {
    throw hostLanesRootMissingError(root, name, sshLine(spec, `mkdir -p ${shellWord(root)}`));
  }
  const sparse = ctx.app.config.project(project).gauntlet?.sparse_checkout;
  return {
    name,
    root,
    prepare: (d) =>
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
      }),
  };
}
