// Room for a park, judged before the agent is stopped: a park writes the work about three
// times (git's objects and the rehearsal's checkout in the worktree's git dir, the patch
// beside the brief), and a disk that fills halfway through leaves git's own message
// ("No space left on device") after the agent was already stopped. A margin covers the
// patch's headers, the index and what the agent still writes before it stops.
import { freeBytes } from '../util/freeSpace';
import type { FreeBytes } from '../util/freeSpace';
import { noRoomToParkError } from './reapErrors';

export const PARK_MARGIN_BYTES = 32 * 1024 * 1024;

/** Throws noRoomToPark unless each of `folders` has room for three copies of the work (`workBytes`, parkSize.ts) and the margin. */
export function checkParkSpace(top: string, workBytes: number, folders: string[], free: FreeBytes = freeBytes): void {
  const need = 3 * workBytes + PARK_MARGIN_BYTES;
  for (const folder of folders) {
    const has = free(folder);
    if (has < need) throw noRoomToParkError(top, folder, has, need);
  }
}
