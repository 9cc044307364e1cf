// What `svc lane start` says of the lane it launched: the one line (printed by the shim,
// shown and logged by the editor's Start Lane), and the trouble line after it when the lane
// did not come up. One place, so the two can never read differently.
import type { LaneRecord } from '../protocol/lanes';

/** `Lane <run>/<key> <role> i<n>: conv <id> (<name>) in <cwd>` */
export function laneStartLine(
  l: Pick<LaneRecord, 'run' | 'key' | 'role' | 'iteration' | 'id' | 'name' | 'cwd'>,
): string {
  return `Lane ${l.run}/${l.key} ${l.role} i${l.iteration}: conv ${l.id} (${l.name}) in ${l.cwd}`;
}

/** What `svc lane start` says after its line when the lane did not start (exit 1): its spawn
 *  error, or, after the full 180 s wait (`waited`), that it has not come up yet. Only a lane
 *  that never came alive is `stopped` without an end: its starting window (3 minutes) ran out
 *  during the wait. */
export function laneStartTrouble(
  l: Pick<LaneRecord, 'name' | 'activity' | 'spawnError' | 'endedAt' | 'archived'>,
  waited: boolean,
): string | null {
  if (l.activity === 'failed-to-start') return `lane ${l.name} failed to start: ${l.spawnError ?? 'unknown error'}`;
  if (waited && l.activity === 'stopped' && l.endedAt === null && !l.archived) {
    return `lane ${l.name} has not started after 180 s; its harness may still come up: see svc lane show ${l.name}, or svc lane stop ${l.name}`;
  }
  return null;
}
