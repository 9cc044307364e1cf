// The guided "start lane" flow, a multi-step quick input with Back: launcher, role, run,
// key (a critic: the builder it judges, and the commit when that builder has not
// reported), harness, model, then the brief (written in an editor, or a file). Each step
// is prefilled from the previous answers (kept on Back, on a refused launch and across
// reopening) or else from the selected Command Deck row. The steps are named, each saying
// when it is shown; Back and dismissal are flow actions a prompt's answer throws and the
// one loop at the end handles, as in VS Code's multi-step input sample.
//
// It fails early instead of late: the model is resolved for the chosen role before the
// brief (the project's setting for that role; if none, the models the harness offers, a
// typed one, or "Open Roles"), and a critic is offered only builders whose newest
// iteration reported done (the commit is known) or is asked for the commit.
//
// No vscode import: the prompts come through a Prompter and the daemon's facts through
// FlowFacts, so tests drive the flow with scripted answers. The daemon checks every
// launch rule; this only pre-fills and validates the keys' patterns.
import { ROLES } from '../../shared/config';
import { LANE_KEY, LANE_KEY_RULE, RUN_KEY, RUN_KEY_RULE } from '../../shared/keys';
import type { LaneRecord, LaunchParams } from '../../shared/protocol/lanes';
import { canLaunch } from '../commandDeck/deckModel';
import type { DeckRow } from '../commandDeck/deckModel';
import type { HarnessChoice } from '../doctor/harnessChoices';

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

type Role = (typeof ROLES)[number];

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

/** Roles a launcher may start (docs/spec.md: Launch rules): a root anything, an orchestrator lane builders, verifiers and plays. */
export function rolesFor(launcher: DeckRow): Role[] {
  return launcher.role === 'orchestrator' ? ['builder', 'verifier', 'play'] : [...ROLES];
}

export function defaultLauncher(selected: DeckRow | undefined, rows: readonly DeckRow[]): DeckRow | undefined {
  if (!selected) return undefined;
  if (canLaunch(selected)) return selected;
  const parent = rows.find((r) => r.id === selected.parentId);
  return parent && canLaunch(parent) ? parent : undefined;
}

export function defaultRole(selected: DeckRow | undefined): Role {
  if (selected?.role === 'builder') return 'critic';
  return 'builder';
}

export interface JudgeChoice extends PickItem {
  key: string;
  iteration: number;
  /** The head of the newest done report: the commit judged without --at. */
  reported?: string;
  /** The builder's current head, offered when it has not reported. */
  head?: string;
}

/** The builders of a run a critic may judge: one per key, its newest iteration, reported ones first. */
export function judgeChoices(lanes: readonly LaneRecord[]): JudgeChoice[] {
  const newest = new Map<string, LaneRecord[]>();
  for (const l of lanes) {
    if (l.role !== 'builder') continue;
    const top = newest.get(l.key)?.[0];
    if (!top || l.iteration > top.iteration) newest.set(l.key, [l]);
    else if (l.iteration === top.iteration) newest.get(l.key)!.push(l);
  }
  const out: JudgeChoice[] = [];
  for (const [key, same] of newest) {
    const iteration = same[0].iteration;
    const done = same
      .map((l) => l.report)
      .filter((r) => r?.status === 'done' && r.headSha)
      .sort((a, b) => b!.at - a!.at)[0];
    const head = same.map((l) => l.git?.headSha).find((h) => h);
    out.push(
      done
        ? {
            label: key,
            description: `builder ${key} i${iteration} reported done at ${done.headSha!.slice(0, 7)}`,
            key,
            iteration,
            reported: done.headSha!,
          }
        : {
            label: key,
            description: `builder ${key} i${iteration} has not reported: judge it at a commit you name`,
            key,
            iteration,
            ...(head ? { head } : {}),
          },
    );
  }
  return out.sort((a, b) => Number(!!b.reported) - Number(!!a.reported) || a.key.localeCompare(b.key));
}

const ANOTHER_MODEL = 'Another model…';
const NEW_RUN = 'New run…';
const OPEN_ROLES = 'Open Roles…';

