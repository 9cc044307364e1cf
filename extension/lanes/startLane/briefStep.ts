// The brief: written in an editor draft (launched from there), or a file the daemon reads.
import { answered } from './flowRunner';
import type { Step } from './flowRunner';
import type { FlowState } from './flowState';

export function briefStep(s: FlowState): Step {
  const { a, p } = s;
  return {
    shown: () => true,
    async ask(back) {
      const items = [
        {
          label: 'Write the brief in an editor',
          description: '“svc: Launch Lane” in its title bar launches the lane',
          how: 'editor' as const,
        },
        { label: 'Use a brief file…', description: 'Markdown the lane works from', how: 'file' as const },
      ];
      for (;;) {
        const got = answered(
          await p.pick(items, {
            title: s.title(),
            placeholder: 'The lane’s brief',
            active: items.find((i) => i.how === (a.brief ?? 'editor')),
            back,
          }),
        );
        a.brief = got.how;
        if (got.how === 'editor') return;
        // No file chosen: the choice is offered again.
        const f = await p.openFile({ title: 'Brief file for the lane' });
        if (!f) continue;
        a.briefFile = f;
        return;
      }
    },
  };
}
