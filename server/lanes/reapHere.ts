// `svc lane reap` of a lane on this machine (laneSite.ts; a host's lane: reapOnHost.ts): the
// spec's Reap steps 1–7, run by server/reap/reapLaneDir.ts with this lane's parts plugged in — its stop door, its
// archive, its patch path, the orchestrator's orphan warning. Reap never kills a process
// and never discards work: every refusal comes before anything is removed or archived.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isLive } from '../../shared/activity';
import { logger } from '../util/log';
import { git, serialized } from '../git/git';
import { earlierParked, patchPath, unreapedChildren } from './reapParts';
import { parkLimitsOf } from '../reap/parkSize';
import { reapLaneDir, REAP_STOP_WAIT_S } from '../reap/reapLaneDir';
import type { ReapReport } from '../../shared/format/reapReport';
import type { LanesContext } from './lanesContext';
import type { LaneRow } from './laneStore';
import { laneActivity } from './records';
import { errorMessage } from '../../shared/errors';
import { laneMirrorFailedError } from '../reap/reapErrors';
import type { ReapPlan } from '../reap/reapLaneDir';
import { laneOnlyRefs, mirrorLaneRefs } from './laneGitMirror';
import { forgetLaneLayout, laneRepoPath, ownLaneRepo, removeLaneRepo } from './laneGitRepo';
import { copyLaneLfsObjects } from './laneLfsObjects';
import { commonGitDir } from '../git/plantedLinks';

const log = logger('reap');

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
    ownRepo: repo && lane.gitBacked ? ownRepoSteps(repo, lane) : undefined,
  });
  // A worktree deleted by hand leaves its entry in the repository: prune it (step 6).
  if (report.removed === 'alreadyGone' && lane.gitBacked && repo) {
    await serialized(repo, () => git(repo, ['worktree', 'prune']));
    await reapOrphanLaneRepo(repo, lane);
  }
  ctx.gitFacts.forget(lane.dir);
  ctx.ownRepoFacts?.forget(lane.dir);
  forgetLaneLayout(lane.dir);
  ctx.store.markReaped(lane.id, ctx.now());
  report.earlierParked = earlierParked(ctx, lane.id, report);
  ctx.app.notify({ topic: 'lanes', id: lane.id });
  ctx.app.notify({ topic: 'runs' });
  return report;
}

/**
 * A lane directory deleted by hand leaves its repository of its own (laneGitRepo.ts) with the
 * lane's commits: its refs are copied into the project's repository from it, then it goes. A
 * copy that fails keeps the lane repository (nothing of the lane's is lost) and says so in the log.
 */
async function reapOrphanLaneRepo(repo: string, lane: LaneRow): Promise<void> {
  const laneRepo = laneRepoPath(lane.dir);
  if (!fs.existsSync(laneRepo)) return;
  try {
    const refs = await laneOnlyRefs(repo, lane.dir, laneRepo);
    await mirrorLaneRefs(repo, lane.dir, refs, lane.branch, laneRepo);
    await copyLaneLfsObjects(laneRepo, commonGitDir(repo) ?? path.join(repo, '.git'));
  } catch (e) {
    log.warn(`${lane.name}: its repository ${laneRepo} is kept: its refs could not be copied: ${errorMessage(e)}`);
    return;
  }
  removeLaneRepo(laneRepo);
}

/**
 * Reap of a lane with a repository of its own (laneGitRepo.ts): every ref only it holds
 * (its branch, the kept refs reap just made, tags, its HEAD) is mirrored into the project's
 * repository first (laneGitMirror.ts; "the branch is always kept"), then, the worktree
 * removed, the lane repository goes: its commits are all in the project's store by then.
 */
function ownRepoSteps(repo: string, lane: LaneRow): ReapPlan['ownRepo'] {
  const laneRepo = ownLaneRepo(lane.dir);
  if (!laneRepo) return undefined;
  return {
    async mirror() {
      try {
        const refs = await laneOnlyRefs(repo, lane.dir);
        // Kept refs (svc-kept/…, …-kept) become the person's branches too, as a shared-layout reap leaves them.
        await mirrorLaneRefs(repo, lane.dir, refs, lane.branch);
        for (const r of refs.filter((x) => x.startsWith('refs/heads/') && x !== `refs/heads/${lane.branch}`)) {
          const b = r.slice('refs/heads/'.length);
          if (/-kept(-[0-9a-f]+)?$|^svc-kept\//.test(b)) await mirrorLaneRefs(repo, lane.dir, [r], b);
        }
        await copyLaneLfsObjects(laneRepo, commonGitDir(repo) ?? path.join(repo, '.git'));
      } catch (e) {
        throw laneMirrorFailedError(lane.dir, laneRepo, errorMessage(e));
      }
    },
    remove: () => removeLaneRepo(laneRepo),
    project: repo,
  };
}
