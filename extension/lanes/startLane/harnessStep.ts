// The harness: the default (the project's role setting, else the launcher's) or one marked installed or not.
import { answered } from './flowRunner';
import type { Step } from './flowRunner';
import type { FlowState } from './flowState';

export function harnessStep(s: FlowState): Step {
  const { a, p } = s;
  return {
    shown: () => s.facts.harnesses.length > 0,
    async ask(back) {
      const items = [
        { label: 'Default', description: `the project's harness for ${a.role}s, else the launcher's`, harness: '' },
        ...s.facts.harnesses,
      ];
      const got = answered(
        await p.pick(items, {
          title: s.title(),
          placeholder: `Harness for the ${a.role}`,
          active: items.find((i) => i.harness === (a.harness ?? '')),
          back,
        }),
      );
      a.harness = got.harness;
    },
  };
}
