// What every step of the flow reads and writes: the answers so far, the deck's rows, the
// daemon's facts (each fetched at most once per run of the flow) and the step title.
import type { DeckRow } from '../../commandDeck/deckModel';
import { canLaunch } from '../../commandDeck/deckModel';
import { defaultLauncher } from './flowDefaults';
import type { FlowFacts, LaneAnswers, Prompter } from './flowTypes';
import type { JudgeChoice } from './judgeChoices';

export interface FlowState {
  readonly p: Prompter;
  readonly facts: FlowFacts;
  /** The answers so far; steps write theirs here. */
  readonly a: LaneAnswers;
  /** The launcher pre-selected from the deck (the launcher step is then skipped). */
  readonly preset: DeckRow | undefined;
  /** Conversations that may launch lanes. */
  readonly launchers: readonly DeckRow[];
  /** The builder the critic judges, as the key step chose it. */
  judged: JudgeChoice | undefined;
  launcher(): DeckRow;
  isJudge(): boolean;
  /** A critic judging a builder that has not reported must name the commit (`--at`). */
  needsAt(): boolean;
  once<T>(key: string, fetch: () => Promise<T>): Promise<T>;
  /** `svc: Start Lane (n/m)`, m counting the steps shown for the answers so far. */
  title(): string;
}

export function flowState(
  p: Prompter,
  facts: FlowFacts,
  previous: LaneAnswers,
  shownCount: () => number,
  position: () => number,
): FlowState {
  const a: LaneAnswers = { ...previous };
  const { rows, selected } = facts;
  const launchers = rows.filter((r) => !r.archived && canLaunch(r));
  const preset = defaultLauncher(selected, rows);
  if (preset) a.launcher = preset.id;
  else if (a.launcher !== undefined && !launchers.some((r) => r.id === a.launcher)) a.launcher = undefined;
  const cache = new Map<string, Promise<unknown>>();
  const s: FlowState = {
    p,
    facts,
    a,
    preset,
    launchers,
    judged: undefined,
    launcher: () => rows.find((r) => r.id === a.launcher)!,
    isJudge: () => a.role === 'critic' || a.role === 'verifier',
    needsAt: () => a.role === 'critic' && !!a.judge && !!s.judged && s.judged.key === a.judge && !s.judged.reported,
    once<T>(key: string, fetch: () => Promise<T>): Promise<T> {
      if (!cache.has(key)) cache.set(key, fetch());
      return cache.get(key) as Promise<T>;
    },
    title: () => `svc: Start Lane (${position()}/${shownCount()})`,
  };
  return s;
}
