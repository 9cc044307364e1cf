// The start-lane flow's contract with its callers: the prompts it asks through (a Prompter,
// so tests script the answers), the daemon facts it reads (FlowFacts), the answers it keeps
// and what it ends with.
import type { ROLES } from '../../../shared/config';
import type { LaneRecord, LaunchParams } from '../../../shared/protocol/lanes';
import type { DeckRow } from '../../commandDeck/deckModel';
import type { HarnessChoice } from '../../doctor/harnessChoices';

export interface PickItem {
  label: string;
  description?: string;
  detail?: string;
}

/** A Back button press (the step before is shown again, with its answer). */
export const BACK = Symbol('back');
export type Answer<T> = T | undefined | typeof BACK;

export interface Prompter {
  /** `back`: show a Back button. undefined: the person dismissed it. */
  pick<T extends PickItem>(
    items: T[],
    o: { title: string; placeholder: string; active?: T; back: boolean },
  ): Promise<Answer<T>>;
  input(o: {
    title: string;
    prompt: string;
    value?: string;
    placeholder?: string;
    validate?: (v: string) => string | undefined;
    back: boolean;
  }): Promise<Answer<string>>;
  /** An absolute path of a file the person chose. */
  openFile(o: { title: string }): Promise<string | undefined>;
}

export type Role = (typeof ROLES)[number];

/** Every answer of the flow; kept by the command between runs. */
export interface LaneAnswers {
  launcher?: number;
  role?: Role;
  run?: string;
  key?: string;
  /** Critic (or verifier): the builder key it judges. */
  judge?: string;
  /** The commit a critic judges when its builder has not reported (`--at`). */
  at?: string;
  /** '' = the default harness. */
  harness?: string;
  model?: string;
  brief?: 'editor' | 'file';
  briefFile?: string;
  /** The text written in the brief's editor draft. */
  briefText?: string;
}

/** What the flow reads from the daemon, lazily (each at most once per run of the flow). */
export interface FlowFacts {
  rows: readonly DeckRow[];
  selected?: DeckRow;
  harnesses: readonly HarnessChoice[];
  /** The launching conversation's project and harness. */
  launcher(id: number): Promise<{ project: string | null; harness: string }>;
  /** The project's settings in effect for a role: its model and harness, null when unset. */
  roleSettings(project: string, role: Role): Promise<{ model: string | null; harness: string | null }>;
  /** Models the harness offers (its probe), and why none when it could not say. */
  models(harness: string): Promise<{ models: string[]; note?: string }>;
  /** The lanes of a run (with their newest report). */
  lanes(run: string): Promise<readonly LaneRecord[]>;
  /** The runs of the launcher's project, newest activity first, each with its lane counts. */
  runs(launcher: number): Promise<readonly RunChoice[]>;
}

/** An existing run the run step offers. */
export interface RunChoice {
  run: string;
  lanes: number;
  /** `1 builder · 1 critic · 2 idle`: the run's Awareness counts. */
  counts: string;
}

export type FlowResult =
  /** Launch now (the brief is a file). */
  | { kind: 'launch'; params: LaunchParams; answers: LaneAnswers }
  /** Write the brief in an editor; launch with its text. */
  | { kind: 'draft'; params: LaunchParams; answers: LaneAnswers; what: string }
  /** The person chose to set the role's model in the Roles panel first. */
  | { kind: 'openRoles'; answers: LaneAnswers; project: string | null; role: Role }
  | { kind: 'nothing'; message: string; answers: LaneAnswers }
  | { kind: 'cancelled'; answers: LaneAnswers };
