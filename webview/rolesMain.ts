// The Roles panel page: the review settings (mode, the parent's model, harness and effort,
// each convoy lane's model and harness), then per project the five gauntlet roles' model,
// effort, harness, approvals, host (config.yaml's hosts, or this machine), sandbox and spend cap,
// and each run's spend cap. Every field shows its source and what happens while it is unset;
// writes go to the host (config/set), refusals come back next to their field.
import type { RolesView } from '../shared/protocol/config';
import { textElement } from './common/sanitize';
import { adoptStyles } from './common/styles';
import { connectToHost } from './common/vscodeApi';
import { CONVOY_COLUMNS, ROLE_COLUMNS } from './roles/columns';
import { datalistId, fieldElement } from './roles/fields';
import type { FieldContext, FieldSpec } from './roles/fields';
import type { RolesFromView, RolesState, RolesToView } from '../shared/webview/rolesMessages';

adoptStyles(`
  h2 { font-size: 13px; margin: 16px 0 4px; }
  h2 .muted { font-weight: normal; margin-left: 6px; }
  .note { margin: 0 0 8px; }
  .grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(240px, 1fr)); gap: 8px 16px; }
  /* Beside the sidebar the panel is narrow: the columns share the width equally (a fixed
     layout, so an input's own width does not widen its column), headers and sources wrap,
     and below a usable width a table scrolls sideways in its own box instead of being cut. */
  .table-wrap { overflow-x: auto; }
  table { border-collapse: collapse; width: 100%; table-layout: fixed; min-width: 560px; }
  th { text-align: left; font-weight: 600; padding: 4px 8px 4px 0; vertical-align: top; overflow-wrap: anywhere; }
  th:first-child { width: 110px; }
  td { padding: 4px 8px 8px 0; vertical-align: top; }
  .field label { display: block; margin-bottom: 2px; }
  td .field label { position: absolute; left: -10000px; }
  .control { display: flex; gap: 4px; align-items: center; }
  input, select { flex: 1; min-width: 0; box-sizing: border-box; padding: 3px 6px; font: inherit;
    color: var(--vscode-input-foreground); background: var(--vscode-input-background);
    border: 1px solid var(--vscode-input-border, var(--vscode-widget-border, transparent)); border-radius: 2px; }
  select { color: var(--vscode-dropdown-foreground); background: var(--vscode-dropdown-background); border-color: var(--vscode-dropdown-border, transparent); }
  input::placeholder { color: var(--vscode-input-placeholderForeground); }
  input:focus, select:focus { outline: 1px solid var(--vscode-focusBorder); outline-offset: -1px; }
  button.clear { background: none; border: none; color: var(--vscode-icon-foreground); cursor: pointer; padding: 2px; border-radius: 3px; }
  button.clear:hover { background: var(--vscode-toolbar-hoverBackground); }
  .source { font-size: 11px; margin-top: 2px; overflow-wrap: anywhere; }
  .source.warn { color: var(--vscode-descriptionForeground); }
  .source .codicon { font-size: 12px; vertical-align: -2px; margin-right: 4px; }
  .source.warn .codicon { color: var(--vscode-editorWarning-foreground); }
  .not-offered { font-size: 11px; margin-top: 2px; overflow-wrap: anywhere; color: var(--vscode-descriptionForeground); }
  .not-offered .codicon { font-size: 12px; vertical-align: -2px; margin-right: 4px; color: var(--vscode-editorWarning-foreground); }
  .saved { font-size: 11px; margin-top: 2px; color: var(--vscode-descriptionForeground); }
  .saved .codicon { font-size: 12px; vertical-align: -2px; color: var(--vscode-testing-iconPassed, var(--vscode-foreground)); }
  .refusal { font-size: 11px; margin-top: 2px; }
  .banner { padding: 6px 8px; margin: 8px 0; border-left: 3px solid var(--vscode-editorWarning-foreground); background: var(--vscode-textBlockQuote-background); }
`);

