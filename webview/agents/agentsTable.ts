// The Agents page's table: filter (text, live only, archived shown), sort by a column
// (the default keeps the tree order and its nesting), rows that open their conversation
// on click or Enter. Pure DOM building; state lives in agentsMain.ts.
import type { AgentRowView, SortKey, TableState } from '../../shared/webview/agentsMessages';
import { textElement } from '../common/sanitize';
import { formatCost } from '../../shared/format/money';
import { COLUMNS } from './columns';

export function visibleRows(rows: readonly AgentRowView[], s: TableState): AgentRowView[] {
  const words = s.filter.toLowerCase().split(/\s+/).filter(Boolean);
  const kept = rows.filter((r) => {
    if (!s.archived && r.archived) return false;
    if (s.liveOnly && !r.alive) return false;
    if (!words.length) return true;
    const hay = [
      `#${r.id}`,
      r.name,
      r.title,
      r.role,
      r.activity,
      r.model,
      r.harness,
      r.issue ?? '',
      r.verdict ?? '',
      r.kind,
    ]
      .join(' ')
      .toLowerCase();
    return words.every((w) => hay.includes(w));
  });
  if (s.sort === 'tree') return kept;
  const dir = s.descending ? -1 : 1;
  const key = (r: AgentRowView): string | number => {
    switch (s.sort) {
      case 'name':
        return (r.title || r.name).toLowerCase();
      case 'alive':
        return r.alive ? 0 : 1;
      case 'cost':
        return r.cost ?? -1;
      case 'issue':
        return r.issue ?? '';
      default:
        return String(r[s.sort as 'model' | 'harness' | 'role' | 'activity']).toLowerCase();
    }
  };
  return [...kept].sort((a, b) => {
    const x = key(a);
    const y = key(b);
    return (x < y ? -1 : x > y ? 1 : a.order - b.order) * dir;
  });
}

export function costText(r: AgentRowView): string {
  const own = r.cost === null ? '—' : formatCost(r.cost, r.currency ?? 'USD');
  if (!r.budget) return own;
  if (r.budget.state === 'not-enforceable') return `${own} · cap ${formatCost(r.budget.cap)} not enforceable`;
  const pct = Math.floor((r.budget.spent / r.budget.cap) * 100);
  return `${formatCost(r.budget.spent)} of ${formatCost(r.budget.cap)} (${pct}%)${r.budget.state === 'reached' ? ' · cap reached' : ''}`;
}

/** `open(id, keep)`: a click opens the preview tab (keep false); a double-click or Enter keeps the tab. */
export function tableElement(
  rows: readonly AgentRowView[],
  s: TableState,
  open: (id: number, keep: boolean) => void,
  sortBy: (k: SortKey) => void,
): HTMLTableElement {
  const table = document.createElement('table');
  table.className = 'agents';
  const thead = document.createElement('thead');
  const hr = document.createElement('tr');
  for (const c of COLUMNS) {
    const th = document.createElement('th');
    th.scope = 'col';
    const active = s.sort === c.key || (s.sort === 'tree' && c.key === 'name');
    th.setAttribute('aria-sort', active && s.sort !== 'tree' ? (s.descending ? 'descending' : 'ascending') : 'none');
    const b = textElement(
      'button',
      c.label + (active && s.sort !== 'tree' ? (s.descending ? ' ▾' : ' ▴') : ''),
      'sort',
    );
    b.type = 'button';
    b.dataset.sort = c.key;
    b.title =
      c.key === 'name'
        ? 'Sort by name (click again: reverse, a third time: tree order)'
        : `Sort by ${c.label.toLowerCase()}`;
    b.addEventListener('click', () => sortBy(c.key));
    th.append(b);
    hr.append(th);
  }
  thead.append(hr);
  const tbody = document.createElement('tbody');
  const nested = s.sort === 'tree';
  for (const r of rows) {
    const tr = document.createElement('tr');
    tr.dataset.conv = String(r.id);
    tr.dataset.activity = r.activity;
    tr.tabIndex = 0;
    tr.setAttribute('aria-label', `#${r.id} ${r.title || r.name}, ${r.role}, ${r.activity}`);
    if (r.archived) tr.classList.add('archived');
    tr.addEventListener('click', () => open(r.id, false));
    tr.addEventListener('dblclick', () => open(r.id, true));
    tr.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        open(r.id, true);
      }
    });
    const name = document.createElement('td');
    name.className = 'name';
    if (nested) name.style.setProperty('--depth', String(r.depth));
    name.append(textElement('span', r.title || r.name, 'title'), textElement('span', ` #${r.id} ${r.name}`, 'muted'));
    if (r.verdict && r.verdictTone) name.append(textElement('span', r.verdict, `verdict ${r.verdictTone}`));
    const alive = document.createElement('td');
    alive.append(textElement('span', r.alive ? 'alive' : 'no', r.alive ? 'alive' : 'muted'));
    const activity = textElement('td', r.activity, `activity ${r.activity}`);
    tr.append(
      name,
      textElement('td', r.role),
      alive,
      activity,
      textElement('td', r.model),
      textElement('td', r.harness),
      textElement('td', costText(r), `cost${r.budget && r.budget.state !== 'ok' ? ` spend-${r.budget.state}` : ''}`),
      textElement('td', r.issue ?? '—'),
    );
    tbody.append(tr);
  }
  table.append(thead, tbody);
  return table;
}