/** The flow's steps, in the order they are shown; each may be skipped for the answers so far. */
const STEPS = ['launcher', 'role', 'run', 'key', 'commit', 'harness', 'model', 'brief'] as const;
type StepName = (typeof STEPS)[number];

/** Leaves the flow before its last step with a result of its own. */
type Exit = Exclude<FlowResult, { kind: 'launch' | 'draft' | 'cancelled' }>;

interface Step {
  /** Whether it is shown for the answers so far: the one place the skip rules live (navigation and the "n/m" count both read it). */
  shown(): boolean;
  /** What a skipped step implies for the answers. */
  skipped?(): void;
  /** Asks; `back`: offer Back. Returns an exit to end the flow there, else moves on. */
  ask(back: boolean): Promise<Exit | void>;
}

/** What a prompt's answer asks of the flow besides a value: Back to the step before, or leaving it (the sample's InputFlowAction). */
class FlowAction extends Error {
  static readonly back = new FlowAction('back');
  static readonly cancel = new FlowAction('cancel');
  private constructor(kind: string) {
    super(`start lane flow: ${kind}`);
  }
}

/** The answer, or the flow action a Back press or a dismissal means. */
function answered<T>(got: Answer<T>): T {
  if (got === BACK) throw FlowAction.back;
  if (got === undefined) throw FlowAction.cancel;
  return got;
}

