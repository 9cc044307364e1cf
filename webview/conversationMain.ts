// The Conversation panel page: a header (activity, model, harness, cost, lane), the
// lane's newest report, the transcript, the open needs-you request with its options as
// buttons, and a composer that sends like `svc tell` (Ctrl+Enter). Agent text is set as
// text, or rendered Markdown sanitized by DOMPurify (webview/common/markdown.ts).
// What the person can do is a button, never a command to type: Stop while the agent
// works, Resume instead of Send once it stopped, Send anyway when a judge already
// reported, Open report, Keep Open for a preview. The conversation id and the unsent
// draft are kept across a window reload (setState; the host's serializer reads the id).
import '@vscode-elements/elements/dist/vscode-badge/index.js';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-icon/index.js';
import '@vscode-elements/elements/dist/vscode-textarea/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import { vscodeButton } from './common/controls';
import { interceptLinks } from './common/markdown';
import { textElement } from './common/sanitize';
import { adoptStyles } from './common/styles';
import { connectToHost } from './common/vscodeApi';
import { askElement } from './conversation/askBox';
import { conversationStyles } from './conversation/styles';
import { icon, renderItems, reportElement } from './conversation/transcriptView';
import type {
  ActionResult,
  ConversationFromView,
  ConversationHeader,
  ConversationPageState,
  ConversationState,
  ConversationToView,
} from '../shared/webview/conversationMessages';

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
const send = vscodeButton('Send', () => submit(), { icon: 'send', className: 'send' });
const resume = vscodeButton('Resume', () => doResume(), { icon: 'debug-continue', className: 'resume' });
const status = document.createElement('div');
status.className = 'composer-status muted';
status.setAttribute('role', 'status');
status.setAttribute('aria-live', 'polite');
/** A refusal's remedy (Send anyway, Resume), next to what it says. */
const offer = document.createElement('span');
offer.className = 'offer';
/** Why Send is off (the agent stopped), in words, next to Resume. */
const stopped = textElement('div', '', 'stopped-note muted');
const actions = document.createElement('div');
actions.className = 'composer-actions';
actions.append(status, offer, resume, send);
composer.append(stopped, input, actions);
root.append(header, problem, report, transcript, askSlot, composer);

let pending: string | undefined;
let convId: number | undefined;
let resumable = false;
/** The daemon is not connected: every control that needs it is off. */
let daemonDown = false;
/**
 * An action's success line ("Answered: …", "Resumed.") holds only until the agent's state
 * moves on: `undefined` until the next state is seen, then that state, and the line goes
 * when the state differs. A failure stays until the next action.
 */
let okResultFor: string | undefined | null = null;
const host = connectToHost<ConversationToView, ConversationFromView>((msg) => {
  if (msg.type === 'state') render(msg);
  else if (msg.type === 'result') result(msg);
});
interceptLinks(root, (href) => host.post({ type: 'openLink', href }));
// The draft typed before a window reload comes back (the host restores the conversation).
const kept = host.getState<ConversationPageState>();
if (kept?.draft) input.value = kept.draft;
const keep = () =>
  convId !== undefined && host.setState<ConversationPageState>({ convId, draft: input.value, preview });
input.addEventListener('input', keep);

function submit(force = false): void {
  if (resumable || daemonDown) return;
  const text = force && pending !== undefined ? pending : input.value.trim();
  if (!text) return;
  pending = text;
  status.textContent = 'Sending…';
  status.className = 'composer-status muted';
  offer.replaceChildren();
  host.post({ type: 'tell', text, ...(force ? { force: true } : {}) });
}
function doResume(): void {
  if (daemonDown) return;
  status.textContent = 'Resuming…';
  status.className = 'composer-status muted';
  offer.replaceChildren();
  host.post({ type: 'resume' });
}
input.addEventListener('keydown', (e) => {
  const k = e;
  if (k.key === 'Enter' && (k.ctrlKey || k.metaKey)) {
    k.preventDefault();
    submit();
  }
});

function result(r: ActionResult): void {
  status.textContent = r.message;
  status.className = `composer-status ${r.ok ? 'muted' : 'error'}`;
  okResultFor = r.ok ? undefined : null;
  offer.replaceChildren();
  if (r.offer === 'sendAnyway')
    offer.append(
      vscodeButton('Send anyway', () => submit(true), { icon: 'send', className: 'send-anyway', secondary: true }),
    );
  else if (r.offer === 'resume')
    offer.append(
      vscodeButton('Resume', () => doResume(), { icon: 'debug-continue', className: 'resume-offer', secondary: true }),
    );
  if (r.action === 'tell' && r.ok && pending !== undefined && input.value.trim() === pending) {
    input.value = '';
    keep();
  }
  if (r.offer !== 'sendAnyway') pending = undefined;
}

