// Renders transcript items (shared/webview/conversationMessages.ts) into elements, re-using the
// element of an item whose content did not change, so a streamed message re-renders
// alone and the reader's scroll and open tool outputs stay put.
import type { TranscriptItem } from '../../shared/webview/conversationMessages';
import { markdownFragment } from '../common/markdown';
import { textElement } from '../common/sanitize';

const cache = new Map<string, { key: string; el: HTMLElement }>();

export function renderItems(items: readonly TranscriptItem[]): HTMLElement[] {
  const seen = new Set<string>();
  const out = items.map((item) => {
    seen.add(item.id);
    const key = JSON.stringify(item);
    const hit = cache.get(item.id);
    if (hit && hit.key === key) return hit.el;
    const el = itemElement(item);
    el.dataset.item = item.id;
    el.dataset.kind = item.kind;
    cache.set(item.id, { key, el });
    return el;
  });
  for (const id of [...cache.keys()]) if (!seen.has(id)) cache.delete(id);
  return out;
}

export function icon(name: string, spin = false): HTMLElement {
  const i = document.createElement('vscode-icon');
  i.setAttribute('name', name);
  if (spin) i.setAttribute('spin', '');
  return i;
}

function markdownSection(className: string, text: string, label?: string): HTMLElement {
  const el = document.createElement('section');
  el.className = className;
  if (label) el.append(textElement('div', label, 'who muted'));
  const body = document.createElement('div');
  body.className = 'md';
  body.append(markdownFragment(text));
  el.append(body);
  return el;
}

function itemElement(item: TranscriptItem): HTMLElement {
  switch (item.kind) {
    case 'prompt':
      return markdownSection('prompt', item.text, 'prompt');
    case 'message':
      return markdownSection('message', item.text);
    case 'thought': {
      const el = document.createElement('details');
      el.className = 'thought muted';
      el.append(textElement('summary', 'thinking'), textElement('div', item.text, 'text'));
      return el;
    }
    case 'tool': {
      const el = document.createElement('details');
      el.className = 'tool';
      el.dataset.status = item.status ?? '';
      if (item.status === 'failed' || (item.output && item.output.split('\n').length <= 12)) el.open = true;
      const summary = document.createElement('summary');
      const state =
        item.status === 'completed'
          ? icon('pass')
          : item.status === 'failed'
            ? icon('error')
            : item.status === 'in_progress'
              ? icon('loading', true)
              : icon('tools');
      summary.append(
        state,
        textElement('code', item.title, 'title'),
        textElement(
          'span',
          item.outcome && item.outcome !== 'failed'
            ? `${item.status ?? 'failed'} (${item.outcome})`
            : (item.status ?? 'pending'),
          'status muted',
        ),
      );
      el.append(
        summary,
        item.output ? textElement('pre', item.output, 'output') : textElement('div', 'no output', 'output muted'),
      );
      return el;
    }
    case 'plan': {
      const el = document.createElement('section');
      el.className = 'plan';
      el.append(textElement('div', 'plan', 'who muted'));
      const ul = document.createElement('ul');
      for (const e of item.entries) {
        const li = document.createElement('li');
        li.dataset.status = e.status;
        li.append(
          icon(e.status === 'completed' ? 'pass' : e.status === 'in_progress' ? 'arrow-right' : 'circle-large-outline'),
          textElement('span', e.content),
        );
        ul.append(li);
      }
      el.append(ul);
      return el;
    }
    case 'ask': {
      const el = document.createElement('div');
      el.className = 'ask-line';
      el.append(
        icon(item.outcome ? 'question' : 'bell-dot'),
        textElement('span', item.title),
        textElement('span', item.outcome ?? 'waiting for you', 'muted'),
      );
      return el;
    }
    case 'note':
      return textElement('div', item.text, `note ${item.tone === 'error' ? 'error' : 'muted'}`);
  }
}

/** A lane's newest report: status, verdict and the body as sanitized Markdown. */
export function reportElement(r: {
  seq: number;
  status: string;
  verdict: string | null;
  at: number;
  body: string;
}): HTMLElement {
  const el = markdownSection(
    'report',
    r.body,
    `newest report #${r.seq} · ${r.status}${r.verdict ? ` · verdict ${r.verdict}` : ''} · ${new Date(r.at).toLocaleString()}`,
  );
  el.setAttribute('aria-label', 'Newest lane report');
  return el;
}