export async function startLaneFlow(p: Prompter, facts: FlowFacts, previous: LaneAnswers = {}): Promise<FlowResult> {
  const a: LaneAnswers = { ...previous };
  const { rows, selected } = facts;
  const launchers = rows.filter((r) => !r.archived && canLaunch(r));
  const preset = defaultLauncher(selected, rows);
  if (preset) a.launcher = preset.id;
  else if (a.launcher !== undefined && !launchers.some((r) => r.id === a.launcher)) a.launcher = undefined;
  const launcher = () => rows.find((r) => r.id === a.launcher)!;
  const isJudge = () => a.role === 'critic' || a.role === 'verifier';
  const needsAt = () => a.role === 'critic' && !!a.judge && !!judged && judged.key === a.judge && !judged.reported;
  let judged: JudgeChoice | undefined;
  const cache = new Map<string, Promise<unknown>>();
  const once = <T>(k: string, f: () => Promise<T>): Promise<T> => {
    if (!cache.has(k)) cache.set(k, f());
    return cache.get(k) as Promise<T>;
  };
  let position = 0;
  const title = () => `svc: Start Lane (${position}/${STEPS.filter((name) => steps[name].shown()).length})`;

  const steps: Record<StepName, Step> = {
    // Who launches.
    launcher: {
      shown: () => !preset,
      async ask(back) {
        if (!launchers.length)
          return {
            kind: 'nothing',
            message: 'no conversation can launch lanes: start a root conversation first ("svc: New Conversation")',
            answers: a,
          };
        const items = launchers.map((r) => ({
          label: r.title || r.name,
          description: `#${r.id} · ${r.role ?? r.kind} · ${r.activity}`,
          row: r,
        }));
        const got = answered(
          await p.pick(items, {
            title: title(),
            placeholder: 'Which conversation launches the lane?',
            active: items.find((i) => i.row.id === a.launcher),
            back,
          }),
        );
        a.launcher = got.row.id;
      },
    },
    role: {
      shown: () => true,
      async ask(back) {
        const roles = rolesFor(launcher());
        const items = roles.map((r) => ({ label: r, description: ROLE_HELP[r], role: r }));
        const want = a.role && roles.includes(a.role) ? a.role : defaultRole(selected);
        const got = answered(
          await p.pick(items, {
            title: title(),
            placeholder: `Role of the new lane (launched by #${a.launcher})`,
            active: items.find((i) => i.role === want),
            back,
          }),
        );
        a.role = got.role;
      },
    },
    // An orchestrator's lanes inherit its run (docs/spec.md: Launch rule 1).
    run: {
      shown: () => launcher()?.role !== 'orchestrator',
      skipped: () => {
        a.run = launcher().run;
      },
      async ask(back) {
        const launched = rows.filter((r) => r.parentId === a.launcher && r.run).sort((x, y) => y.id - x.id);
        const want = a.run ?? selected?.run ?? launched[0]?.run;
        const runs = await once(`runs:${a.launcher}`, () => facts.runs(a.launcher!));
        const typed = (value: string, back: boolean) =>
          p.input({
            title: title(),
            prompt: 'Run key (names this pass of the loop)',
            value,
            placeholder: 'e.g. r1',
            validate: (s) => (RUN_KEY.test(s) ? undefined : RUN_KEY_RULE),
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
              title: title(),
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
    },
    // The lane's key, or for a critic (or a verifier) the builder it judges.
    key: {
      shown: () => true,
      async ask(back) {
        if (!isJudge()) {
          a.key = answered(
            await p.input({
              title: title(),
              prompt: `Lane key of the ${a.role} (short name inside run ${a.run})`,
              value: a.key ?? selected?.key ?? '',
              placeholder: 'e.g. api',
              validate: (s) => (LANE_KEY.test(s) ? undefined : LANE_KEY_RULE),
              back,
            }),
          );
          delete a.judge;
          return;
        }
        const choices = judgeChoices(await once(`lanes:${a.run}`, () => facts.lanes(a.run!)));
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
              title: title(),
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
            judged = got.choice;
            return;
          }
          // A verifier's own key; Back returns to the builders.
          const v = await p.input({
            title: title(),
            prompt: 'Lane key of the verifier',
            value: a.key ?? '',
            validate: (s) => (LANE_KEY.test(s) ? undefined : LANE_KEY_RULE),
            back: true,
          });
          if (v === BACK) continue;
          a.key = answered(v);
          delete a.judge;
          judged = undefined;
          return;
        }
      },
    },
    // The commit a critic judges, when its builder has not reported (`--at`).
    commit: {
      shown: needsAt,
      skipped: () => {
        if (!(a.role === 'critic' && judged && !judged.reported)) delete a.at;
      },
      async ask(back) {
        const v = answered(
          await p.input({
            title: title(),
            prompt: `Commit of builder ${judged!.key} i${judged!.iteration} to judge (it has not reported done, so name one)`,
            value: a.at ?? judged!.head ?? '',
            placeholder: 'a commit SHA or ref',
            validate: (s) => (/^[^\s~^:?*[\\]+$/.test(s.trim()) ? undefined : 'a commit SHA or ref, without spaces'),
            back,
          }),
        );
        a.at = v.trim();
      },
    },
    // The default (the project's role setting, else the launcher's) or one marked installed or not.
    harness: {
      shown: () => facts.harnesses.length > 0,
      async ask(back) {
        const items = [
          { label: 'Default', description: `the project's harness for ${a.role}s, else the launcher's`, harness: '' },
          ...facts.harnesses,
        ];
        const got = answered(
          await p.pick(items, {
            title: title(),
            placeholder: `Harness for the ${a.role}`,
            active: items.find((i) => i.harness === (a.harness ?? '')),
            back,
          }),
        );
        a.harness = got.harness;
      },
    },
    // Resolved for the role now (docs/spec.md: Launch rule 6: no default model).
    model: {
      shown: () => true,
      async ask(back) {
        const who = await once(`launcher:${a.launcher}`, () => facts.launcher(a.launcher!));
        const set = who.project
          ? await once(`role:${who.project}:${a.role}`, () => facts.roleSettings(who.project!, a.role!))
          : { model: null, harness: null };
        type ModelItem = PickItem & { model?: string; other?: boolean; roles?: boolean };
        let items: ModelItem[];
        let placeholder: string;
        if (set.model) {
          items = [
            {
              label: set.model,
              description: `the model set for ${a.role}s of project ${who.project}`,
              model: set.model,
            },
          ];
          placeholder = `Model for the ${a.role}`;
        } else {
          const harness = a.harness || set.harness || who.harness;
          const offered = await once(`models:${harness}`, () => facts.models(harness));
          items = offered.models.map((m) => ({ label: m, description: `offered by ${harness}`, model: m }));
          items.push({
            label: OPEN_ROLES,
            description: `set a model for ${a.role}s${who.project ? ` of project ${who.project}` : ''}; your answers here are kept`,
            roles: true,
          });
          placeholder = `No model is set for ${a.role}s${who.project ? ` of project ${who.project}` : ''}: pick one ${harness} offers, type one, or set one in Roles${offered.note ? ` (${offered.note})` : ''}`;
        }
        // Also offered: the model of the newest lane of this role in the run, and the last answer (chosen again by default).
        const sameRole = rows
          .filter((r) => r.role === a.role && r.run === a.run && r.model)
          .sort((x, y) => y.id - x.id)[0];
        if (sameRole?.model && !items.some((i) => i.model === sameRole.model))
          items.splice(set.model ? 1 : 0, 0, {
            label: sameRole.model,
            description: `the model of #${sameRole.id}, a ${a.role} of run ${a.run}`,
            model: sameRole.model,
          });
        if (a.model && !items.some((i) => i.model === a.model))
          items.unshift({ label: a.model, description: 'your last answer', model: a.model });
        const last = a.model ?? set.model ?? sameRole?.model;
        items.splice(items.findIndex((i) => i.roles) >= 0 ? items.findIndex((i) => i.roles) : items.length, 0, {
          label: ANOTHER_MODEL,
          description: 'type a model id',
          other: true,
        });
        for (;;) {
          const got = answered(
            await p.pick(items, {
              title: title(),
              placeholder,
              active: items.find((i) => i.model === last) ?? items.find((i) => i.model),
              back,
            }),
          );
          if (got.roles) return { kind: 'openRoles', answers: a, project: who.project, role: a.role! };
          if (!got.other) {
            a.model = got.model;
            return;
          }
          // A typed model; Back returns to the list.
          const v = await p.input({
            title: title(),
            prompt: `Model for the ${a.role}`,
            value: a.model ?? '',
            validate: (s) => (s.trim() ? undefined : 'a model is required: there is no default model'),
            back: true,
          });
          if (v === BACK) continue;
          a.model = answered(v).trim();
          return;
        }
      },
    },
    // Written in an editor draft (launched from there), or a file the daemon reads.
    brief: {
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
              title: title(),
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
    },
  };

  // The steps answered so far, for Back.
  const history: StepName[] = [];
  for (let i = 0; i < STEPS.length;) {
    const name = STEPS[i];
    const step = steps[name];
    if (!step.shown()) {
      step.skipped?.();
      i++;
      continue;
    }
    position = history.length + 1;
    try {
      const exit = await step.ask(history.length > 0);
      if (exit) return exit;
      history.push(name);
      i++;
    } catch (e) {
      if (e === FlowAction.cancel) return { kind: 'cancelled', answers: a };
      if (e !== FlowAction.back) throw e;
      const before = history.pop();
      if (before) i = STEPS.indexOf(before);
    }
  }

  const l = launcher();
  const params: LaunchParams = {
    parent: String(l.id),
    role: a.role!,
    ...(l.role === 'orchestrator' ? {} : { run: a.run }),
    ...(a.judge ? { for: a.judge } : { key: a.key }),
    ...(a.at && needsAt() ? { at: a.at } : {}),
    model: a.model!,
    ...(a.harness ? { harness: a.harness } : {}),
    noWait: true,
  };
  if (a.brief === 'file') return { kind: 'launch', params: { ...params, brief: a.briefFile! }, answers: a };
  const what = `${a.role} lane ${a.run}/${a.judge ?? a.key}${a.judge ? ` (judging builder ${a.judge}${a.at && needsAt() ? ` at ${a.at.slice(0, 12)}` : ''})` : ''}, launched by #${l.id} on ${a.model}`;
  return { kind: 'draft', params, answers: a, what };
}

const ROLE_HELP: Record<Role, string> = {
  builder: 'works on a branch of its own',
  critic: 'judges a builder iteration (from a root only)',
  verifier: 'checks, detached at a commit',
  play: 'an empty directory, no svc context',
  orchestrator: 'runs a loop of its own lanes',
};
