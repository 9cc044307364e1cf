// One setting of the Roles panel as DOM: the control (a select for enums, harnesses and hosts, a
// text box with the harness's model choices for models — free text always allowed), a
// Clear button when the key is set, the source line (where the value comes from, or what
// happens while unset), and the last refusal next to it. Daemon text is set as text only.
import type { ConfigEntry } from '../../shared/protocol/config';
import { modelIdProblem, modelNotOffered } from '../../shared/modelId';
import { textElement } from '../common/sanitize';
import { budgetBox } from './budgetField';
import { isOwn as own, selectChoices } from './choices';
import type { SelectKind } from './choices';
import type { FieldContext, FieldSpec } from './fieldTypes';

export type { FieldContext, FieldSpec } from './fieldTypes';

/** What each model box last sent, and the value it replaced (see commit below). */
const lastSent = new Map<string, { value: string; was: string }>();

/** `project · projects.yaml`, `global · inherited from roles.review.model`, `unset · <consequence>`. */
export function sourceLine(e: ConfigEntry): { text: string; tone: 'normal' | 'warn' } {
  if (e.source === 'unset')
    return { text: `unset · ${e.whenUnset}`, tone: /refused|cannot start/.test(e.whenUnset) ? 'warn' : 'normal' };
  if (e.source === 'default') return { text: `default · ${e.whenUnset}`, tone: 'normal' };
  if (!own(e)) return { text: `${e.source} · inherited from ${e.from}`, tone: 'normal' };
  // The file's name; the whole path is the element's tooltip.
  return { text: `${e.source} · ${(e.file ?? '').split(/[\\/]/).pop()}`, tone: 'normal' };
}

export function datalistId(harness: string): string {
  return `models-${harness.replace(/[^a-z0-9_-]/g, '_')}`;
}

export function fieldElement(spec: FieldSpec, ctx: FieldContext): HTMLElement {
  const e = spec.entry;
  const wrap = document.createElement('div');
  wrap.className = 'field';
  wrap.dataset.key = e.key;
  wrap.dataset.source = e.source;
  const id = `f-${e.key.replace(/[^A-Za-z0-9_-]/g, '-')}`;
  const label = textElement('label', spec.label);
  label.htmlFor = id;

  const control = document.createElement('div');
  control.className = 'control';
  control.append(
    spec.kind === 'model'
      ? modelBox(id, spec, ctx)
      : spec.kind === 'budget'
        ? budgetBox(id, spec, ctx)
        : selectBox(id, spec, ctx),
  );
  if (own(e)) {
    const clear = document.createElement('button');
    clear.className = 'clear';
    clear.type = 'button';
    clear.title = `Remove ${e.key} (then: ${e.whenUnset})`;
    clear.setAttribute('aria-label', `Remove ${e.key}`);
    const icon = document.createElement('span');
    icon.className = 'codicon codicon-close';
    clear.append(icon);
    clear.addEventListener('click', () => ctx.set(e.key, null));
    control.append(clear);
  }

  const src = sourceLine(e);
  // A warning is a small icon in the warning colour before ordinary muted text: it informs, it does not shout.
  const source = textElement('div', src.text, `source ${src.tone === 'warn' ? 'warn' : 'muted'}`);
  if (src.tone === 'warn') {
    const icon = document.createElement('span');
    icon.className = 'codicon codicon-warning';
    icon.setAttribute('aria-label', 'warning');
    source.prepend(icon);
  }
  if (own(e)) source.title = `${e.file}\nWhile unset: ${e.whenUnset}`;
  wrap.append(label, control, source);
  // A model the harness does not offer is saved (custom providers list none) but said.
  const notOffered =
    spec.kind === 'model' && spec.harness && own(e)
      ? modelNotOffered(e.value ?? '', spec.harness, ctx.models[spec.harness])
      : undefined;
  if (notOffered) wrap.append(warning(notOffered));
  if (ctx.saved.has(e.key) && !ctx.refusals[e.key]) {
    const saved = document.createElement('div');
    saved.className = 'saved';
    saved.setAttribute('role', 'status');
    const check = document.createElement('span');
    check.className = 'codicon codicon-check';
    saved.append(check, document.createTextNode(' Saved'));
    wrap.append(saved);
  }
  const refusal = ctx.refusals[e.key];
  if (refusal) {
    const err = textElement('div', refusal, 'refusal error');
    err.setAttribute('role', 'alert');
    wrap.append(err);
  }
  return wrap;
}

function warning(text: string): HTMLElement {
  const line = textElement('div', text, 'not-offered');
  const icon = document.createElement('span');
  icon.className = 'codicon codicon-warning';
  icon.setAttribute('aria-label', 'warning');
  line.prepend(icon);
  return line;
}

function selectBox(id: string, spec: FieldSpec, ctx: FieldContext): HTMLSelectElement {
  const e = spec.entry;
  const select = document.createElement('select');
  select.id = id;
  select.dataset.key = e.key;
  for (const c of selectChoices(e, spec.kind as SelectKind, ctx)) {
    const o = document.createElement('option');
    o.value = c.value;
    o.textContent = c.text;
    select.append(o);
  }
  select.value = own(e) ? (e.value ?? '') : '';
  select.addEventListener('change', () => ctx.set(e.key, select.value === '' ? null : select.value));
  return select;
}

function modelBox(id: string, spec: FieldSpec, ctx: FieldContext): HTMLInputElement {
  const e = spec.entry;
  const input = document.createElement('input');
  input.id = id;
  input.type = 'text';
  input.dataset.key = e.key;
  input.spellcheck = false;
  input.value = own(e) ? (e.value ?? '') : '';
  input.placeholder = e.value !== null && !own(e) ? `${e.value} (inherited)` : 'type a model';
  if (spec.harness) {
    input.setAttribute('list', datalistId(spec.harness));
    const harness = spec.harness;
    input.addEventListener('focus', () => ctx.wantModels(harness));
  }
  const was = own(e) ? (e.value ?? '') : '';
  const commit = () => {
    // Enter and the change that follows it are one commit — also when a re-render (a
    // config change elsewhere) rebuilt the box between them: the record is per key.
    const prev = lastSent.get(e.key);
    if (input.value === was || (prev && prev.value === input.value && prev.was === was)) return;
    // Refused here, before the daemon writes anything: the text stays for correcting.
    const bad = modelIdProblem(input.value);
    if (bad) return ctx.refuseHere(e.key, `cannot set ${e.key} to '${input.value}': ${bad}; nothing was saved`);
    lastSent.set(e.key, { value: input.value, was });
    // An empty box is sent as '' (the daemon refuses an empty model); Clear removes the key.
    ctx.set(e.key, input.value);
  };
  input.addEventListener('change', commit);
  input.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter') commit();
    if (ev.key === 'Escape') input.value = was;
  });
  return input;
}
