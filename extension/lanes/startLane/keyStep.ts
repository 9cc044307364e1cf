// The lane's key, or for a critic (or a verifier) the builder it judges.
import { LANE_KEY, LANE_KEY_RULE } from '../../../shared/keys';
import { answered } from './flowRunner';
import type { Step } from './flowRunner';
import type { FlowState } from './flowState';
import { BACK } from './flowTypes';
import type { PickItem } from './flowTypes';
import { judgeChoices } from './judgeChoices';
import type { JudgeChoice } from './judgeChoices';

export function keyStep(s: FlowState): Step {
  const { a, p } = s;
  return {
    shown: () => true,
    async ask(back) {
      const { selected } = s.facts;
      if (!s.isJudge()) {
        a.key = answered(
          await p.input({
            title: s.title(),
            prompt: `Lane key of the ${a.role} (short name inside run ${a.run})`,
            value: a.key ?? selected?.key ?? '',
            placeholder: 'e.g. api',
            validate: (v) => (LANE_KEY.test(v) ? undefined : LANE_KEY_RULE),
            back,
          }),
        );
        delete a.judge;
        return;
      }
      const choices = judgeChoices(await s.once(`lanes:${a.run}`, () => s.facts.lanes(a.run!)));
      const items: (PickItem & { choice?: JudgeChoice })[] = choices.map((c) => ({
        label: c.label,
        description: c.description,
        choice: c,
      }));
      if (a.role === 'verifier')
        items.push({ label: 'A key of its own…', description: 'checks at the base ref, judging no builder' });
      if (!items.length)
        return {
          kind: 'nothing',
          message: `run ${a.run} has no builder for a critic to judge: start a builder first (a critic judges a builder's commit)`,
          answers: a,
        };
      for (;;) {
        const want = a.judge ?? (a.role === 'verifier' && a.key ? undefined : selected?.key);
        const got = answered(
          await p.pick(items, {
            title: s.title(),
            placeholder:
              a.role === 'critic'
                ? `Which builder of run ${a.run} does the critic judge?`
                : `Which builder of run ${a.run} does the verifier check?`,
            active:
              items.find((i) => i.choice && i.choice.key === want) ??
              (a.role === 'verifier' && a.key ? items.at(-1) : undefined),
            back,
          }),
        );
        if (got.choice) {
          if (a.judge !== got.choice.key) delete a.at;
          a.judge = got.choice.key;
          delete a.key;
          s.judged = got.choice;
          return;
        }
        // A verifier's own key; Back returns to the builders.
        const v = await p.input({
          title: s.title(),
          prompt: 'Lane key of the verifier',
          value: a.key ?? '',
          validate: (k) => (LANE_KEY.test(k) ? undefined : LANE_KEY_RULE),
          back: true,
        });
        if (v === BACK) continue;
        a.key = answered(v);
        delete a.judge;
        s.judged = undefined;
        return;
      }
    },
  };
}
