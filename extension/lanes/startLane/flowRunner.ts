// The loop that walks the flow's steps: skips the ones not shown for the answers so far,
// offers Back from the second shown step on, and ends on an exit, a dismissal or the last
// step. Back and dismissal are flow actions a prompt's answer throws (`answered`), handled
// here only, as in VS Code's multi-step input sample (its InputFlowAction).
import { BACK } from './flowTypes';
import type { Answer, FlowResult, LaneAnswers } from './flowTypes';

/** Leaves the flow before its last step with a result of its own. */
export type Exit = Exclude<FlowResult, { kind: 'launch' | 'draft' | 'cancelled' }>;

export interface Step {
  /** Whether it is shown for the answers so far: the one place the skip rules live (navigation and the "n/m" count both read it). */
  shown(): boolean;
  /** What a skipped step implies for the answers. */
  skipped?(): void;
  /** Asks; `back`: offer Back. Returns an exit to end the flow there, else moves on. */
  ask(back: boolean): Promise<Exit | void>;
}

/** What a prompt's answer asks of the flow besides a value: Back to the step before, or leaving it. */
class FlowAction extends Error {
  static readonly back = new FlowAction('back');
  static readonly cancel = new FlowAction('cancel');
  private constructor(kind: string) {
    super(`start lane flow: ${kind}`);
  }
}

/** The answer, or the flow action a Back press or a dismissal means. */
export function answered<T>(got: Answer<T>): T {
  if (got === BACK) throw FlowAction.back;
  if (got === undefined) throw FlowAction.cancel;
  return got;
}

/** Runs `steps` in order; `onPosition` hears the shown step's 1-based position before it asks. */
export async function runSteps(
  steps: readonly Step[],
  answers: LaneAnswers,
  onPosition: (position: number) => void,
): Promise<Exit | { kind: 'cancelled'; answers: LaneAnswers } | undefined> {
  // The indexes of the steps answered so far, for Back.
  const history: number[] = [];
  for (let i = 0; i < steps.length;) {
    const step = steps[i];
    if (!step.shown()) {
      step.skipped?.();
      i++;
      continue;
    }
    onPosition(history.length + 1);
    try {
      const exit = await step.ask(history.length > 0);
      if (exit) return exit;
      history.push(i);
      i++;
    } catch (e) {
      if (e === FlowAction.cancel) return { kind: 'cancelled', answers };
      if (e !== FlowAction.back) throw e;
      const before = history.pop();
      if (before !== undefined) i = before;
    }
  }
  return undefined;
}
