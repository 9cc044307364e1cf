// The guided "start lane" pick: launcher, role, run, key, brief file and model, each
// prefilled from the selected Command Deck row (a builder suggests its critic, a critic
// the builder's next iteration, a root or orchestrator a builder of its newest run).
// No vscode import: the prompts come through a Prompter, so tests drive the flow with
// scripted answers. The daemon checks every launch rule; this only pre-fills and
// validates the keys' patterns.
import { ROLES } from '../../shared/config';
import { LANE_KEY, LANE_KEY_RULE, RUN_KEY, RUN_KEY_RULE } from '../../shared/keys';
import type { LaunchParams } from '../../shared/protocol/lanes';
import { canLaunch } from '../commandDeck/deckModel';
import type { HarnessChoice } from '../doctor/harnessChoices';
import type { DeckRow } from '../commandDeck/deckModel';

export interface PickItem {
  label: string;
  description?: string;
  detail?: string;
}

export interface Prompter {
  pick<T extends PickItem>(items: T[], o: { title: string; placeholder: string; active?: T }): Promise<T | undefined>;
  input(o: { title: string; prompt: string; value?: string; placeholder?: string; validate?: (v: string) => string | undefined }): Promise<string | undefined>;
  /** An absolute path of a file the person chose. */
  openFile(o: { title: string }): Promise<string | undefined>;
}

export type FlowResult = { params: LaunchParams; launcher: DeckRow } | { nothing: string } | undefined;

type Role = (typeof ROLES)[number];

/** Roles a launcher may start (spec: Launch rules): a root anything, an orchestrator lane builders, verifiers and plays. */
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

