// Launch rules that need no git: who may launch which role, keys, run, model. Their
// refusals, like every other refusal of a launch (launch.ts, workdir.ts, hostPlacement.ts),
// are made in laneRefusals.ts, once each.
import { resolveSandboxMode } from '../sandbox/sandboxMode';
import type { ConfigFile, Project, Role } from '../../shared/config';
import type { LaunchParams } from '../../shared/protocol/lanes';
import type { ConversationsPort, ConvRow } from './conversationsPort';
import type { LaneRow, LaneStore } from './laneStore';
import {
  criticNotBlind,
  criticWithoutForError,
  forOnJudgesError,
  keyDiffersFromForError,
  noKeyError,
  noLauncherError,
  noModelError,
  parentNotSelfError,
  roleNotPermittedError,
  runMismatchError,
  runRequiredError,
  startPointNotForRoleError,
  startPointOnReuseError,
  unknownHarnessError,
  notOwnLaneError,
  sandboxWeakerError,
} from './laneRefusals';
import { isAncestor } from '../authority/lineage';

/** Follows successor links up to a lane or a root (spec glossary: effective launcher). */
export function effectiveLauncher(convs: ConversationsPort, row: ConvRow): ConvRow {
  let cur = row;
  for (let hops = 0; cur.kind === 'successor' && cur.parentId !== null && hops < 1000; hops++) {
    const up = convs.get(cur.parentId);
    if (!up) break;
    cur = up;
  }
  return cur;
}

/** The launching conversation: the caller itself, or a person's `--parent`. */
export function launcherOf(convs: ConversationsPort, caller: string | undefined, parent: string | undefined): ConvRow {
  if (caller) {
    const self = convs.resolve(caller);
    if (parent && convs.resolve(parent).id !== self.id) {
      throw parentNotSelfError(parent, self.id);
    }
    return self;
  }
  if (!parent) throw noLauncherError();
  return convs.resolve(parent);
}

const MAY_LAUNCH: Record<Role, ('root' | 'orchestrator')[]> = {
  orchestrator: ['root'],
  builder: ['root', 'orchestrator'],
  critic: ['root'],
  verifier: ['root', 'orchestrator'],
  play: ['root', 'orchestrator'],
};

const an = (word: string) => `${/^[aeiou]/.test(word) ? 'an' : 'a'} ${word}`;

/** Authorisation on the effective launcher and role (spec Authentication 2). */
export function checkMayLaunch(effective: ConvRow, launcherLane: LaneRow | undefined, role: Role): void {
  // 'root', 'orchestrator' or another lane role (which may launch nothing).
  const as: string = effective.kind === 'lane' ? (launcherLane?.role ?? 'lane') : 'root';
  if (!(MAY_LAUNCH[role] as string[]).includes(as)) {
    const who = as === 'root' ? 'a root conversation' : `${an(as)} lane`;
    const allowed = MAY_LAUNCH[role]
      .map((x) => (x === 'root' ? 'a root conversation' : 'an orchestrator lane'))
      .join(' or ');
    throw roleNotPermittedError(who, role, allowed);
  }
}

/** `--key`/`--for` rules (critic and verifier rule 1). Returns the lane key. */
export function laneKeyOf(p: LaunchParams): string {
  if (p.for !== undefined && p.role !== 'critic' && p.role !== 'verifier') {
    throw forOnJudgesError(p.role);
  }
  if (p.role === 'critic' && p.for === undefined) throw criticWithoutForError();
  if (p.for !== undefined && p.key !== undefined && p.key !== p.for) {
    throw keyDiffersFromForError(p.key, p.for, p.role);
  }
  const key = p.key ?? p.for;
  if (key === undefined) throw noKeyError();
  return key;
}

/** Where a lane starts (launch table): `--from` for a builder's branch, `--at` for the detached
 *  checkout of a critic, verifier or orchestrator, neither for a play lane's empty directory,
 *  and none of them (nor `--branch`) with `--reuse`, which keeps the earlier lane's checkout.
 *  A flag that would be ignored is refused: the lane would start somewhere not asked for. */
