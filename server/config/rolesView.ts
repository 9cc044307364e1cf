// What the Roles panel shows (config/roles): per project the gauntlet roles' model, effort,
// harness, approvals, host, sandbox and spend cap, each run's spend cap, the review settings, and the choices its selects offer
// (harnesses, configured hosts). Pure, from the settings (roleSettings.ts).
import { REVIEW_LANES, ROLES } from '../../shared/config';
import { parseConfigKey } from '../../shared/configKeys';
import type { ConfigEntry, RolesView } from '../../shared/protocol/config';
import { entryFor } from './roleSettings';
import type { SettingsSource } from './roleSettings';

/** `harnesses`: the profiles a role may use; `hosts`: config.yaml's `hosts:` names, which a role's host may name. */
export function rolesView(s: SettingsSource, harnesses: string[], hosts: string[]): RolesView {
  const at = (key: string): ConfigEntry => entryFor(parseConfigKey(key)!, s);
  return {
    files: s.files,
    projects: Object.entries(s.projects.projects).map(([key, p]) => ({
      key,
      path: p.path,
      roles: ROLES.map((role) => {
        const k = `projects.${key}.gauntlet.roles.${role}`;
        return {
          role,
          model: at(`${k}.model`),
          effort: at(`${k}.effort`),
          harness: at(`${k}.harness`),
          permissions: at(`${k}.permissions`),
          host: at(`${k}.host`),
          sandbox: at(`${k}.sandbox`),
          budget: at(`${k}.budget`),
        };
      }),
      budget: at(`projects.${key}.gauntlet.budget`),
    })),
    review: {
      mode: at('roles.review.mode'),
      model: at('roles.review.model'),
      harness: at('roles.review.harness'),
      effort: at('roles.review.effort'),
      lanes: REVIEW_LANES.map((lane) => ({
        lane,
        model: at(`roles.review.sub.${lane}.model`),
        harness: at(`roles.review.sub.${lane}.harness`),
      })),
    },
    harnesses,
    hosts,
  };
}
