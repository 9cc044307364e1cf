// The landing queues under `svc lane runs`' cards: one row per queued or running landing,
// grouped by base in queue order (docs/decisions/land.md, "The queue shown").
import type { RunCard, RunCardLanding } from '../../shared/protocol/lanes';
import { table } from './table';

/** The queue table, or '' when nothing is queued or running. */
export function formatLandingQueue(cards: readonly RunCard[]): string {
  const rows = cards
    .flatMap((c) => c.landings.map((l) => ({ project: c.project, ...l })))
    .sort((a, b) => a.project.localeCompare(b.project) || a.base.localeCompare(b.base) || a.position - b.position);
  if (!rows.length) return '';
  return table(
    ['BASE', 'PLACE', 'LANDING', 'LANE', 'STATE'],
    rows.map((l) => [`${l.project}/${l.base}`, String(l.position), `#${l.id}`, l.lane, stateText(l)]),
  );
}

function stateText(l: RunCardLanding): string {
  const state = l.state === 'running' ? 'running' : l.position === 1 ? 'queued, next' : 'queued';
  return l.pr === null ? state : `${state} (PR #${l.pr})`;
}
