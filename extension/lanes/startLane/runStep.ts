// The run the lane joins: one of the project's runs, or a new key typed. An orchestrator's
// lanes inherit its run (docs/spec.md: Launch rule 1), so the step is skipped for them.
import { RUN_KEY, RUN_KEY_RULE } from '../../../shared/keys';
import { answered } from './flowRunner';
import type { Step } from './flowRunner';
import type { FlowState } from './flowState';
import { BACK } from './flowTypes';
import type { PickItem } from './flowTypes';

const NEW_RUN = 'New run…';

export function runStep(s: FlowState): Step {
  const { a, p } = s;
  return {
    shown: () => s.launcher()?.role !== 'orchestrator',
    skipped: () => {
      a.run = s.launcher().run;
    },
    async ask(back) {
      const { rows, selected } = s.facts;
      const launched = rows.filter((r) => r.parentId === a.launcher && r.run).sort((x, y) => y.id - x.id);
      const want = a.run ?? selected?.run ?? launched[0]?.run;
      const runs = await s.once(`runs:${a.launcher}`, () => s.facts.runs(a.launcher!));
      const typed = (value: string, back: boolean) =>
        p.input({
          title: s.title(),
          prompt: 'Run key (names this pass of the loop)',
          value,
          placeholder: 'e.g. r1',
          validate: (v) => (RUN_KEY.test(v) ? undefined : RUN_KEY_RULE),
          back,
        });
      // A project without runs yet: the first one is named.
      if (!runs.length) {
        a.run = answered(await typed(want ?? '', back));
        return;
      }
      // The project's runs to join (each with its lanes), or a new one typed; Back from typing returns to the list.
      const items: (PickItem & { run?: string })[] = runs.map((r) => ({
        label: r.run,
        description: `${r.lanes} lane${r.lanes === 1 ? '' : 's'}${r.counts ? ` · ${r.counts}` : ''}`,
        run: r.run,
      }));
      items.push({ label: NEW_RUN, description: 'type a run key' });
      const known = (run: string | undefined) => runs.some((r) => r.run === run);
      for (;;) {
        const got = answered(
          await p.pick(items, {
            title: s.title(),
            placeholder: 'Run key (names this pass of the loop): join a run of the project, or start a new one',
            active: items.find((i) => i.run === want) ?? (want === undefined ? items[0] : items[items.length - 1]),
            back,
          }),
        );
        if (got.run) {
          a.run = got.run;
          return;
        }
        const v = await typed(want !== undefined && !known(want) ? want : '', true);
        if (v === BACK) continue;
        a.run = answered(v);
        return;
      }
    },
  };
}
