// The parts of a lane's reap that do not depend on where the lane runs: where its parked
// patch goes here, and which lanes an orchestrator leaves orphaned.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ParkedPatch } from '../../shared/protocol/lanes';
import { shq } from '../hosts/remoteShell';
import { parkedPatchesIn } from '../reap/parkedPatches';
import type { LanesContext } from './lanesContext';
import type { LaneRow } from './laneStore';

/** Where a lane's parked patches are kept on this machine. */
export function parkedFolder(agentsDir: string, lane: Pick<LaneRow, 'name'>): string {
  return path.join(agentsDir, `conv-${lane.name}`);
}

/** A command to run on the lane's host, as it is printed for the user: `ssh` is the host's
 *  whole ssh command with its options (remoteShell.sshCommand), so it works as printed. */
export function onHost(ssh: string, command: string): string {
  return `${ssh} ${shq(command)}`;
}

/**
 * The lane's parked patches with the command that restores each as things stand: into the
 * worktree while it stands (a reap stopped after parking), else re-creating it. A lane on
 * a host restores there, over ssh. `sshOf` gives a host's ssh command (with its options).
 */
export function parkedOfLane(agentsDir: string, lane: LaneRow, sshOf: (host: string) => string): ParkedPatch[] {
  const standing = lane.reapedAt === null && !lane.host && fs.existsSync(lane.dir);
  return parkedPatchesIn(parkedFolder(agentsDir, lane)).map((p) => {
    const command = standing && p.restoreInPlaceCommand !== null && p.worktree !== null && samePath(p.worktree, lane.dir) ? p.restoreInPlaceCommand : p.restoreCommand;
    let restoreCommand = command;
    if (command !== null && lane.host) {
      try {
        restoreCommand = onHost(sshOf(lane.host), command);
      } catch {
        restoreCommand = command; // the host is no longer configured: the command as the host runs it
      }
    }
    return { patchFile: p.patchFile, tarFile: p.tarFile, paths: p.paths, restoreCommand };
  });
}

function samePath(a: string, b: string): boolean {
  try {
    return fs.realpathSync(a) === fs.realpathSync(b);
  } catch {
    return false;
  }
}

export function patchPath(ctx: LanesContext, lane: LaneRow): string {
  const stamp = new Date(ctx.now())
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return path.join(parkedFolder(ctx.app.paths.agents, lane), `parked-${stamp}.patch`);
}

/** The lane's parked patches other than the one this reap wrote (read once the lane is marked reaped). */
export function earlierParked(ctx: LanesContext, id: number, report: { park: { patchFile: string } | null }): ParkedPatch[] {
  const row = ctx.store.byId(id);
  if (!row) return [];
  return (ctx.parked?.(row) ?? []).filter((p) => p.patchFile !== report.park?.patchFile);
}

/** Lanes launched by this orchestrator (or its successors) that are not reaped yet. */
export function unreapedChildren(ctx: LanesContext, orch: LaneRow): string[] {
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
