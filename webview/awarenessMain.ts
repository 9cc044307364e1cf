// The Awareness rail page: a daemon line, then one card per gauntlet run grouped by
// project (counts line, latest event and its time). A click on a card opens the
// conversation that launched the run in the preview tab (a double-click or Enter keeps
// it); its expand button asks the host for the run's lanes once and lists them, critics
// and verifiers under the builder they judge. Links look like the sidebar's rows, not
// like web links; one indentation step throughout. Everything from the daemon is set as
// text, never as HTML.
import '@vscode-elements/elements/dist/vscode-badge/index.js';
import '@vscode-elements/elements/dist/vscode-icon/index.js';
import type {
  AwarenessCard,
  AwarenessFromView,
  AwarenessState,
  AwarenessToView,
  DaemonLine,
  RunLanes,
  RunLaneView,
} from '../shared/webview/awarenessMessages';
import { textElement } from './common/sanitize';
import { adoptStyles } from './common/styles';
import { connectToHost } from './common/vscodeApi';

// One indentation step (--indent) for everything: the daemon line, project headings and
// cards line up on the same left edge, and each nesting level of lanes moves by one step.
adoptStyles(`
  body { --indent: 8px; padding: 0 var(--indent) 8px; }
  .daemon { display: flex; gap: 6px; align-items: center; padding: 6px 0; border-bottom: 1px solid var(--vscode-sideBarSectionHeader-border, transparent); }
  .daemon.down, .daemon.noNode { color: var(--vscode-errorForeground); }
  h3 { font-size: 11px; text-transform: uppercase; margin: 12px 0 4px; padding: 0; color: var(--vscode-sideBarSectionHeader-foreground); }
  .card { padding: 6px var(--indent); margin: 4px 0; border: 1px solid var(--vscode-widget-border, transparent); border-radius: 3px; background: var(--vscode-sideBar-background); }
  .card .run { display: flex; justify-content: space-between; gap: 6px; font-weight: 600; }
  .card .counts, .card .latest, .card .landing { margin-top: 2px; }
  .empty { padding: 12px 0; margin: 0; }
  .card { cursor: pointer; }
  .card:hover { background: var(--vscode-list-hoverBackground); }
  .card:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: -1px; }
  .card a { color: inherit; text-decoration: none; }
  .card a:hover { color: var(--vscode-textLink-activeForeground); }
  .card a:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 1px; }
  .card .run a { font-weight: normal; color: var(--vscode-descriptionForeground); }
  .card .expand { display: inline-flex; gap: 2px; align-items: center; margin: 4px 0 0; padding: 0; font: inherit; color: var(--vscode-descriptionForeground); background: none; border: none; cursor: pointer; }
  .card .expand:hover { color: var(--vscode-foreground); }
  .card ul.lanes { list-style: none; margin: 4px 0 0; padding-left: 0; }
  .card ul.lanes ul.lanes { padding-left: calc(2 * var(--indent)); }
  .card li > .lane { display: flex; gap: 6px; align-items: baseline; padding: 1px 0; }
  .card li > .lane a { white-space: nowrap; }
  .card li > .lane .muted { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
  .lane.needs-you a { color: var(--vscode-editorWarning-foreground); }
  .card .spend { display: flex; gap: 6px; align-items: center; margin-top: 2px; }
  .card .spend.near, .card .spend.reached { color: var(--vscode-editorWarning-foreground); }
  .card .spend.reached { font-weight: 600; }
  .card .bar { flex: 0 0 60px; height: 4px; border-radius: 2px; background: var(--vscode-progressBar-background); opacity: 0.25; position: relative; }
  .card .bar > span { position: absolute; left: 0; top: 0; bottom: 0; border-radius: 2px; background: var(--vscode-progressBar-background); }
  .card .spend.near .bar > span, .card .spend.reached .bar > span { background: var(--vscode-editorWarning-foreground); }
`);

