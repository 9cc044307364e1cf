// The run's timeline drawn as an inline SVG: one row per lane (its life as a bar, from
// launch to end), its events as marks. No script, no external font: a picture that
// renders anywhere the page opens.
import type { RunRecord } from '../../shared/protocol/runRecord';
import { escapeHtml } from './markdown';

const ROW = 26;
const LABEL = 230;
const WIDTH = 980;
const MARK: Record<RunRecord['timeline'][number]['kind'], string> = {
  launch: 'launch',
  report: 'report',
  verdict: 'verdict',
  spend: 'spend',
  stop: 'stop',
  reap: 'reap',
  land: 'land',
};

export function timelineSvg(r: RunRecord): string {
  if (r.lanes.length === 0) return '';
  const start = Math.min(...r.lanes.map((l) => l.createdAt));
  const end = Math.max(r.exportedAt, start + 1000, ...r.timeline.map((e) => e.at));
  const span = end - start;
  const x = (at: number) => LABEL + ((Math.min(Math.max(at, start), end) - start) / span) * (WIDTH - LABEL - 20);
  const height = r.lanes.length * ROW + 40;
  const parts: string[] = [];
  r.lanes.forEach((l, i) => {
    const y = 20 + i * ROW;
    parts.push(
      `<text x="4" y="${y + 4}" class="tl-label">${escapeHtml(`${l.role} ${l.key} i${l.iteration}${l.respawn ? ` r${l.respawn}` : ''}`)}</text>`,
    );
    const x1 = x(l.createdAt);
    const x2 = x(l.endedAt ?? end);
    parts.push(
      `<line x1="${x1.toFixed(1)}" y1="${y}" x2="${Math.max(x2, x1 + 2).toFixed(1)}" y2="${y}" class="tl-life tl-${escapeHtml(l.role)}"/>`,
    );
    for (const e of r.timeline.filter((t) => t.laneId === l.id)) {
      parts.push(
        `<circle cx="${x(e.at).toFixed(1)}" cy="${y}" r="5" class="tl-mark tl-${MARK[e.kind]}"><title>${escapeHtml(`${new Date(e.at).toISOString()} ${e.text}`)}</title></circle>`,
      );
    }
  });
  const axis = height - 12;
  parts.push(
    `<text x="${LABEL}" y="${axis}" class="tl-axis">${escapeHtml(new Date(start).toISOString().replace('T', ' ').slice(0, 19))} UTC</text>`,
  );
  parts.push(
    `<text x="${WIDTH - 20}" y="${axis}" class="tl-axis" text-anchor="end">${escapeHtml(duration(span))} later</text>`,
  );
  return `<svg class="timeline" role="img" aria-label="timeline of the run" viewBox="0 0 ${WIDTH} ${height}" width="100%">${parts.join('')}</svg>`;
}

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 120) return `${s} s`;
  const m = Math.round(s / 60);
  return m < 120 ? `${m} min` : `${(m / 60).toFixed(1)} h`;
}
