// The Awareness rail page: a daemon line, then one card per gauntlet run grouped by
// project (counts line, latest event and its time, a link to the launching conversation).
// Everything from the daemon is set as text, never as HTML.
import '@vscode-elements/elements/dist/vscode-badge/index.js';
import '@vscode-elements/elements/dist/vscode-icon/index.js';
import type { AwarenessCard, AwarenessFromView, AwarenessState, AwarenessToView, DaemonLine } from './awarenessMessages';
import { textElement } from './common/sanitize';
import { adoptStyles } from './common/styles';
import { connectToHost } from './common/vscodeApi';

adoptStyles(`
  .daemon { display: flex; gap: 6px; align-items: center; padding: 6px 0; border-bottom: 1px solid var(--vscode-sideBarSectionHeader-border, transparent); }
  .daemon.down, .daemon.noNode { color: var(--vscode-errorForeground); }
  h3 { font-size: 11px; text-transform: uppercase; margin: 12px 0 4px; color: var(--vscode-sideBarSectionHeader-foreground); }
  .card { padding: 6px 8px; margin: 4px 0; border: 1px solid var(--vscode-widget-border, transparent); border-radius: 3px; background: var(--vscode-sideBar-background); }
  .card .run { display: flex; justify-content: space-between; gap: 6px; font-weight: 600; }
  .card .counts, .card .latest { margin-top: 2px; }
  .empty { padding: 12px 0; }
`);

const root = document.getElementById('root')!;
const host = connectToHost<AwarenessToView, AwarenessFromView>((msg) => {
  if (msg.type === 'state') render(msg);
});

const ICONS: Record<DaemonLine['state'], string> = { connected: 'pulse', connecting: 'loading', down: 'debug-disconnect', noNode: 'error' };

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
    body.append(textElement('p', s.daemon.state === 'connected' ? 'Gauntlet runs are not available from this daemon yet.' : 'Gauntlet runs show here while the daemon is connected.', 'empty muted'));
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
  root.replaceChildren(daemon, body);
}

function cardElement(c: AwarenessCard): HTMLElement {
  const el = document.createElement('article');
  el.className = 'card';
  el.dataset.run = c.run;
  const head = document.createElement('div');
  head.className = 'run';
  head.append(textElement('span', c.run));
  const open = textElement('a', `#${c.launcherId} ${c.launcherName}`);
  open.href = '#';
  open.title = 'Open the conversation that launched this run';
  open.addEventListener('click', (e) => {
    e.preventDefault();
    host.post({ type: 'openConversation', convId: c.launcherId });
  });
  head.append(open);
  const latest = textElement('div', `${c.latest.text} · ${timeOf(c.latest.at)}`, 'latest muted');
  el.append(head, textElement('div', c.countsLine, 'counts'), latest);
  return el;
}

function timeOf(ms: number): string {
  return new Date(ms).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}