export function checkStartPoint(p: LaunchParams): void {
  if (p.reuse) {
    const given = (['from', 'at', 'branch'] as const).filter((f) => p[f] !== undefined).map((f) => `--${f}`);
    if (given.length) throw startPointOnReuseError(given);
  }
  if (p.from !== undefined && p.role !== 'builder') throw startPointNotForRoleError('--from', p.role);
  if (p.at !== undefined && (p.role === 'builder' || p.role === 'play'))
    throw startPointNotForRoleError('--at', p.role);
}

/** Report bodies shorter than this are not matched: `done` or `built it` quoted by chance is no leak. */
const QUOTED_REPORT_MIN = 16;

/** Critic rule 5 (blindness): a critic's brief holds neither the name of a builder conversation
 *  of the key it judges nor the text of one of their reports; only the commit comes from the
 *  builder. The contract is written blind (contract.ts); the brief is the launcher's, checked here. */
export function checkCriticBlind(store: LaneStore, run: string, key: string, brief: string): void {
  for (const b of store.ofSlot(run, key, 'builder')) {
    if (brief.includes(b.name)) throw criticNotBlind.names(b.name);
    for (const r of store.reports(b.id)) {
      const body = r.body.trim();
      if (body.length >= QUOTED_REPORT_MIN && brief.includes(body)) throw criticNotBlind.quotes(b.name, r.seq);
    }
  }
}

/** The run: `--run` from a root; inherited from an orchestrator lane (launch rule 1). */
export function runOf(p: LaunchParams, launcherLane: LaneRow | undefined): string {
  if (launcherLane) {
    if (p.run !== undefined && p.run !== launcherLane.run) {
      throw runMismatchError(launcherLane.run, p.run);
    }
    return launcherLane.run;
  }
  if (p.run === undefined) throw runRequiredError();
  return p.run;
}

/** Model, effort and harness: flags, then the project's gauntlet role defaults (rule 6); permissions: the role's setting;
 *  the sandbox: the flag, the role's, the harness profile's, else the platform's default. */
export function settingsOf(
  p: LaunchParams,
  project: Project & { key: string },
  role: Role,
  config: ConfigFile,
  launcherHarness: string,
) {
  const defaults = project.gauntlet?.roles?.[role] ?? {};
  const model = p.model ?? defaults.model;
  if (!model) {
    throw noModelError(role, project.key);
  }
  const harness = p.harness ?? defaults.harness ?? launcherHarness;
  if (!['claude', 'codex', 'gemini', 'script'].includes(harness) && !config.harnesses[harness]) {
    throw unknownHarnessError(harness);
  }
  const host = p.host ?? defaults.host ?? null;
  const choices = { launch: p.sandbox, role: defaults.sandbox, profile: config.harnesses[harness]?.sandbox };
  return {
    model,
    effort: p.effort ?? defaults.effort,
    harness,
    permissions: defaults.permissions,
    host,
    // A host is a POSIX machine svc reaches over SSH: its default is the sandbox, which its own bubblewrap builds (hosts/helper/hostSandbox.ts).
    sandbox: resolveSandboxMode(choices, host ? 'linux' : process.platform),
    /** Which setting chose the sandbox, as a refusal names it. */
    sandboxFrom:
      choices.launch !== undefined
        ? '--sandbox'
        : choices.role !== undefined
          ? `gauntlet.roles.${role}.sandbox`
          : choices.profile !== undefined
            ? `harnesses.${harness}.sandbox`
            : 'the platform default',
  };
}

/**
 * Launch authority: an agent gives its lanes no more than it has. A sandboxed agent's lane
 * is sandboxed too, whichever setting said otherwise; an unconfined agent (the person's
 * choice) may launch either. A person launches anything.
 */
export function checkSandboxFloor(
  caller: ConvRow | undefined,
  callerSandbox: string | null | undefined,
  child: { sandbox: string; sandboxFrom: string },
): void {
  if (caller && callerSandbox === 'workspace' && child.sandbox !== 'workspace')
    throw sandboxWeakerError(caller, child.sandboxFrom);
}

/** `--replace` and `--reuse` by an agent act only on its own descendants (server/authority/lineage.ts). */
export function checkOwnLane(
  convs: ConversationsPort,
  caller: ConvRow | undefined,
  flag: '--replace' | '--reuse',
  lane: LaneRow,
): void {
  if (!caller) return;
  const row = convs.get(lane.id);
  if (!row || !isAncestor((id) => convs.get(id), caller.id, row)) throw notOwnLaneError(flag, lane, caller);
}
