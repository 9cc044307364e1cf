// The parts of a lane's reap that do not depend on where the lane runs: where its parked
// patch goes here, and which lanes an orchestrator leaves orphaned.
import * as path from 'node:path';
import type { ParkedPatch } from '../../shared/protocol/lanes';
import type { LanesContext } from './lanesContext';
import type { LaneRow } from './laneStore';
import { parkedFolder } from './parkedOfLane';

export function patchPath(ctx: LanesContext, lane: LaneRow): string {
  const stamp = new Date(ctx.now())
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return path.join(parkedFolder(ctx.app.paths.agents, lane), `parked-${stamp}.patch`);
}

/** The lane's parked patches other than the one this reap wrote (read once the lane is marked reaped). */
export function earlierParked(
  ctx: LanesContext,
  id: number,
  report: { park: { patchFile: string } | null },
): ParkedPatch[] {
  const row = ctx.store.byId(id);
  if (!row) return [];
  return (ctx.parked?.(row) ?? []).filter((p) => p.patchFile !== report.park?.patchFile);
}

/** Lanes launched by this orchestrator (or its successors) that are not reaped yet. */
export function unreapedChildren(ctx: LanesContext, orch: LaneRow): string[] {
  return ctx.store
    .all()
    .filter(
      (l) => l.id !== orch.id && l.run === orch.run && l.reapedAt === null && launchedBy(ctx, l.parentId, orch.id),
    )
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
