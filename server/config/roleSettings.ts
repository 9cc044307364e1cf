// The value in effect for each role and review setting, where it comes from, and what
// happens while it is unset. Pure: the daemon's config methods and the Roles view read
// it, and so should anything that launches a role (one rule, one place).
//
// Rules (docs/decisions/config.md, "Roles and config"):
// - gauntlet role fields come from the project only (`svc lane start` reads
//   `gauntlet.roles.<role>` of projects.yaml; there is no global role default and no
//   default model);
// - review fields come from config.yaml; a convoy lane's model and harness inherit the
//   review parent's (`roles.review.model`, `roles.review.harness`); the mode defaults to quick.
import type { ConfigFile, ProjectsFile } from '../../shared/config';
import { FIELD_CHOICES, parseConfigKey } from '../../shared/configKeys';
import type { ConfigKeyRef } from '../../shared/configKeys';
import type { ConfigEntry } from '../../shared/protocol/config';
import { DEFAULT_PARK_MAX_MB, DEFAULT_PARK_WARN_MB } from '../reap/parkSize';
import { laneGitLayout } from '../lanes/laneGitLayout';
import { DEFAULT_DEBOUNCE_S } from '../review/settings';

export interface SettingsSource {
  config: ConfigFile;
  projects: ProjectsFile;
  files: { config: string; projects: string };
}

type Own = string | undefined;

function ownValue(ref: ConfigKeyRef, s: SettingsSource): Own {
  if (ref.file === 'projects') {
    const gauntlet = s.projects.projects[ref.project!]?.gauntlet;
    // A budget is a number in the file; entries carry text like every other value.
    const shown = (v: string | number | undefined): Own => (v === undefined ? undefined : String(v));
    if (!ref.role) return shown(gauntlet?.budget);
    const roles = gauntlet?.roles?.[ref.role] as Record<string, string | number | undefined> | undefined;
    return shown(roles?.[ref.field]);
  }
  if (ref.path[0] === 'lanes') return s.config.lanes?.git;
  if (ref.path[0] === 'reap') {
    const v = s.config.reap?.[ref.field as 'park_warn_mb' | 'park_max_mb'];
    return v === undefined ? undefined : String(v);
  }
  const review = s.config.roles?.review;
  if (ref.field === 'debounce') return review?.debounce === undefined ? undefined : String(review.debounce);
  if (ref.lane) return (review?.sub?.[ref.lane] as Record<string, string | undefined> | undefined)?.[ref.field];
  return (review as Record<string, string | undefined> | undefined)?.[ref.field];
}

/** What happens while `ref` is unset (shown next to the field and by `svc config get`). */
export function whenUnset(ref: ConfigKeyRef): string {
  if (ref.field === 'budget' && !ref.role)
    return `a run has no spend cap of its own: only each lane's cap (given at launch or by its role) stops it`;
  if (ref.role) {
    const role = ref.role;
    if (ref.field === 'model')
      return `a ${role} lane cannot start without a model: set one here, or give it at launch (there is no default model)`;
    if (ref.field === 'effort') return `the harness's own default effort is used, unless the launch names another`;
    if (ref.field === 'host') return `${role} lanes run on this machine, unless the launch names a host`;
    if (ref.field === 'sandbox')
      return `${role} lanes run in the workspace sandbox where the platform has one (they can change only their own worktree), unless the harness or the launch says off`;
    if (ref.field === 'budget')
      return `${role} lanes have no spend cap, unless one is given at launch (the run's cap, if set, still holds)`;
    if (ref.field === 'permissions')
      return `${role} lanes run unattended (auto): nothing waits for your approval; ask turns the harness's approvals into needs-you requests`;
    return `the launching conversation's harness is used, unless the launch names another`;
  }
  if (ref.lane) {
    if (ref.field === 'model')
      return `the ${ref.lane} reviewer uses roles.review.model; with neither set, a full review is refused: there is no default model`;
    return `the ${ref.lane} reviewer uses roles.review.harness, else the work agent's harness`;
  }
  switch (ref.field) {
    case 'git':
      return laneGitLayout({} as ConfigFile) === 'own'
        ? "each new local lane gets a git repository of its own, borrowing the project's objects read-only: nothing of your repository is writable from it (shared: a worktree of your repository, as before)"
        : 'each new local lane is a worktree of your repository itself, whose refs and objects it can write (own: a repository of its own)';
    case 'park_warn_mb':
      return `a reap --park over ${DEFAULT_PARK_WARN_MB} MiB of files warns, naming the largest`;
    case 'park_max_mb':
      return `a reap --park over ${DEFAULT_PARK_MAX_MB} MiB of files is refused before anything is stopped or changed`;
    case 'debounce':
      return `pushes less than ${DEFAULT_DEBOUNCE_S} s apart make one review of the newest head, started ${DEFAULT_DEBOUNCE_S} s after the last (0: a review per push)`;
    case 'mode':
      return 'one agent does a combined review pass (quick is the default)';
    case 'model':
      return 'a review is refused: there is no default model (the convoy lanes may still set their own)';
    case 'harness':
      return "reviewers run on the work agent's harness";
    default:
      return "the harness's own default effort is used";
  }
}

/** The entry for one key: value in effect, its source and file, the unset consequence. */
export function entryFor(ref: ConfigKeyRef, s: SettingsSource): ConfigEntry {
  const base = {
    key: ref.key,
    whenUnset: whenUnset(ref),
    choices: FIELD_CHOICES[ref.field] ? [...FIELD_CHOICES[ref.field]!] : null,
  };
  const own = ownValue(ref, s);
  if (own !== undefined) {
    return {
      ...base,
      value: own,
      source: ref.file === 'projects' ? 'project' : 'global',
      from: ref.key,
      file: s.files[ref.file],
    };
  }
  if (ref.lane) {
    const parentKey = `roles.review.${ref.field}`;
    const inherited = ownValue(parseConfigKey(parentKey)!, s);
    if (inherited !== undefined)
      return { ...base, value: inherited, source: 'global', from: parentKey, file: s.files.config };
  }
  const byDefault = defaultOf(ref);
  if (byDefault !== undefined) return { ...base, value: byDefault, source: 'default', from: null, file: null };
  return { ...base, value: null, source: 'unset', from: null, file: null };
}

/** The value a key has while unset, for the keys that have one. */
function defaultOf(ref: ConfigKeyRef): string | undefined {
  if (ref.field === 'mode') return 'quick';
  if (ref.field === 'park_warn_mb') return String(DEFAULT_PARK_WARN_MB);
  if (ref.field === 'park_max_mb') return String(DEFAULT_PARK_MAX_MB);
  if (ref.field === 'git') return laneGitLayout({} as ConfigFile);
  if (ref.field === 'debounce') return String(DEFAULT_DEBOUNCE_S);
  return undefined;
}

/** The review parent's and each convoy lane's settings, for whoever launches reviewers. */
export function reviewSettings(
  config: ConfigFile,
  lane?: string,
): { mode: string; model?: string; harness?: string; effort?: string } {
  const review = config.roles?.review;
  const sub = lane ? (review?.sub?.[lane as keyof NonNullable<NonNullable<typeof review>['sub']>] ?? {}) : {};
  return {
    mode: review?.mode ?? 'quick',
    model: sub.model ?? review?.model,
    harness: sub.harness ?? review?.harness,
    effort: review?.effort,
  };
}
