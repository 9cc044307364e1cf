// A spend cap's text box in the Roles panel: an amount of US dollars, checked here before
// anything is written (the same rule as the daemon's, parseUsd in shared/format/money.ts), so a
// typo is explained next to the field and never reaches the file. Enter or leaving the box
// writes it; an empty box removes the cap (as Clear does); Escape puts the saved value back.
import { parseUsd } from '../../shared/format/money';
import { isOwn as own } from './choices';
import type { FieldContext, FieldSpec } from './fieldTypes';

export function budgetBox(id: string, spec: FieldSpec, ctx: FieldContext): HTMLInputElement {
  const e = spec.entry;
  const input = document.createElement('input');
  input.id = id;
  input.type = 'text';
  input.inputMode = 'decimal';
  input.dataset.key = e.key;
  input.spellcheck = false;
  const was = own(e) ? (e.value ?? '') : '';
  input.value = was;
  input.placeholder = 'no cap (US dollars)';
  let sent: string | undefined;
  const commit = () => {
    const text = input.value.trim();
    // Enter and the change event after it are one write.
    if (text === was || text === sent) return;
    sent = text;
    if (text === '') return ctx.set(e.key, null);
    const usd = parseUsd(text);
    if ('why' in usd) return ctx.refuseHere(e.key, `${e.key} was not changed: '${text}' is not a budget (${usd.why})`);
    ctx.set(e.key, String(usd.usd));
  };
  input.addEventListener('change', commit);
  input.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter') commit();
    if (ev.key === 'Escape') input.value = was;
  });
  return input;
}
