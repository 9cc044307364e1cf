// The landing queue on a run's Awareness card: one line per landing of the run that waits
// or runs (`svc lane land`), in queue order, as the page shows them (text only). Pure.
import type { RunCardLanding } from '../../shared/protocol/lanes';

/** `landing #3 r1-api-builder-i1 → main · running`, `… · queued, next`, `… · queued, 2 ahead`. */
export function landingQueueLines(landings: readonly RunCardLanding[]): string[] {
  return landings.map((l) => {
    const state = l.state === 'running' ? 'running' : `queued, ${l.position <= 1 ? 'next' : `${l.position} ahead`}`;
    return `landing #${l.id} ${l.lane} → ${l.base} · ${state}${l.pr === null ? '' : ` · PR #${l.pr}`}`;
  });
}
