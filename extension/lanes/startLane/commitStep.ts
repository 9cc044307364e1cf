// The commit a critic judges, when its builder has not reported (`--at`).
import { answered } from './flowRunner';
import type { Step } from './flowRunner';
import type { FlowState } from './flowState';

export function commitStep(s: FlowState): Step {
  const { a, p } = s;
  return {
    shown: () => s.needsAt(),
    skipped: () => {
      if (!(a.role === 'critic' && s.judged && !s.judged.reported)) delete a.at;
    },
    async ask(back) {
      const judged = s.judged!;
      const v = answered(
        await p.input({
          title: s.title(),
          prompt: `Commit of builder ${judged.key} i${judged.iteration} to judge (it has not reported done, so name one)`,
          value: a.at ?? judged.head ?? '',
          placeholder: 'a commit SHA or ref',
          validate: (c) => (/^[^\s~^:?*[\\]+$/.test(c.trim()) ? undefined : 'a commit SHA or ref, without spaces'),
          back,
        }),
      );
      a.at = v.trim();
    },
  };
}
