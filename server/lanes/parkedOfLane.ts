// A lane's parked patches as the lane shows them (svc lane show, the deck): each with the
// command that restores it as things stand, on this machine or over ssh on the lane's host.
// Kept apart from reapParts.ts, which works on a LanesContext: the context reads this one.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ParkedPatch } from '../../shared/protocol/lanes';
import { parkedPatchesIn } from '../reap/parkedPatches';
import type { LaneRow } from './laneStore';
import type { ParkedFolders } from './parkedFolders';
import { isHere, restoreCommandFrom } from './laneWhere';

/** Where a lane's parked patches are kept on this machine. */
export function parkedFolder(agentsDir: string, lane: Pick<LaneRow, 'name'>): string {
  return path.join(agentsDir, `conv-${lane.name}`);
}

/**
 * The lane's parked patches with the command that restores each as things stand: into the
 * worktree while it stands (a reap stopped after parking), else re-creating it. A lane on
 * a host restores there, over ssh. `sshOf` gives a host's ssh command (with its options).
 * `folders`: the names of the lanes' folders as last listed, re-listed where they changed.
 */
export function parkedOfLane(
  agentsDir: string,
  lane: LaneRow,
  sshOf: (host: string) => string,
  folders?: ParkedFolders,
): ParkedPatch[] {
  const folder = parkedFolder(agentsDir, lane);
  const patches = parkedPatchesIn(folder, folders?.patchNames(folder));
  if (patches.length === 0) return []; // most lanes: a list of many asks no more of the disk
  const standing = lane.reapedAt === null && isHere(lane) && fs.existsSync(lane.dir);
  return patches.map((p) => {
    const command =
      standing && p.restoreInPlaceCommand !== null && p.worktree !== null && samePath(p.worktree, lane.dir)
        ? p.restoreInPlaceCommand
        : p.restoreCommand;
    const restoreCommand = command === null ? null : restoreCommandFrom(lane, command, sshOf);
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
