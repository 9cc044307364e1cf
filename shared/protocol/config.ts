// Role and review settings (SVC_HOME/config.yaml, SVC_HOME/projects.yaml) over the daemon.
// Senders: the shim (`svc config get|set`) and the Roles webview. Who must stay in sync:
// shared/configKeys.ts (the keys), shared/config.ts (the schemas), docs/protocol.md.
import { z } from 'zod';
import { request } from './rpc';

/**
 * Where a value comes from: `project` (projects.yaml), `global` (config.yaml), `default`
 * (built in: review mode quick), `unset` (nowhere; see `whenUnset`).
 */
export const ConfigSource = z.enum(['project', 'global', 'default', 'unset']);
export type ConfigSource = z.infer<typeof ConfigSource>;

export const ConfigEntry = z.object({
  key: z.string(),
  /** The value in effect: this key's own, else the one it inherits, else the default; null when none. */
  value: z.string().nullable(),
  source: ConfigSource,
  /** The key the value is read from (another key when inherited: a lane's model from `roles.review.model`). */
  from: z.string().nullable(),
  /** Absolute path of the file holding `from`; null for a default or unset value. */
  file: z.string().nullable(),
  /** What happens while this key itself is unset. */
  whenUnset: z.string(),
  /** The accepted values of an enum field; null for free text (models, harnesses). */
  choices: z.array(z.string()).nullable(),
});
export type ConfigEntry = z.infer<typeof ConfigEntry>;

/** Client → daemon. One key (`key`), or every settable key of config.yaml and of each project. */
export const configGet = request(
  'config/get',
  z.object({ key: z.string().min(1).max(300).optional() }).strict(),
  z.object({ entries: z.array(ConfigEntry) }),
);

/**
 * Client → daemon. Sets one key (`value` null removes it), validated with the file's
 * schema; a refused value leaves the file byte for byte as it was. Broadcasts
 * `svc/changed {topic: 'config'}` when the file changed.
 */
export const configSet = request(
  'config/set',
  z.object({ key: z.string().min(1).max(300), value: z.string().max(1000).nullable() }).strict(),
  z.object({ entry: ConfigEntry, changed: z.boolean(), file: z.string() }),
);

export const RoleRow = z.object({
  role: z.string(),
  model: ConfigEntry,
  effort: ConfigEntry,
  /** ask: the harness's approvals become needs-you requests; auto (unset): lanes run unattended. */
  permissions: ConfigEntry,
  harness: ConfigEntry,
  /** The host (config.yaml `hosts:`) the role's lanes run on over SSH; unset: this machine. */
  host: ConfigEntry,
  /** workspace (unset, where the platform has a sandbox): the role's lanes can change only their own worktree; off: they run as the person. */
  sandbox: ConfigEntry,
  /** Each lane's spend cap in US dollars (text, like `2.5`) unless its launch gives --budget; unset: no cap. */
  budget: ConfigEntry,
});

export const ReviewLaneRow = z.object({ lane: z.string(), model: ConfigEntry, harness: ConfigEntry });

export const RolesView = z.object({
  files: z.object({ config: z.string(), projects: z.string() }),
  /** `budget`: each run's spend cap (`projects.<key>.gauntlet.budget`). */
  projects: z.array(z.object({ key: z.string(), path: z.string(), roles: z.array(RoleRow), budget: ConfigEntry })),
  review: z.object({
    mode: ConfigEntry,
    model: ConfigEntry,
    harness: ConfigEntry,
    effort: ConfigEntry,
    lanes: z.array(ReviewLaneRow),
  }),
  /** Harness names a model probe can be asked about: the built-ins and config.yaml's profiles. */
  harnesses: z.array(z.string()),
  /** The hosts of config.yaml `hosts:`, which a role's host may name. */
  hosts: z.array(z.string()),
});
export type RolesView = z.infer<typeof RolesView>;

/** Client (the Roles webview) → daemon. Everything the Roles panel shows, with sources. */
export const configRoles = request('config/roles', z.object({}).strict(), RolesView);

export const ModelChoices = z.object({
  models: z.array(z.string()),
  /** `probe`: asked the harness just now; `cache`: asked it within the last 10 minutes; `unavailable`: see `reason`. */
  source: z.enum(['probe', 'cache', 'unavailable']),
  reason: z.string().optional(),
});
export type ModelChoices = z.infer<typeof ModelChoices>;

/**
 * Client → daemon. The models a harness offers (ACP `configOptions` of category `model`
 * from a probe session, cached per harness). Free text is always allowed besides them.
 */
export const configModels = request(
  'config/models',
  z.object({ harness: z.string().min(1).max(32), refresh: z.boolean().optional() }).strict(),
  ModelChoices,
);
