// Where a lane lives, answered from its row alone: the pure half of the placement seam
// (laneSite.ts), for code that holds rows but no lanes context (a listing's snapshot, the
// parked patches of a row, a push's caller).
import { shq } from '../hosts/remoteShell';
import type { LaneRow } from './laneStore';

/** A command to run on the lane's host, as it is printed for the user: `ssh` is the host's
 *  whole ssh command with its options (remoteShell.sshCommand), so it works as printed. */
export function onHost(ssh: string, command: string): string {
  return `${ssh} ${shq(command)}`;
}

/** Whether the lane's worktree is on this machine, where svc's own git and file reads reach it. */
export const isHere = (row: Pick<LaneRow, 'host'>): boolean => row.host === null;

/** The key of a lane's git facts in a listing's snapshot (records.ts): its path here; host and path on a host. */
export const factsKeyOf = (row: Pick<LaneRow, 'host' | 'dir'>): string =>
  row.host === null ? row.dir : `${row.host}\0${row.dir}`;

/**
 * A parked patch's restore command as the person runs it from here: as recorded for a lane
 * here; over ssh for a lane on a host (`sshOf` throws for a host no longer configured: then
 * the command as the host runs it).
 */
export function restoreCommandFrom(
  row: Pick<LaneRow, 'host'>,
  command: string,
  sshOf: (host: string) => string,
): string {
  if (row.host === null) return command;
  try {
    return onHost(sshOf(row.host), command);
  } catch {
    return command;
  }
}