function headerContent(c: ConversationHeader): HTMLElement[] {
  const title = textElement('h1', c.title || c.name);
  const line = document.createElement('div');
  line.className = 'facts';
  const activity = document.createElement('span');
  activity.className = `activity ${c.activity}`;
  activity.dataset.activity = c.activity;
  if (daemonDown) {
    // What the daemon last said may no longer hold: say that it is unknown, not "idle".
    activity.className = 'activity unknown';
    activity.dataset.activity = 'unknown';
    activity.append(icon('debug-disconnect', false), textElement('span', 'unknown: daemon not connected'));
  } else
    activity.append(
      icon(ACTIVITY_ICONS[c.activity] ?? 'circle-large-outline', c.activity === 'working' || c.activity === 'starting'),
      textElement('span', c.activity),
    );
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
  const buttons = document.createElement('div');
  buttons.className = 'header-actions';
  if (preview) {
    buttons.append(textElement('span', 'Preview', 'preview-mark muted'));
    const pin = vscodeButton('Keep Open', () => host.post({ type: 'pin' }), {
      icon: 'pinned',
      className: 'keep-open',
      secondary: true,
    });
    pin.title =
      'Keep this tab: the next conversation opened from a row gets its own tab (a double-click on the row does the same)';
    buttons.append(pin);
  }
  if (c.reportFile)
    buttons.append(
      vscodeButton('Open report', () => host.post({ type: 'openReport' }), {
        icon: 'file-text',
        className: 'open-report',
        secondary: true,
      }),
    );
  // Stop only while the agent is busy: an idle agent costs nothing and waits for a message.
  if (c.alive && STOPPABLE.has(c.activity) && !daemonDown)
    buttons.append(
      vscodeButton('Stop', () => host.post({ type: 'stop' }), {
        icon: 'debug-stop',
        className: 'stop',
        secondary: true,
      }),
    );
  if (buttons.childElementCount) parts.push(buttons);
  return parts;
}

const STOPPABLE = new Set(['working', 'needs-you', 'starting']);
let preview = false;

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
  if (s.convId !== convId) {
    // A preview panel now shows another conversation: nothing typed or said about the last one stays.
    if (convId !== undefined) {
      input.value = '';
      status.textContent = '';
      offer.replaceChildren();
      pending = undefined;
      lastHeader = lastAsk = lastReport = '';
    }
    convId = s.convId;
    keep();
  }
  daemonDown = s.daemonDown;
  const h = JSON.stringify([s.conv, s.preview, s.daemonDown]);
  if (preview !== s.preview) {
    preview = s.preview;
    keep();
  }
  if (h !== lastHeader) {
    lastHeader = h;
    header.replaceChildren(
      ...(s.conv ? headerContent(s.conv) : [textElement('p', 'Reading the conversation…', 'muted')]),
    );
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
  // An answer cannot reach a daemon that is not there: the request stays visible, inert.
  askSlot.toggleAttribute('inert', s.daemonDown);
  askSlot.classList.toggle('disabled', s.daemonDown);
  const live = s.conv ? `${s.conv.activity}/${s.conv.alive}` : '';
  if (okResultFor === undefined) okResultFor = live;
  else if (okResultFor !== null && okResultFor !== live) {
    status.textContent = '';
    okResultFor = null;
  }
  composerFor(s.conv);
  if (atBottom) window.scrollTo(0, document.body.scrollHeight);
}

/** Send while the agent runs; once it stopped (or failed to start, or was archived), Resume instead. */
function composerFor(c: ConversationHeader | null): void {
  resumable = !!c?.resumable;
  send.toggleAttribute('disabled', !c || resumable || c.reaped || daemonDown);
  resume.hidden = !resumable;
  resume.toggleAttribute('disabled', daemonDown);
  stopped.hidden = !daemonDown && (!c || c.alive || (!c.resumable && !c.reaped));
  stopped.textContent = daemonDown
    ? 'The svc daemon is not connected: nothing can be sent or resumed until it is back.'
    : !c
      ? ''
      : c.reaped
        ? 'This lane was reaped: its folder is gone, so it cannot take messages.'
        : c.archived
          ? 'This conversation is archived. Resume it to send messages (it comes back to the Command Deck).'
          : c.activity === 'failed-to-start'
            ? 'The agent failed to start. Resume tries again.'
            : 'The agent stopped. Resume it to send messages.';
}
