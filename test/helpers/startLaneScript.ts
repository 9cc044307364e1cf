// Drives extension/lanes/startLaneFlow.ts with scripted answers and fixed daemon facts,
// recording what each prompt showed (title, items, prefilled value, active item, Back).
import type { DeckRow } from '../../extension/commandDeck/deckModel';
import type { HarnessChoice } from '../../extension/doctor/harnessChoices';
import { BACK } from '../../extension/lanes/startLane/flowTypes';
import type { FlowFacts, PickItem, Prompter, RunChoice } from '../../extension/lanes/startLane/flowTypes';
import type { LaneRecord } from '../../shared/protocol/lanes';

/** `<back>` presses Back; undefined dismisses. */
export function scripted(answers: (string | undefined)[]): Prompter & { seen: string[] } {
  const seen: string[] = [];
  const next = () => (answers.length ? answers.shift() : undefined);
  return {
    seen,
    async pick<T extends PickItem>(items: T[], o: { title: string; placeholder: string; active?: T; back: boolean }) {
      seen.push(
        `${o.title} pick [${items.map((i) => i.label).join('|')}] active=${o.active?.label ?? '-'}${o.back ? ' back' : ''}`,
      );
      const want = next();
      if (want === '<back>') return BACK;
      if (want === undefined) return undefined;
      const found = items.find((i) => i.label === want);
      if (!found) throw new Error(`no item ${want} in ${items.map((i) => i.label).join('|')}`);
      return found;
    },
    async input(o) {
      seen.push(`${o.title} input "${o.prompt}" value=${o.value ?? ''}${o.back ? ' back' : ''}`);
      const v = next();
      if (v === '<back>') return BACK;
      if (v !== undefined && o.validate?.(v)) throw new Error(`invalid ${v}: ${o.validate(v)}`);
      return v;
    },
    async openFile(o) {
      seen.push(`open ${o.title}`);
      return next();
    },
  };
}

export interface FactsOptions {
  rows: DeckRow[];
  selected?: DeckRow;
  harnesses?: HarnessChoice[];
  /** Role models set in the project (role → model). */
  models?: Record<string, string>;
  /** Models the harness probe offers. */
  offered?: string[];
  lanes?: Partial<LaneRecord>[];
  /** The runs of the launcher's project (none: the run step asks for a name). */
  runs?: RunChoice[];
}

export function facts(o: FactsOptions): FlowFacts & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    rows: o.rows,
    selected: o.selected,
    harnesses: o.harnesses ?? [],
    async launcher(id) {
      asked.push(`launcher ${id}`);
      return { project: 'web', harness: 'script' };
    },
    async roleSettings(project, role) {
      asked.push(`role ${project} ${role}`);
      return { model: o.models?.[role] ?? null, harness: null };
    },
    async models(harness) {
      asked.push(`models ${harness}`);
      return o.offered ? { models: o.offered } : { models: [], note: `harness '${harness}': offers no model choice` };
    },
    async lanes(run) {
      asked.push(`lanes ${run}`);
      return (o.lanes ?? []) as LaneRecord[];
    },
    async runs(launcher) {
      asked.push(`runs ${launcher}`);
      return o.runs ?? [];
    },
  };
}
