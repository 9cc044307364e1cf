// A lane's parked patches as the lane shows them (svc lane show, the deck): each with the
// command that restores it as things stand, on this machine or over ssh on the lane's host.
// Kept apart from reapParts.ts, which works on a LanesContext: the context reads this one.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ParkedPatch } from '../../shared/protocol/lanes';
import { shq } from '../hosts/remoteShell';
import { parkedPatchesIn } from '../reap/parkedPatches';
import type { LaneRow } from './laneStore';
import type { ParkedFolders } from './parkedFolders';

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
  const standing = lane.reapedAt === null && !lane.host && fs.existsSync(lane.dir);
  return patches.map((p) => {
    const command =
      standing && p.restoreInPlaceCommand !== null && p.worktree !== null && samePath(p.worktree, lane.dir)
        ? p.restoreInPlaceCommand
        : p.restoreCommand;
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
