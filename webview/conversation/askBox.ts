// The open needs-you request: its title and its options as buttons (a permission or plan
// approval), or a text answer (a question). Answers go to the host like `svc conv answer`.
import type { AskView, ConversationFromView } from '../../shared/webview/conversationMessages';
import { vscodeButton } from '../common/controls';
import { textElement } from '../common/sanitize';
import { icon } from './transcriptView';

type Answer = Extract<ConversationFromView, { type: 'answer' }>;

export function askElement(ask: AskView, answer: (a: Answer) => void): HTMLElement {
  const box = document.createElement('section');
  box.className = 'needs-you';
  box.setAttribute('role', 'region');
  box.setAttribute('aria-label', 'Needs you');
  const head = document.createElement('div');
  head.className = 'needs-you-head';
  head.append(
    icon('bell-dot'),
    textElement('strong', ask.kind === 'question' ? 'Question' : ask.kind === 'plan' ? 'Plan approval' : 'Permission'),
    textElement('span', ask.title, 'ask-title'),
  );
  box.append(head);
  const buttons = document.createElement('div');
  buttons.className = 'ask-options';
  const button = (label: string, a: Answer, secondary = false) => {
    const b = vscodeButton(label, () => answer(a), { secondary });
    b.dataset.answer = JSON.stringify(a);
    buttons.append(b);
  };
  if (ask.kind === 'question') {
    const field = document.createElement('vscode-textfield');
    field.setAttribute('placeholder', ask.fields[0] ? `Answer (${ask.fields[0]})` : 'Answer');
    field.setAttribute('aria-label', 'Answer');
    field.className = 'ask-text';
    const send = () => {
      const text = (field as unknown as { value: string }).value.trim();
      if (text) answer({ type: 'answer', text });
    };
    field.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') send();
    });
    buttons.append(field, vscodeButton('Answer', send));
    for (const o of ask.options) button(o.name, { type: 'answer', option: o.id }, true);
  } else if (ask.options.length) {
    ask.options.forEach((o, i) =>
      button(o.name, { type: 'answer', option: o.id }, i > 0 && !o.kind.startsWith('allow')),
    );
  } else {
    button('Allow', { type: 'answer', allow: true });
    button('Deny', { type: 'answer', deny: true }, true);
  }
  box.append(buttons);
  return box;
}
