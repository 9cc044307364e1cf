// Who launches: asked only when the selected deck row does not decide it.
import { answered } from './flowRunner';
import type { Step } from './flowRunner';
import type { FlowState } from './flowState';

export function launcherStep(s: FlowState): Step {
  const { a, p } = s;
  return {
    shown: () => !s.preset,
    async ask(back) {
      if (!s.launchers.length)
        return {
          kind: 'nothing',
          message: 'no conversation can launch lanes: start a root conversation first ("svc: New Conversation")',
          answers: a,
        };
      const items = s.launchers.map((r) => ({
        label: r.title || r.name,
        description: `#${r.id} · ${r.role ?? r.kind} · ${r.activity}`,
        row: r,
      }));
      const got = answered(
        await p.pick(items, {
          title: s.title(),
          placeholder: 'Which conversation launches the lane?',
          active: items.find((i) => i.row.id === a.launcher),
          back,
        }),
      );
      a.launcher = got.row.id;
    },
  };
}
