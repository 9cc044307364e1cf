// `svc lane reap` / POST /api/lanes/:name/reap: the spec's Reap steps 1–7, in order.
// Reap never kills a process and never discards work: every refusal happens before
// anything is removed, cleaned or archived, and --park proves its patch first
// (server/reap/park.ts). The building blocks live in server/reap/.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isLive } from '../../shared/activity';
import { errorMessage } from '../../shared/errors';
import { serialized } from '../git/git';
import { checkInsideLanesRoot } from '../reap/lanesRootCheck';
import { parkWorktree } from '../reap/park';
import { processesInside } from '../reap/processesInside';
import { dirtyError, harnessAliveError, processesInsideError } from '../reap/reapErrors';
import type { ReapReport } from '../reap/reapReport';
import { removePlayDir, removeWorktree } from '../reap/removeDirs';
import { keepCommitsOnBranch, unpushedCommits } from '../reap/unpushed';
import { uncommittedPaths } from '../reap/worktreeInfo';
import type { LanesContext } from './lanesContext';
import type { LaneRow } from './laneStore';
import { laneActivity } from './records';

export const REAP_STOP_WAIT_MS = 30_000;

export async function reapLane(ctx: LanesContext, lane: LaneRow, opts: { park: boolean; keep: boolean }): Promise<ReapReport> {
  const convs = ctx.conversations;

  // 1. The stop door; a harness still alive after 30 s is refused, never killed.
  if (isLive(laneActivity(ctx, lane)) || convs.facts(lane.id).alive) {
    const { stopped } = await convs.stop(lane.id, { timeoutMs: REAP_STOP_WAIT_MS });
    if (!stopped || convs.facts(lane.id).alive) throw harnessAliveError(lane.name, REAP_STOP_WAIT_MS / 1000);
  }

  const exists = fs.existsSync(lane.dir);
  let removed: ReapReport['removed'] = 'alreadyGone';
  let park: ReapReport['park'] = null;
  let unpushed: Awaited<ReturnType<typeof unpushedCommits>> | null = null;
  let keptBranch: string | null = null;
  if (exists) {
    // 2. Only a directory inside the lanes root (real paths, symlinks resolved).
    checkInsideLanesRoot(lane.dir, lane.lanesRoot);
    // 3. No process may have its working directory inside.
    const procs = await processesInside(lane.dir);
    if (procs.length) throw processesInsideError(lane.dir, procs);
    if (lane.gitBacked) {
      // 4. A dirty tree is refused unless --park, which saves and verifies before cleaning.
      const dirty = await uncommittedPaths(lane.dir);
      if (dirty.length && !opts.park) throw dirtyError(lane.dir, dirty);
      if (dirty.length) park = await parkWorktree(lane.dir, patchPath(ctx, lane));
      // 5. Commits absent from upstream are reported; the branch is always kept.
      unpushed = await unpushedCommits(lane.dir);
      if (unpushed.branch === null && unpushed.unreferenced > 0) keptBranch = await keepCommitsOnBranch(lane.dir, `${lane.run}/${lane.key}-${lane.role}-i${lane.iteration}-kept`);
      // 6. `git worktree remove` (never forced) and `git worktree prune`.
      const repo = ctx.repoOf(lane.project) ?? lane.dir;
      await serialized(repo, () => removeWorktree(lane.dir));
      removed = 'worktree';
    } else {
      removePlayDir(lane.dir);
      removed = 'playDir';
    }
    ctx.gitFacts.forget(lane.dir);
  }

  // 7. Archive (unless --keep); a failure here does not undo a finished reap.
  let archive: ReapReport['archive'];
  ctx.store.markReaped(lane.id, ctx.now());
  if (opts.keep) archive = { state: 'kept' };
  else {
    try {
      convs.archive(lane.id);
      archive = { state: 'archived' };
    } catch (e) {
      archive = { state: 'failed', error: errorMessage(e) };
    }
  }
  ctx.app.notify({ topic: 'lanes', id: lane.id });
  ctx.app.notify({ topic: 'runs' });
  return {
    conv: { id: lane.id, name: lane.name },
    dir: lane.dir,
    removed,
    branch: unpushed?.branch ?? lane.branch,
    head: unpushed?.head ?? null,
    upstream: unpushed?.upstream ?? null,
    unpushed: unpushed?.commits ?? [],
    keptBranch,
    park,
    archive,
    orphaned: lane.role === 'orchestrator' ? unreapedChildren(ctx, lane) : [],
  };
}

function patchPath(ctx: LanesContext, lane: LaneRow): string {
  const stamp = new Date(ctx.now()).toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return path.join(ctx.app.paths.agents, `conv-${lane.name}`, `parked-${stamp}.patch`);
}

/** Lanes launched by this orchestrator (or its successors) that are not reaped yet. */
function unreapedChildren(ctx: LanesContext, orch: LaneRow): string[] {
  return ctx.store
    .all()
    .filter((l) => l.id !== orch.id && l.run === orch.run && l.reapedAt === null && launchedBy(ctx, l.parentId, orch.id))
    .map((l) => l.name);
}

function launchedBy(ctx: LanesContext, parentId: number, ancestor: number): boolean {
  for (let id: number | null = parentId, hops = 0; id !== null && hops < 1000; hops++) {
    if (id === ancestor) return true;
    const row = ctx.conversations.get(id);
    if (!row || row.kind !== 'successor') return false;
    id = row.parentId;
  }
  return false;
}