const root = document.getElementById('root')!;
/** Expanded cards (project + run) and the lanes read for each expand. */
const expanded = new Map<string, RunLanes | undefined>();
const cardKey = (project: string, run: string) => `${project}\u0000${run}`;
let last: AwarenessState | undefined;

const host = connectToHost<AwarenessToView, AwarenessFromView>((msg) => {
  if (msg.type === 'state') {
    last = msg;
    render(msg);
  } else if (msg.type === 'lanes') {
    const k = cardKey(msg.project, msg.run);
    if (!expanded.has(k)) return;
    expanded.set(k, msg);
    if (last) render(last);
  }
});

const ICONS: Record<DaemonLine['state'], string> = {
  connected: 'pulse',
  connecting: 'loading',
  down: 'debug-disconnect',
  noNode: 'error',
};

function render(s: AwarenessState): void {
  const daemon = document.createElement('div');
  daemon.className = `daemon ${s.daemon.state}`;
  daemon.dataset.state = s.daemon.state;
  const icon = document.createElement('vscode-icon');
  icon.setAttribute('name', ICONS[s.daemon.state]);
  if (s.daemon.state === 'connecting') icon.setAttribute('spin', '');
  daemon.append(icon, textElement('span', s.daemon.text));

  const body = document.createElement('div');
  body.className = 'runs';
  if (s.cards === undefined) {
    body.append(
      textElement(
        'p',
        s.daemon.state === 'connected'
          ? 'Gauntlet runs are not available from this daemon yet.'
          : 'Gauntlet runs show here while the daemon is connected.',
        'empty muted',
      ),
    );
  } else if (s.cards.length === 0) {
    body.append(textElement('p', 'No gauntlet runs yet', 'empty muted'));
  } else {
    let project = '';
    for (const card of s.cards) {
      if (card.project !== project) {
        project = card.project;
        body.append(textElement('h3', project));
      }
      body.append(cardElement(card));
    }
  }
  // Keep keyboard focus on the same card (or its expand button) across a re-render.
  const active = document.activeElement as HTMLElement | null;
  const card = active?.closest<HTMLElement>('article.card');
  const onExpand = active?.classList.contains('expand') ?? false;
  root.replaceChildren(daemon, body);
  if (card) {
    const again = root.querySelector<HTMLElement>(
      `article.card[data-run="${CSS.escape(card.dataset.run ?? '')}"][data-project="${CSS.escape(card.dataset.project ?? '')}"]`,
    );
    (onExpand ? again?.querySelector<HTMLElement>('button.expand') : again)?.focus();
  }
}

function cardElement(c: AwarenessCard): HTMLElement {
  const el = document.createElement('article');
  el.className = 'card';
  el.dataset.run = c.run;
  el.dataset.project = c.project;
  el.tabIndex = 0;
  // The card's context menu (package.json webview/context) gets the run it names.
  el.dataset.vscodeContext = JSON.stringify({
    webviewSection: 'runCard',
    run: c.run,
    project: c.project,
    preventDefaultContextMenuItems: true,
  });
  el.setAttribute(
    'aria-label',
    `Run ${c.run}: ${c.countsLine}. Spend ${c.spend.text}. Opens #${c.launcherId} ${c.launcherName}`,
  );
  const openLauncher = (keep: boolean) => host.post({ type: 'openConversation', convId: c.launcherId, keep });
  el.addEventListener('click', (e) => {
    if ((e.target as Element).closest('a, button')) return;
    openLauncher(false);
  });
  el.addEventListener('dblclick', (e) => {
    if ((e.target as Element).closest('a, button')) return;
    openLauncher(true);
  });
  el.addEventListener('keydown', (e) => {
    if (e.target === el && e.key === 'Enter') openLauncher(true);
  });
  const head = document.createElement('div');
  head.className = 'run';
  head.append(textElement('span', c.run));
  const open = textElement('a', `#${c.launcherId} ${c.launcherName}`);
  open.href = '#';
  open.title = 'Open the conversation that launched this run';
  open.addEventListener('click', (e) => {
    e.preventDefault();
    openLauncher(e.detail === 0); // Enter on the link (detail 0) keeps the tab, as a double-click does
  });
  open.addEventListener('dblclick', (e) => {
    e.preventDefault();
    openLauncher(true);
  });
  head.append(open);
  const latest = textElement('div', `${c.latest.text} · ${timeOf(c.latest.at)}`, 'latest muted');
  el.append(head, textElement('div', c.countsLine, 'counts'), latest);
  if (c.spend.cap !== null || c.spend.spent > 0) el.append(spendElement(c.spend));
  // The run's landings in their base's queue (`svc lane land`), one line each.
  for (const line of c.queue ?? []) el.append(textElement('div', line, 'landing'));
  el.append(expandElement(c));
  return el;
}

