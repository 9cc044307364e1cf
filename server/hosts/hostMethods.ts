// The hosts feature: the hosts of config.yaml (their SSH connections closed when the daemon
// stops), the one HostLink the conversation layer and lanes use to work there, and
// hosts/list and hosts/check (senders: `svc host list|check` and the extension).
import { ROLES } from '../../shared/config';
import { hostsCheck, hostsList } from '../../shared/protocol/hosts';
import type { App } from '../app';
import { checkHost } from './hostCheck';
import type { HarnessProbe } from './hostCheck';
import { HostLink } from './hostLink';
import { Hosts } from './hosts';

/** The command harness `name` runs (its profile's, harness/profiles.ts): handed in by features.ts, as hosts sits below harness. */
export type HarnessCommandOf = (name: string) => string;

export function registerHosts(app: App, commandOf: HarnessCommandOf): HostLink {
  const h = new Hosts(app);
  app.onStop(async () => {
    await Promise.all(h.opened().map((x) => x.close().catch(() => undefined)));
  });

  /** `<project>/<role>` of every gauntlet role whose lanes go to `name` by default. */
  const defaultFor = (name: string): string[] =>
    Object.entries(app.config.projects().projects).flatMap(([key, p]) =>
      ROLES.filter((r) => p.gauntlet?.roles?.[r]?.host === name).map((r) => `${key}/${r}`),
    );

  app.rpc.handle(hostsList, async () => ({
    hosts: await Promise.all(
      h.names().map(async (name) => {
        const spec = h.spec(name);
        return {
          name,
          ssh: spec.ssh,
          lanesRoot: spec.lanesRoot,
          options: spec.options,
          connected: (await h.get(name).masterPid()) !== null,
          defaultFor: defaultFor(name),
        };
      }),
    ),
  }));

  app.rpc.handle(hostsCheck, async (p) => {
    const host = h.get(p.name);
    return checkHost(host, harnessProbe(commandOf, p.harness ?? roleHarness(app, p.name)));
  });
  return new HostLink(h, app.distDir, app.paths.socket, app.paths.home);
}

/** The harness the roles placed on `name` use (the first found), so a bare check looks for it. */
function roleHarness(app: App, name: string): string | undefined {
  for (const p of Object.values(app.config.projects().projects)) {
    for (const r of ROLES) {
      const d = p.gauntlet?.roles?.[r];
      if (d?.host === name && d.harness) return d.harness;
    }
  }
  return undefined;
}

export function harnessProbe(commandOf: HarnessCommandOf, harness: string | undefined): HarnessProbe | null {
  if (!harness) return null;
  if (harness === 'script') return { name: harness, command: null };
  return { name: harness, command: commandOf(harness) };
}