const root = document.getElementById('root')!;
let last: RolesState | undefined;
/** How long a field says Saved after its write was accepted. */
const SAVED_MS = 4000;
/** The newest result seen per key (so an old one does not say Saved again), and the keys saying Saved until when. */
const seen = new Map<string, number>();
const savedUntil = new Map<string, number>();
let first = true;

const host = connectToHost<RolesToView, RolesFromView>((msg) => {
  if (msg.type === 'state') {
    last = msg;
    noteSaves(msg);
    render(msg);
  }
});

function noteSaves(s: RolesState): void {
  const now = performance.now();
  for (const [key, r] of Object.entries(s.results)) {
    if (seen.get(key) === r.at) continue;
    seen.set(key, r.at);
    if (r.ok && !first) {
      savedUntil.set(key, now + SAVED_MS);
      setTimeout(() => last && render(last), SAVED_MS + 50);
    } else savedUntil.delete(key);
  }
  first = false;
}

/** Refusals made on the page (never sent: a budget that is no amount, a model no id can be); a newer result from the daemon for the key replaces one. */
const localRefusals = new Map<string, { message: string; at: number }>();

function context(s: RolesState): FieldContext {
  const refusals: Record<string, string> = {};
  for (const [k, r] of Object.entries(s.results)) if (!r.ok && r.message) refusals[k] = r.message;
  for (const [k, r] of localRefusals) if (!s.results[k] || s.results[k].at < r.at) refusals[k] = r.message;
  return {
    set: (key, value) => {
      localRefusals.delete(key);
      host.post({ type: 'set', key, value });
    },
    refuseHere: (key, message) => {
      localRefusals.set(key, { message, at: Date.now() });
      savedUntil.delete(key);
      if (last) render(last);
    },
    models: Object.fromEntries(Object.entries(s.models).map(([h, m]) => [h, m.models])),
    wantModels: (harness) => {
      if (!last?.models[harness]) host.post({ type: 'models', harness });
    },
    harnesses: s.view?.harnesses ?? [],
    hosts: s.view?.hosts ?? [],
    refusals,
    saved: new Set([...savedUntil].filter(([, until]) => until > performance.now()).map(([k]) => k)),
  };
}

function render(s: RolesState): void {
  // Keep what the person is typing across a re-render (a config change elsewhere).
  const active = document.activeElement as HTMLInputElement | null;
  const typing = active?.dataset?.key
    ? {
        key: active.dataset.key,
        value: active.value,
        start: active.selectionStart,
        end: active.selectionEnd,
        tag: active.tagName,
      }
    : undefined;

  const parts: HTMLElement[] = [];
  if (s.daemon) parts.push(textElement('div', s.daemon, 'banner'));
  if (s.problem) parts.push(textElement('div', s.problem, 'banner error'));
  if (!s.view) {
    if (!s.daemon && !s.problem) parts.push(textElement('p', 'Reading the settings…', 'muted'));
    root.replaceChildren(...parts);
    return;
  }
  const ctx = context(s);
  parts.push(
    ...reviewSection(s.view, ctx),
    ...s.view.projects.flatMap((p) => projectSection(p, s.view!.files.projects, ctx)),
    datalists(s),
  );
  root.replaceChildren(...parts);
  // Nothing can be saved while the daemon is away: the last values stay readable, every control is off.
  if (s.daemon)
    root
      .querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLButtonElement>('input, select, button')
      .forEach((el) => (el.disabled = true));

  if (typing) {
    const again = root.querySelector<HTMLInputElement>(
      `${typing.tag.toLowerCase()}[data-key="${CSS.escape(typing.key)}"]`,
    );
    if (again) {
      if (again.tagName === 'INPUT') again.value = typing.value;
      again.focus();
      if (again.tagName === 'INPUT' && typing.start !== null) again.setSelectionRange(typing.start, typing.end);
    }
  }
}

/** A short heading; where it is saved (the file's path) is its tooltip, not its text. */
function heading(text: string, muted: string, where: string): HTMLElement {
  const h = textElement('h2', text);
  h.append(textElement('span', muted, 'muted'));
  h.title = where;
  return h;
}

