// `svc lane reap` of a lane on this machine (laneSite.ts; a host's lane: reapOnHost.ts): the
// spec's Reap steps 1–7, run by server/reap/reapLaneDir.ts with this lane's parts plugged in — its stop door, its
// archive, its patch path, the orchestrator's orphan warning. Reap never kills a process
// and never discards work: every refusal comes before anything is removed or archived.
import { isLive } from '../../shared/activity';
import { git, serialized } from '../git/git';
import { earlierParked, patchPath, unreapedChildren } from './reapParts';
import { parkLimitsOf } from '../reap/parkSize';
import { reapLaneDir, REAP_STOP_WAIT_S } from '../reap/reapLaneDir';
import type { ReapReport } from '../../shared/format/reapReport';
import type { LanesContext } from './lanesContext';
import type { LaneRow } from './laneStore';
import { laneActivity } from './records';

export async function reapHere(
  ctx: LanesContext,
  lane: LaneRow,
  opts: { park: boolean; keep: boolean },
): Promise<ReapReport> {
  const convs = ctx.conversations;
  const repo = ctx.repoOf(lane.project);
  const report = await reapLaneDir({
    conv: { id: lane.id, name: lane.name },
    dir: lane.dir,
    kind: lane.gitBacked ? 'worktree' : 'play',
    lanesRoot: lane.lanesRoot,
    park: opts.park,
    parkLimits: parkLimitsOf(ctx.app.config.config().reap),
    keep: opts.keep,
    patchFile: patchPath(ctx, lane),
    stop: async () => {
      if (!isLive(laneActivity(ctx, lane)) && !convs.facts(lane.id).alive) return true;
      const { stopped } = await convs.stop(lane.id, { timeoutMs: REAP_STOP_WAIT_S * 1000 });
      return stopped && !convs.facts(lane.id).alive;
    },
    survivors: () => convs.groupProcesses(lane.id),
    archive: () => convs.archive(lane.id),
    keepBranchName: `${lane.run}/${lane.key}-${lane.role}-i${lane.iteration}-kept`,
    orphaned: lane.role === 'orchestrator' ? unreapedChildren(ctx, lane) : [],
    serialize: repo ? (fn) => serialized(repo, fn) : undefined,
  });
  // A worktree deleted by hand leaves its entry in the repository: prune it (step 6).
  if (report.removed === 'alreadyGone' && lane.gitBacked && repo)
    await serialized(repo, () => git(repo, ['worktree', 'prune']));
  ctx.gitFacts.forget(lane.dir);
  ctx.store.markReaped(lane.id, ctx.now());
  report.earlierParked = earlierParked(ctx, lane.id, report);
  ctx.app.notify({ topic: 'lanes', id: lane.id });
  ctx.app.notify({ topic: 'runs' });
  return report;
}
