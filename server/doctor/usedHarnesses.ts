// Harnesses the user's settings name: a project's gauntlet role, a review setting, a role
// default, or a profile of their own in config.yaml. Those must be installed; the others
// are offered but optional.
import type { ConfigFile, ProjectsFile } from '../../shared/config';

export function usedHarnesses(config: ConfigFile, projects: ProjectsFile): Set<string> {
  const used = new Set<string>(Object.keys(config.harnesses));
  const add = (h: unknown) => typeof h === 'string' && h !== '' && used.add(h);
  for (const p of Object.values(projects.projects))
    for (const r of Object.values(p.gauntlet?.roles ?? {})) add(r?.harness);
  const roles = (config.roles ?? {}) as Record<
    string,
    { harness?: unknown; sub?: Record<string, { harness?: unknown } | undefined> } | undefined
  >;
  for (const r of Object.values(roles)) {
    add(r?.harness);
    for (const s of Object.values(r?.sub ?? {})) add(s?.harness);
  }
  return used;
}
