// The guided "start lane" flow, a multi-step quick input with Back: launcher, role, run,
// key (a critic: the builder it judges, and the commit when that builder has not
// reported), harness, model, then the brief (written in an editor, or a file). Each step
// is prefilled from the previous answers (kept on Back, on a refused launch and across
// reopening) or else from the selected Command Deck row. Each step is a file of its own in
// startLane/, saying when it is shown; startLane/flowRunner.ts walks them.
//
// It fails early instead of late: the model is resolved for the chosen role before the
// brief (the project's setting for that role; if none, the models the harness offers, a
// typed one, or "Open Roles"), and a critic is offered only builders whose newest
// iteration reported done (the commit is known) or is asked for the commit.
//
// No vscode import: the prompts come through a Prompter and the daemon's facts through
// FlowFacts, so tests drive the flow with scripted answers. The daemon checks every
// launch rule; this only pre-fills and validates the keys' patterns.
import type { LaunchParams } from '../../shared/protocol/lanes';
import { briefStep } from './startLane/briefStep';
import { commitStep } from './startLane/commitStep';
import { runSteps } from './startLane/flowRunner';
import type { Step } from './startLane/flowRunner';
import { flowState } from './startLane/flowState';
import type { FlowState } from './startLane/flowState';
import type { FlowFacts, FlowResult, LaneAnswers, Prompter } from './startLane/flowTypes';
import { harnessStep } from './startLane/harnessStep';
import { keyStep } from './startLane/keyStep';
import { launcherStep } from './startLane/launcherStep';
import { modelStep } from './startLane/modelStep';
import { roleStep } from './startLane/roleStep';
import { runStep } from './startLane/runStep';

/** The flow's steps, in the order they are shown; each may be skipped for the answers so far. */
const STEPS: readonly ((s: FlowState) => Step)[] = [
  launcherStep,
  roleStep,
  runStep,
  keyStep,
  commitStep,
  harnessStep,
  modelStep,
  briefStep,
];

export async function startLaneFlow(p: Prompter, facts: FlowFacts, previous: LaneAnswers = {}): Promise<FlowResult> {
  let position = 0;
  const s = flowState(
    p,
    facts,
    previous,
    () => steps.filter((step) => step.shown()).length,
    () => position,
  );
  const steps = STEPS.map((make) => make(s));
  const exit = await runSteps(steps, s.a, (n) => (position = n));
  return exit ?? launchOf(s);
}

/** The launch the answers make: now (a brief file) or from the brief's editor draft. */
function launchOf(s: FlowState): FlowResult {
  const { a } = s;
  const l = s.launcher();
  const at = a.at && s.needsAt() ? a.at : undefined;
  const params: LaunchParams = {
    parent: String(l.id),
    role: a.role!,
    ...(l.role === 'orchestrator' ? {} : { run: a.run }),
    ...(a.judge ? { for: a.judge } : { key: a.key }),
    ...(at ? { at } : {}),
    model: a.model!,
    ...(a.harness ? { harness: a.harness } : {}),
    noWait: true,
  };
  if (a.brief === 'file') return { kind: 'launch', params: { ...params, brief: a.briefFile! }, answers: a };
  const what = `${a.role} lane ${a.run}/${a.judge ?? a.key}${a.judge ? ` (judging builder ${a.judge}${at ? ` at ${at.slice(0, 12)}` : ''})` : ''}, launched by #${l.id} on ${a.model}`;
  return { kind: 'draft', params, answers: a, what };
}