/** `harnesses`: the choices for a last step (marked by the doctor); without them the lane takes the default harness. */
export async function startLaneFlow(p: Prompter, selected: DeckRow | undefined, rows: readonly DeckRow[], harnesses: readonly HarnessChoice[] = []): Promise<FlowResult> {
  const steps = harnesses.length ? 7 : 6;
  const title = (n: number) => `svc: Start Lane (${n}/${steps})`;
  // 1. Who launches.
  let launcher = defaultLauncher(selected, rows);
  const launchers = rows.filter((r) => !r.archived && canLaunch(r));
  if (!launcher) {
    if (!launchers.length) return { nothing: 'no conversation can launch lanes: start a root conversation first ("svc: New Conversation")' };
    const picked = await p.pick(
      launchers.map((r) => ({ label: r.title || r.name, description: `#${r.id} · ${r.role ?? r.kind} · ${r.activity}`, row: r })),
      { title: title(1), placeholder: 'Which conversation launches the lane?' },
    );
    if (!picked) return undefined;
    launcher = picked.row;
  }

  // 2. Role.
  const roles = rolesFor(launcher);
  const wantRole = defaultRole(selected);
  const roleItems = roles.map((r) => ({ label: r, description: ROLE_HELP[r], role: r }));
  const role = await p.pick(roleItems, { title: title(2), placeholder: `Role of the new lane (launched by #${launcher.id})`, active: roleItems.find((i) => i.role === wantRole) });
  if (!role) return undefined;

  // 3. Run: an orchestrator's lanes inherit its run (spec: Launch rule 1).
  let run: string | undefined = launcher.role === 'orchestrator' ? launcher.run : undefined;
  if (!run) {
    const launched = rows.filter((r) => r.parentId === launcher!.id && r.run).sort((a, b) => b.id - a.id);
    const v = await p.input({ title: title(3), prompt: 'Run key (names this pass of the loop)', value: selected?.run ?? launched[0]?.run ?? '', placeholder: 'e.g. r1', validate: (s) => (RUN_KEY.test(s) ? undefined : RUN_KEY_RULE) });
    if (v === undefined) return undefined;
    run = v;
  }

  // 4. Key, or for a critic (and optionally a verifier) the builder it judges.
  const keyOf: { key?: string; for?: string } = {};
  if (role.role === 'critic' || role.role === 'verifier') {
    const builderKeys = [...new Set(rows.filter((r) => r.role === 'builder' && r.run === run && r.key).map((r) => r.key!))];
    const items = builderKeys.map((k) => ({ label: k, description: `judge builder ${k}`, key: k, own: false }));
    if (role.role === 'verifier' || !items.length) items.push({ label: 'Another key…', description: role.role === 'critic' ? 'type the builder key' : 'a key of its own (judges no builder)', key: '', own: true });
    const picked = await p.pick(items, { title: title(4), placeholder: role.role === 'critic' ? 'Which builder does the critic judge?' : 'Which builder does the verifier check?', active: items.find((i) => i.key === selected?.key) });
    if (!picked) return undefined;
    if (picked.own) {
      const v = await p.input({ title: title(4), prompt: role.role === 'critic' ? 'Builder key to judge' : 'Lane key', value: selected?.key ?? '', validate: (s) => (LANE_KEY.test(s) ? undefined : LANE_KEY_RULE) });
      if (v === undefined) return undefined;
      if (role.role === 'critic') keyOf.for = v;
      else keyOf.key = v;
    } else keyOf.for = picked.key;
  } else {
    const v = await p.input({ title: title(4), prompt: 'Lane key (short name inside the run)', value: selected?.key ?? '', placeholder: 'e.g. api', validate: (s) => (LANE_KEY.test(s) ? undefined : LANE_KEY_RULE) });
    if (v === undefined) return undefined;
    keyOf.key = v;
  }

  // 5. Brief: a file (read by the daemon, written once to lane-brief.md) or typed text.
  const how = await p.pick(
    [
      { label: 'Choose a brief file…', description: 'Markdown the lane works from', file: true },
      { label: 'Type the brief', description: 'a one-off prompt', file: false },
    ],
    { title: title(5), placeholder: 'The lane’s brief' },
  );
  if (!how) return undefined;
  const brief: { brief?: string; prompt?: string } = {};
  if (how.file) {
    const f = await p.openFile({ title: 'Brief file for the lane' });
    if (!f) return undefined;
    brief.brief = f;
  } else {
    const t = await p.input({ title: title(5), prompt: 'The brief', validate: (s) => (s.trim() ? undefined : 'the brief is empty') });
    if (t === undefined) return undefined;
    brief.prompt = t;
  }

  // 6. Model: prefilled from a lane of the same role in the run; empty uses the project's gauntlet model.
  const sameRole = rows.filter((r) => r.role === role.role && r.run === run && r.model).sort((a, b) => b.id - a.id)[0] ?? (selected?.role === role.role ? selected : undefined);
  const model = await p.input({ title: title(6), prompt: `Model for the ${role.role}`, value: sameRole?.model ?? '', placeholder: `empty: the project's gauntlet model for ${role.role}` });
  if (model === undefined) return undefined;

  // 7. Harness: the default (the project's role setting, else the launcher's) or one marked installed or not.
  let harness = '';
  if (harnesses.length) {
    const items = [{ label: 'Default', description: `the project's harness for ${role.role}s, else the launcher's`, harness: '' }, ...harnesses];
    const picked = await p.pick(items, { title: title(7), placeholder: `Harness for the ${role.role}`, active: items[0] });
    if (!picked) return undefined;
    harness = picked.harness;
  }

  const params: LaunchParams = { parent: String(launcher.id), role: role.role, ...(launcher.role === 'orchestrator' ? {} : { run }), ...keyOf, ...brief, noWait: true };
  if (model.trim()) params.model = model.trim();
  if (harness) params.harness = harness;
  return { params, launcher };
}

const ROLE_HELP: Record<Role, string> = {
  builder: 'works on a branch of its own',
  critic: 'judges a builder iteration (from a root only)',
  verifier: 'checks, detached at a commit',
  play: 'an empty directory, no svc context',
  orchestrator: 'runs a loop of its own lanes',
};
