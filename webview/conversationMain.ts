// The Conversation panel page: a header (activity, model, harness, cost, lane), the
// lane's newest report, the transcript, the open needs-you request with its options as
// buttons, and a composer that sends like `svc tell` (Ctrl+Enter). Agent text is set as
// text, or rendered Markdown sanitized by DOMPurify (webview/common/markdown.ts).
import '@vscode-elements/elements/dist/vscode-badge/index.js';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-icon/index.js';
import '@vscode-elements/elements/dist/vscode-textarea/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import { interceptLinks } from './common/markdown';
import { textElement } from './common/sanitize';
import { adoptStyles } from './common/styles';
import { connectToHost } from './common/vscodeApi';
import { askElement } from './conversation/askBox';
import { conversationStyles } from './conversation/styles';
import { icon, renderItems, reportElement } from './conversation/transcriptView';
import type { ActionResult, ConversationFromView, ConversationHeader, ConversationState, ConversationToView } from './conversationMessages';

adoptStyles(conversationStyles);

const root = document.getElementById('root')!;
root.removeAttribute('aria-live'); // the transcript streams; only the status line announces
const header = document.createElement('header');
const problem = document.createElement('div');
problem.className = 'banner';
problem.setAttribute('role', 'status');
const report = document.createElement('div');
const transcript = document.createElement('div');
transcript.className = 'transcript';
transcript.setAttribute('role', 'log');
transcript.setAttribute('aria-label', 'Transcript');
const askSlot = document.createElement('div');
askSlot.className = 'ask-slot';
const composer = document.createElement('div');
composer.className = 'composer';
const input = document.createElement('vscode-textarea') as HTMLElement & { value: string };
input.setAttribute('placeholder', 'Message the agent (Ctrl+Enter sends; queued while it works)');
input.setAttribute('aria-label', 'Message');
input.setAttribute('rows', '3');
input.setAttribute('resize', 'vertical');
const send = document.createElement('vscode-button');
send.textContent = 'Send';
send.setAttribute('icon', 'send');
const status = document.createElement('div');
status.className = 'composer-status muted';
status.setAttribute('role', 'status');
status.setAttribute('aria-live', 'polite');
const actions = document.createElement('div');
actions.className = 'composer-actions';
actions.append(status, send);
composer.append(input, actions);
root.append(header, problem, report, transcript, askSlot, composer);

let pending: string | undefined;
const host = connectToHost<ConversationToView, ConversationFromView>((msg) => {
  if (msg.type === 'state') render(msg);
  else if (msg.type === 'result') result(msg);
});
interceptLinks(root, (href) => host.post({ type: 'openLink', href }));

function submit(): void {
  const text = input.value.trim();
  if (!text) return;
  pending = text;
  status.textContent = 'Sending…';
  status.className = 'composer-status muted';
  host.post({ type: 'tell', text });
}
send.addEventListener('click', submit);
input.addEventListener('keydown', (e) => {
  const k = e as KeyboardEvent;
  if (k.key === 'Enter' && (k.ctrlKey || k.metaKey)) {
    k.preventDefault();
    submit();
  }
});

function result(r: ActionResult): void {
  status.textContent = r.message;
  status.className = `composer-status ${r.ok ? 'muted' : 'error'}`;
  if (r.action === 'tell' && r.ok && pending !== undefined && input.value.trim() === pending) input.value = '';
  pending = undefined;
}

function headerContent(c: ConversationHeader): HTMLElement[] {
  const title = textElement('h1', c.title || c.name);
  const line = document.createElement('div');
  line.className = 'facts';
  const activity = document.createElement('span');
  activity.className = `activity ${c.activity}`;
  activity.dataset.activity = c.activity;
  activity.append(icon(ACTIVITY_ICONS[c.activity] ?? 'circle-large-outline', c.activity === 'working' || c.activity === 'starting'), textElement('span', c.activity));
  line.append(activity, textElement('span', `#${c.id} ${c.name}`), textElement('span', c.kind));
  if (c.lane) line.append(textElement('span', c.lane, 'lane'));
  line.append(textElement('span', `${c.harness} · ${c.model}`));
  if (c.cost) line.append(textElement('span', c.cost));
  if (c.issueId) line.append(textElement('span', c.issueId));
  if (c.archived) line.append(textElement('span', 'archived'));
  if (c.parentId !== null) {
    const a = textElement('a', `parent #${c.parentId}`);
    a.href = '#';
    a.addEventListener('click', (e) => {
      e.preventDefault();
      host.post({ type: 'openConversation', convId: c.parentId! });
    });
    line.append(a);
  }
  const parts: HTMLElement[] = [title, line];
  if (c.alive) {
    const stop = document.createElement('vscode-button');
    stop.textContent = 'Stop';
    stop.setAttribute('secondary', '');
    stop.setAttribute('icon', 'debug-stop');
    stop.className = 'stop';
    stop.addEventListener('click', () => host.post({ type: 'stop' }));
    parts.push(stop);
  }
  return parts;
}

const ACTIVITY_ICONS: Record<string, string> = {
  'needs-you': 'bell-dot',
  working: 'sync',
  idle: 'circle-large-outline',
  starting: 'loading',
  stopped: 'circle-slash',
  'failed-to-start': 'error',
};

let lastHeader = '';
let lastAsk = '';
let lastReport = '';

function render(s: ConversationState): void {
  const h = JSON.stringify(s.conv);
  if (h !== lastHeader) {
    lastHeader = h;
    header.replaceChildren(...(s.conv ? headerContent(s.conv) : [textElement('p', 'Reading the conversation…', 'muted')]));
  }
  problem.textContent = s.problem ?? '';
  problem.hidden = !s.problem;
  const r = JSON.stringify(s.report);
  if (r !== lastReport) {
    lastReport = r;
    report.replaceChildren(...(s.report ? [reportElement(s.report)] : []));
  }
  const atBottom = window.innerHeight + window.scrollY >= document.body.scrollHeight - 40;
  const els = renderItems(s.items);
  if (s.earlier) els.unshift(textElement('div', 'Earlier transcript rows are not shown.', 'note muted'));
  if (!els.length) els.push(textElement('div', 'Nothing in the transcript yet.', 'note muted'));
  transcript.replaceChildren(...els);
  const a = JSON.stringify(s.ask);
  if (a !== lastAsk) {
    lastAsk = a;
    askSlot.replaceChildren(...(s.ask ? [askElement(s.ask, (answer) => host.post(answer))] : []));
  }
  if (atBottom) window.scrollTo(0, document.body.scrollHeight);
}
