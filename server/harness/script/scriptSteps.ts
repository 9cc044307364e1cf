// The `script` harness's language (docs/architecture.md §5): a prompt's one fenced block with
// info string `svc-script` holds a YAML list of steps, run in order, then the turn ends.
// Pure parsing here, so it is unit-tested without processes.
import YAML from 'yaml';
import { textOf } from '../../../shared/format/text';

export type Step =
  | { say: string; newline?: false }
  | { run: string; check: boolean; show?: Exclude<RunShow, 'content'> }
  | { ask: string }
  | { sleep: number }
  | { write: { path: string; content: string } }
  | { plan: PlanEntry[] }
  | { cost: number }
  | { exit: number };

/**
 * How a run step reports itself, to exercise what real agents send: `content` (output as
 * text content at the end), `terminal` (codex: `terminal` content, the output as `_meta`
 * deltas, the exit code in `_meta.terminal_exit`), `late-title` (Claude: first titled
 * "Terminal", the command in a later update's title and rawInput).
 */
export const RUN_SHOWS = ['content', 'terminal', 'late-title'] as const;
export type RunShow = (typeof RUN_SHOWS)[number];

/** Keys that modify a step rather than name it, and the step each belongs to. */
const MODIFIERS: Record<string, string> = { check: 'run', show: 'run', newline: 'say' };

export const PLAN_STATUSES = ['pending', 'in_progress', 'completed'] as const;
export interface PlanEntry {
  content: string;
  status: (typeof PLAN_STATUSES)[number];
}

const FENCE = /^(`{3,}|~{3,})[ \t]*svc-script[ \t]*\r?\n([\s\S]*?)^\1[ \t]*$/m;

/** The body of the first `svc-script` block, or undefined when the text has none. */
export function findScriptBlock(text: string): string | undefined {
  const m = FENCE.exec(text);
  return m ? m[2] : undefined;
}

export class ScriptError extends Error {}

/** Parses a YAML list of steps; throws ScriptError with the step number on a bad step. */
export function parseSteps(yamlText: string): Step[] {
  let doc: unknown;
  try {
    doc = YAML.parse(yamlText);
  } catch (e) {
    throw new ScriptError(`the svc-script block is not YAML: ${(e as Error).message.split('\n')[0]}`);
  }
  if (doc === null || doc === undefined) return [];
  if (!Array.isArray(doc)) throw new ScriptError('the svc-script block must be a YAML list of steps');
  return doc.map((raw, i) => parseStep(raw, i + 1));
}

function parseStep(raw: unknown, n: number): Step {
  const bad = (why: string) => new ScriptError(`step ${n}: ${why}`);
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw bad('a step is a mapping like `say: hello`');
  const o = raw as Record<string, unknown>;
  const kinds = Object.keys(o).filter((k) => !(k in MODIFIERS));
  if (kinds.length !== 1)
    throw bad(`give exactly one of say, run, ask, sleep, write, plan, cost, exit (got ${kinds.join(', ') || 'none'})`);
  const kind = kinds[0];
  const v = o[kind];
  for (const m of Object.keys(o))
    if (m in MODIFIERS && MODIFIERS[m] !== kind) throw bad(`\`${m}\` belongs to a ${MODIFIERS[m]} step`);
  switch (kind) {
    case 'say':
      if ('newline' in o && typeof o.newline !== 'boolean') throw bad('newline is true or false');
      return o.newline === false ? { say: textOf(v), newline: false } : { say: textOf(v) };
    case 'run':
      if (typeof v !== 'string' || v.trim() === '') throw bad('run needs a shell command');
      if ('show' in o && !(RUN_SHOWS as readonly unknown[]).includes(o.show))
        throw bad(`show is one of ${RUN_SHOWS.join(', ')}`);
      const show = (o.show as RunShow | undefined) ?? 'content';
      return show === 'content' ? { run: v, check: o.check === true } : { run: v, check: o.check === true, show };
    case 'ask':
      return { ask: textOf(v) };
    case 'sleep':
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw bad('sleep needs milliseconds (a number ≥ 0)');
      return { sleep: v };
    case 'write': {
      const w = v as { path?: unknown; content?: unknown } | null;
      if (!w || typeof w.path !== 'string' || w.path === '') throw bad('write needs {path, content}');
      return {
        write: { path: w.path, content: w.content === undefined || w.content === null ? '' : textOf(w.content) },
      };
    }
    case 'plan': {
      // A list of entries: text (pending) or {content, status}; the agent's plan replaces the last.
      if (!Array.isArray(v) || v.length === 0) throw bad('plan needs a list of entries');
      return {
        plan: v.map((e: unknown) => {
          if (typeof e === 'string') return { content: e, status: 'pending' as const };
          const o2 = e as { content?: unknown; status?: unknown } | null;
          if (!o2 || typeof o2.content !== 'string') throw bad('a plan entry is text or {content, status}');
          const status = o2.status ?? 'pending';
          if (!(PLAN_STATUSES as readonly unknown[]).includes(status))
            throw bad(`a plan entry's status is one of ${PLAN_STATUSES.join(', ')}`);
          return { content: o2.content, status: status as PlanEntry['status'] };
        }),
      };
    }
    case 'cost':
      // Spending, as a real agent reports it: the session's new total goes out at once, mid-turn.
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0)
        throw bad('cost needs an amount of US dollars (a number ≥ 0)');
      return { cost: v };
    case 'exit':
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 255)
        throw bad('exit needs a code from 0 to 255');
      return { exit: v };
    default:
      throw bad(`unknown step '${kind}' (steps: say, run, ask, sleep, write, plan, cost, exit)`);
  }
}

/** The steps of a prompt: its block, else the fallback script text (a `scripts:` file), else undefined. */
export function stepsFor(prompt: string, fallback: string | undefined): Step[] | undefined {
  const block = findScriptBlock(prompt);
  if (block !== undefined) return parseSteps(block);
  if (fallback === undefined) return undefined;
  return parseSteps(findScriptBlock(fallback) ?? fallback);
}