function reviewSection(v: RolesView, ctx: FieldContext): HTMLElement[] {
  const r = v.review;
  const grid = document.createElement('div');
  grid.className = 'grid';
  grid.dataset.section = 'review';
  const parentHarness = r.harness.value;
  grid.append(
    fieldElement({ label: 'Review mode', entry: r.mode, kind: 'enum' }, ctx),
    fieldElement({ label: 'Review parent model', entry: r.model, kind: 'model', harness: parentHarness }, ctx),
    fieldElement({ label: 'Review parent harness', entry: r.harness, kind: 'harness' }, ctx),
    fieldElement({ label: 'Review effort', entry: r.effort, kind: 'enum' }, ctx),
  );
  const table = document.createElement('table');
  table.dataset.section = 'convoy';
  table.append(headRow(CONVOY_COLUMNS));
  for (const lane of r.lanes) {
    table.append(
      row(
        lane.lane,
        [
          { label: `${lane.lane} reviewer model`, entry: lane.model, kind: 'model', harness: lane.harness.value },
          { label: `${lane.lane} reviewer harness`, entry: lane.harness, kind: 'harness' },
        ],
        ctx,
      ),
    );
  }
  return [
    heading('Review', 'every project', `Saved in ${v.files.config}`),
    textElement(
      'p',
      'Applies to every review. quick: one agent reviews; full: a parent and four convoy lanes; none: no AI review (checks still run).',
      'note muted',
    ),
    grid,
    scrollable(table),
  ];
}

function projectSection(p: RolesView['projects'][number], projectsFile: string, ctx: FieldContext): HTMLElement[] {
  const table = document.createElement('table');
  table.dataset.project = p.key;
  table.append(headRow(ROLE_COLUMNS));
  for (const r of p.roles) {
    table.append(
      row(
        r.role,
        [
          { label: `${r.role} model`, entry: r.model, kind: 'model', harness: r.harness.value },
          { label: `${r.role} effort`, entry: r.effort, kind: 'enum' },
          { label: `${r.role} harness`, entry: r.harness, kind: 'harness' },
          { label: `${r.role} permissions`, entry: r.permissions, kind: 'enum' },
          { label: `${r.role} host`, entry: r.host, kind: 'host' },
          { label: `${r.role} sandbox`, entry: r.sandbox, kind: 'enum' },
          { label: `${r.role} budget`, entry: r.budget, kind: 'budget' },
        ],
        ctx,
      ),
    );
  }
  const run = document.createElement('div');
  run.className = 'grid';
  run.dataset.section = `run-${p.key}`;
  run.append(fieldElement({ label: 'Run budget (USD)', entry: p.budget, kind: 'budget' }, ctx));
  return [heading(`Project ${p.key}`, 'gauntlet roles', `${p.path}\nSaved in ${projectsFile}`), scrollable(table), run];
}

/** A table in a box that scrolls sideways, so a narrow panel never cuts off its last columns. */
function scrollable(table: HTMLTableElement): HTMLElement {
  const wrap = document.createElement('div');
  wrap.className = 'table-wrap';
  wrap.append(table);
  return wrap;
}

function headRow(cells: string[]): HTMLTableRowElement {
  const tr = document.createElement('tr');
  for (const c of cells) tr.append(textElement('th', c));
  return tr;
}

function row(name: string, fields: FieldSpec[], ctx: FieldContext): HTMLTableRowElement {
  const tr = document.createElement('tr');
  tr.dataset.row = name;
  tr.append(textElement('th', name));
  for (const f of fields) {
    const td = document.createElement('td');
    td.append(fieldElement(f, ctx));
    tr.append(td);
  }
  return tr;
}

/** One datalist per harness whose models are known; model boxes point at them by id. */
function datalists(s: RolesState): HTMLElement {
  const box = document.createElement('div');
  for (const [harness, m] of Object.entries(s.models)) {
    const list = document.createElement('datalist');
    list.id = datalistId(harness);
    for (const value of m.models) {
      const o = document.createElement('option');
      o.value = value;
      list.append(o);
    }
    box.append(list);
  }
  return box;
}
