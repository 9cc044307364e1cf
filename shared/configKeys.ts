// The settable configuration keys: one table for the shim (`svc config get|set`), the
// daemon (`config/get|set|roles`) and the Roles webview, so all three agree on the names.
// Who must stay in sync: shared/config.ts (the schemas that validate every write) and the
// config section of docs/protocol.md. No zod parsing here: the shim bundles this file.
import { EFFORTS, LANE_GIT_LAYOUTS, PERMISSIONS, REVIEW_LANES, REVIEW_MODES, ROLES, SANDBOX_MODES } from './config';
import type { ReviewLane, Role } from './config';

/** Which part of a role setting a key names. */
export type ConfigField =
  | 'mode'
  | 'model'
  | 'harness'
  | 'effort'
  | 'permissions'
  | 'host'
  | 'sandbox'
  | 'budget'
  | 'park_warn_mb'
  | 'park_max_mb'
  | 'debounce'
  | 'git';

export interface ConfigKeyRef {
  /** The key as written on the command line, e.g. `roles.review.sub.security.model`. */
  key: string;
  /** Which file holds it: SVC_HOME/config.yaml (global) or SVC_HOME/projects.yaml (per project). */
  file: 'config' | 'projects';
  /** Path inside the YAML file. */
  path: string[];
  field: ConfigField;
  project?: string;
  role?: Role;
  lane?: ReviewLane;
  /**
   * How many leading path segments an unset never removes when it prunes maps left
   * empty: `roles` may go from config.yaml; a project's own entry never goes.
   */
  keepDepth: number;
}

/** The values an enum field accepts (free text for models and harnesses). */
export const FIELD_CHOICES: Record<ConfigField, readonly string[] | null> = {
  mode: REVIEW_MODES,
  effort: EFFORTS,
  model: null,
  harness: null,
  permissions: PERMISSIONS,
  host: null,
  sandbox: SANDBOX_MODES,
  budget: null,
  park_warn_mb: null,
  park_max_mb: null,
  debounce: null,
  git: LANE_GIT_LAYOUTS,
};

/** The key forms, for help text and refusals. */
export const CONFIG_KEY_FORMS = [
  'roles.review.mode',
  'roles.review.model',
  'roles.review.harness',
  'roles.review.effort',
  'roles.review.debounce',
  `roles.review.sub.<${REVIEW_LANES.join('|')}>.model|harness`,
  `projects.<key>.gauntlet.roles.<${ROLES.join('|')}>.model|effort|harness|permissions|host|sandbox|budget`,
  'projects.<key>.gauntlet.budget',
  'reap.park_warn_mb|park_max_mb',
  'lanes.git',
];

/** `debounce`: the quiet window after a push, whole seconds (config.yaml `roles.review.debounce`). */
const REVIEW_FIELDS: ConfigField[] = ['mode', 'model', 'harness', 'effort', 'debounce'];
const LANE_FIELDS: ConfigField[] = ['model', 'harness'];
/** `svc lane reap --park`'s limits (config.yaml `reap:`, MiB). */
const REAP_FIELDS: ConfigField[] = ['park_warn_mb', 'park_max_mb'];
const ROLE_FIELDS: ConfigField[] = ['model', 'effort', 'harness', 'permissions', 'host', 'sandbox', 'budget'];

const has = <T extends string>(list: readonly T[], v: string): v is T => (list as readonly string[]).includes(v);

/** The reference a key names, or undefined when it is not one of the settable keys. */
export function parseConfigKey(key: string): ConfigKeyRef | undefined {
  const p = key.split('.');
  if (p[0] === 'roles' && p[1] === 'review') {
    if (p.length === 3 && has(REVIEW_FIELDS, p[2])) return { key, file: 'config', path: p, field: p[2], keepDepth: 0 };
    if (p.length === 5 && p[2] === 'sub' && has(REVIEW_LANES, p[3]) && has(LANE_FIELDS, p[4])) {
      return { key, file: 'config', path: p, field: p[4], lane: p[3], keepDepth: 0 };
    }
    return undefined;
  }
  if (p[0] === 'reap' && p.length === 2 && has(REAP_FIELDS, p[1]))
    return { key, file: 'config', path: p, field: p[1], keepDepth: 0 };
  // Where a new local lane's git state lives (own|shared, server/lanes/laneGitRepo.ts).
  if (p[0] === 'lanes' && p.length === 2 && p[1] === 'git')
    return { key, file: 'config', path: p, field: 'git', keepDepth: 0 };
  if (
    p[0] === 'projects' &&
    p.length === 6 &&
    p[2] === 'gauntlet' &&
    p[3] === 'roles' &&
    has(ROLES, p[4]) &&
    has(ROLE_FIELDS, p[5])
  ) {
    if (!/^[a-z0-9][a-z0-9-]{0,31}$/.test(p[1])) return undefined;
    return { key, file: 'projects', path: p, field: p[5], project: p[1], role: p[4], keepDepth: 2 };
  }
  // Each run's spend cap: a project setting of its own, not a role's.
  if (p[0] === 'projects' && p.length === 4 && p[2] === 'gauntlet' && p[3] === 'budget') {
    if (!/^[a-z0-9][a-z0-9-]{0,31}$/.test(p[1])) return undefined;
    return { key, file: 'projects', path: p, field: 'budget', project: p[1], keepDepth: 2 };
  }
  return undefined;
}

/** Every global key, in the order lists show them. */
export function globalConfigKeys(): string[] {
  const keys = REVIEW_FIELDS.map((f) => `roles.review.${f}`);
  for (const lane of REVIEW_LANES) for (const f of LANE_FIELDS) keys.push(`roles.review.sub.${lane}.${f}`);
  for (const f of REAP_FIELDS) keys.push(`reap.${f}`);
  keys.push('lanes.git');
  return keys;
}

/** Every key of one project, in the order lists show them. */
export function projectConfigKeys(project: string): string[] {
  const keys: string[] = [];
  for (const role of ROLES) for (const f of ROLE_FIELDS) keys.push(`projects.${project}.gauntlet.roles.${role}.${f}`);
  keys.push(`projects.${project}.gauntlet.budget`);
  return keys;
}