/** Spent against the run's cap: a bar once there is a cap, in the warning colour from 80 % on. */
function spendElement(s: AwarenessCard['spend']): HTMLElement {
  const share = s.cap !== null && s.cap > 0 ? s.spent / s.cap : 0;
  const state = s.reached > 0 || share >= 1 ? 'reached' : share >= 0.8 ? 'near' : 'ok';
  const line = document.createElement('div');
  line.className = `spend ${state}`;
  line.dataset.state = state;
  if (s.cap !== null) {
    const bar = document.createElement('span');
    bar.className = 'bar';
    const fill = document.createElement('span');
    fill.style.width = `${Math.min(100, Math.round(share * 100))}%`;
    bar.append(fill);
    line.append(bar);
  }
  line.append(textElement('span', s.cap !== null ? s.text : `${s.text}`, 'muted'));
  return line;
}

function expandElement(c: AwarenessCard): HTMLElement {
  const k = cardKey(c.project, c.run);
  const isOpen = expanded.has(k);
  const box = document.createElement('div');
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'expand';
  button.setAttribute('aria-expanded', String(isOpen));
  const chevron = document.createElement('vscode-icon');
  chevron.setAttribute('name', isOpen ? 'chevron-down' : 'chevron-right');
  button.append(chevron, textElement('span', isOpen ? 'Hide lanes' : 'Show lanes'));
  button.addEventListener('click', () => {
    if (expanded.has(k)) expanded.delete(k);
    else {
      expanded.set(k, undefined);
      host.post({ type: 'expand', project: c.project, run: c.run });
    }
    if (last) render(last);
  });
  box.append(button);
  if (isOpen) {
    const got = expanded.get(k);
    if (!got) box.append(textElement('div', 'Reading the lanes…', 'muted'));
    else if (got.problem || !got.lanes)
      box.append(textElement('div', got.problem ?? 'The lanes could not be read.', 'error'));
    else box.append(laneList(got.lanes));
  }
  return box;
}

function laneList(lanes: RunLaneView[]): HTMLElement {
  const ul = document.createElement('ul');
  ul.className = 'lanes';
  for (const l of lanes) {
    const li = document.createElement('li');
    const row = document.createElement('div');
    row.className = `lane ${l.activity}`;
    row.dataset.conv = String(l.convId);
    const a = textElement('a', l.label);
    a.href = '#';
    a.addEventListener('click', (e) => {
      e.preventDefault();
      host.post({ type: 'openConversation', convId: l.convId, keep: e.detail === 0 });
    });
    a.addEventListener('dblclick', (e) => {
      e.preventDefault();
      host.post({ type: 'openConversation', convId: l.convId, keep: true });
    });
    row.append(a, textElement('span', l.description, 'muted'));
    li.append(row);
    if (l.children.length) li.append(laneList(l.children));
    ul.append(li);
  }
  return ul;
}

function timeOf(ms: number): string {
  return new Date(ms).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}
