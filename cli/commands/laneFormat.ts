// `svc lane list` columns, exactly as the spec names them.
import type { LaneRecord } from '../../shared/protocol/lanes';
import { formatCost } from '../../shared/format/money';
import { table } from './table';

export const LANE_COLUMNS = [
  'ID',
  'RUN/KEY',
  'ROLE',
  'ITER',
  'ACTIVITY',
  'REPORT',
  'FOR',
  'VERDICT',
  'BRANCH@SHA',
  'AHEAD',
  'DIRTY',
  'MODEL',
  'COST',
];

/** The ACTIVITY text: the activity, marked when archived or while the connection to its host is down. */
export function activityText(l: { activity: string; archived: boolean; hostLost: unknown }): string {
  if (l.archived) return `${l.activity} (archived)`;
  if (l.hostLost) return `${l.activity} (host connection lost)`;
  return l.activity;
}

export function laneRow(l: LaneRecord): string[] {
  const git = l.git;
  // Facts git did not give in time are unknown, not absent: `?`, with the reason under the table.
  const none = l.gitUnavailable ? '?' : '-';
  return [
    `#${l.id}`,
    `${l.run}/${l.key}`,
    l.role,
    `i${l.iteration}`,
    activityText(l),
    l.report?.status ?? '-',
    l.judged ? `${l.judged.key} i${l.judged.iteration}` : '-',
    l.verdict ? `${l.verdict.verdict} ${l.verdict.defects}` : '-',
    git ? `${git.branch ?? '(detached)'}@${git.headSha ? git.headSha.slice(0, 7) : '-'}` : none,
    git ? aheadCell(git) : none,
    git ? (git.dirty ? 'yes' : 'no') : none,
    l.model,
    costCell(l),
  ];
}

/** AHEAD: of the upstream; of the lane's base, marked, for a branch never pushed. */
function aheadCell(git: NonNullable<LaneRecord['git']>): string {
  if (git.ahead === null) return '-';
  return git.aheadOfBase ? `${git.ahead} (base)` : String(git.ahead);
}

/** COST: what the lane cost; with a cap, what its iteration spent against it (`$0.42/$1.00`), marked once reached or when it cannot be enforced. */
export function costCell(l: Pick<LaneRecord, 'cost' | 'budget'>): string {
  const b = l.budget;
  if (b.cap === null) return l.cost !== null ? formatCost(l.cost) : '-';
  if (b.state === 'not-enforceable') return `-/${formatCost(b.cap)} not enforceable`;
  return `${formatCost(b.spent)}/${formatCost(b.cap)}${b.state === 'reached' ? ' reached' : ''}`;
}

/** The table, then one line per lane whose git facts are unavailable, saying why. */
export function laneTable(lanes: LaneRecord[]): string {
  const notes = lanes
    .filter((l) => l.gitUnavailable)
    .map((l) => `#${l.id}: git facts unavailable: ${l.gitUnavailable}\n`);
  return table(LANE_COLUMNS, lanes.map(laneRow)) + notes.join('');
}
