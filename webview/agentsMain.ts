// The Agents page: every agent — roots, lanes, successors, work agents, reviewers — with
// alive, activity, model, harness, cost and issue; a filter box, "live only" and
// "archived" switches, sortable columns; a row opens its conversation (a click in the
// preview tab; a double-click or Enter keeps the tab). The filter, switches and sort are
// kept across a window reload (setState).
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import type { AgentRowView, AgentsFromView, AgentsPageState, AgentsToView } from '../shared/webview/agentsMessages';
import { tableElement, visibleRows } from './agents/agentsTable';
import type { SortKey, TableState } from '../shared/webview/agentsMessages';
import { vscodeButton } from './common/controls';
import { textElement } from './common/sanitize';
import { adoptStyles } from './common/styles';
import { connectToHost } from './common/vscodeApi';
import '@vscode-elements/elements/dist/vscode-button/index.js';

adoptStyles(`
  h1 { font-size: 1.2em; margin: 10px 0 6px; }
  .toolbar { display: flex; gap: 12px; align-items: center; flex-wrap: wrap; margin-bottom: 8px; }
  .toolbar vscode-textfield { min-width: 260px; }
  .count { margin-left: auto; }
  .banner { padding: 6px 8px; margin: 8px 0; border-left: 3px solid var(--vscode-editorWarning-foreground); background: var(--vscode-textBlockQuote-background); }
  table.agents { border-collapse: collapse; width: 100%; }
  table.agents th { text-align: left; border-bottom: 1px solid var(--vscode-panel-border, var(--vscode-contrastBorder, transparent)); }
  th button.sort { font: inherit; font-weight: 600; color: var(--vscode-foreground); background: none; border: none; padding: 4px 6px; cursor: pointer; }
  th button.sort:hover { background: var(--vscode-toolbar-hoverBackground); }
  table.agents td { padding: 3px 6px; vertical-align: top; }
  table.agents tbody tr { cursor: pointer; }
  table.agents tbody tr:hover { background: var(--vscode-list-hoverBackground); }
  table.agents tbody tr:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: -1px; background: var(--vscode-list-focusBackground, transparent); }
  td.name { padding-left: calc(6px + var(--depth, 0) * 16px); }
  td.name .title { font-weight: 600; }
  .verdict { margin-left: 6px; padding: 0 4px; border-radius: 2px; font-weight: 600; border: 1px solid var(--vscode-contrastBorder, transparent); background: transparent; }
  /* svc's verdict colours (package.json contributes.colors): PASS and NOT_YET never share one grey.
     VS Code names a colour's page variable by turning only its first dot into a dash, so the
     second dot of svc.verdict.pass stays in the name, escaped here. */
  .verdict.pass { color: var(--vscode-svc-verdict\\.pass); border-color: var(--vscode-svc-verdict\\.pass); }
  .verdict.notYet { color: var(--vscode-svc-verdict\\.notYet); border-color: var(--vscode-svc-verdict\\.notYet); }
  .verdict.fail { color: var(--vscode-svc-verdict\\.fail); border-color: var(--vscode-svc-verdict\\.fail); }
  tr.archived { color: var(--vscode-disabledForeground); }
  .alive { color: var(--vscode-testing-iconPassed, var(--vscode-foreground)); }
  td.activity.needs-you { color: var(--vscode-editorWarning-foreground); font-weight: 600; }
  td.activity.failed-to-start { color: var(--vscode-errorForeground); }
  td.cost { font-variant-numeric: tabular-nums; }
  td.cost.spend-near, td.cost.spend-reached, td.cost.spend-not-enforceable { color: var(--vscode-editorWarning-foreground); }
`);

const root = document.getElementById('root')!;
root.removeAttribute('aria-live');
let agents: AgentRowView[] | undefined;
let problem: string | null = null;
const state: TableState = { filter: '', liveOnly: false, archived: false, sort: 'tree', descending: false };

const host = connectToHost<AgentsToView, AgentsFromView>((msg) => {
  if (msg.type !== 'state') return;
  agents = msg.agents;
  problem = msg.problem;
  renderTable();
});
Object.assign(state, host.getState<AgentsPageState>() ?? {});
const keep = () =>
  host.setState<AgentsPageState>({
    filter: state.filter,
    liveOnly: state.liveOnly,
    archived: state.archived,
    sort: state.sort,
    descending: state.descending,
  });
keep();

const filter = document.createElement('vscode-textfield') as HTMLElement & { value: string };
filter.setAttribute('placeholder', 'Filter: name, role, model, activity, issue…');
filter.setAttribute('aria-label', 'Filter agents');
filter.className = 'filter';
filter.value = state.filter;
filter.addEventListener('input', () => {
  state.filter = filter.value;
  renderTable();
});
const checkbox = (label: string, key: 'liveOnly' | 'archived') => {
  const c = document.createElement('vscode-checkbox') as HTMLElement & { checked: boolean };
  c.setAttribute('label', label);
  c.dataset.toggle = key;
  c.checked = state[key];
  if (state[key]) c.setAttribute('checked', '');
  c.addEventListener('change', () => {
    state[key] = c.checked;
    renderTable();
  });
  return c;
};
const count = textElement('span', '', 'count muted');
count.setAttribute('role', 'status');
const toolbar = document.createElement('div');
toolbar.className = 'toolbar';
toolbar.append(filter, checkbox('Live only', 'liveOnly'), checkbox('Show archived', 'archived'), count);
const body = document.createElement('div');
root.append(textElement('h1', 'Agents'), toolbar, body);

function sortBy(k: SortKey): void {
  if (state.sort === k) {
    if (!state.descending) state.descending = true;
    else if (k === 'name') {
      state.sort = 'tree';
      state.descending = false;
    } else state.descending = false;
  } else {
    state.sort = k;
    state.descending = false;
  }
  const focused = (document.activeElement as HTMLElement | null)?.dataset?.sort;
  renderTable();
  if (focused) body.querySelector<HTMLElement>(`button[data-sort="${focused}"]`)?.focus();
}

function renderTable(): void {
  const parts: HTMLElement[] = [];
  if (problem) parts.push(textElement('div', problem, 'banner'));
  if (!agents) {
    if (!problem) parts.push(textElement('p', 'Reading the agents…', 'muted'));
    count.textContent = '';
    body.replaceChildren(...parts);
    return;
  }
  const rows = visibleRows(agents, state);
  count.textContent = `${rows.length} of ${agents.length} agents`;
  if (!agents.length) {
    const start = vscodeButton('New Conversation', () => host.post({ type: 'newConversation' }), { icon: 'add' });
    parts.push(
      textElement(
        'p',
        'No agents yet. Start a conversation; the lanes and reviewers it starts show here too.',
        'muted',
      ),
      start,
    );
  } else
    parts.push(
      tableElement(rows, state, (id, kept) => host.post({ type: 'openConversation', convId: id, keep: kept }), sortBy),
    );
  body.replaceChildren(...parts);
  keep();
}
