// `svc lane list` columns, exactly as the spec names them.
import type { LaneRecord } from '../protocol/lanes';
import { formatCost } from './money';
import { table } from './table';

export const LANE_COLUMNS = ['ID', 'RUN/KEY', 'ROLE', 'ITER', 'ACTIVITY', 'REPORT', 'FOR', 'VERDICT', 'BRANCH@SHA', 'AHEAD', 'DIRTY', 'MODEL', 'COST'];

export function laneRow(l: LaneRecord): string[] {
  const git = l.git;
  return [
    `#${l.id}`,
    `${l.run}/${l.key}`,
    l.role,
    `i${l.iteration}`,
    l.archived ? `${l.activity} (archived)` : l.activity,
    l.report?.status ?? '-',
    l.judged ? `${l.judged.key} i${l.judged.iteration}` : '-',
    l.verdict ? `${l.verdict.verdict} ${l.verdict.defects}` : '-',
    git ? `${git.branch ?? '(detached)'}@${git.headSha ? git.headSha.slice(0, 7) : '-'}` : '-',
    git && git.ahead !== null ? String(git.ahead) : '-',
    git ? (git.dirty ? 'yes' : 'no') : '-',
    l.model,
    l.cost !== null ? formatCost(l.cost) : '-',
  ];
}

export function laneTable(lanes: LaneRecord[]): string {
  return table(LANE_COLUMNS, lanes.map(laneRow));
}
