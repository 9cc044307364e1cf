// Whether lanes can run in the workspace sandbox here (bubblewrap installed, user
// namespaces on; Seatbelt on macOS), with the fix when not: a lane whose mode is workspace
// fails to start without it. Roles and harness profiles that turn it off are named, since
// their agents run as the person.
import type { ConfigFile, ProjectsFile } from '../../shared/config';
import type { DoctorCheck } from '../../shared/protocol/doctor';
import { defaultSandboxMode } from '../sandbox/sandboxMode';
import { probeSandbox } from '../sandbox/sandboxProbe';

export async function checkSandbox(
  projects: ProjectsFile,
  config: ConfigFile,
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [];
  const off: string[] = [];
  for (const [key, p] of Object.entries(projects.projects))
    for (const [role, s] of Object.entries(p.gauntlet?.roles ?? {}))
      if (s?.sandbox === 'off') off.push(`project ${key} ${role} (gauntlet.roles.${role}.sandbox: off)`);
  for (const [name, h] of Object.entries(config.harnesses))
    if (h.sandbox === 'off') off.push(`harness ${name} (harnesses.${name}.sandbox: off)`);
  if (defaultSandboxMode(platform) === 'off') {
    checks.push({
      area: 'sandbox',
      subject: platform,
      status: 'note',
      text: `svc has no sandbox on ${platform}: lanes run unconfined, as you`,
      fix: null,
    });
    return checks;
  }
  const health = await probeSandbox(env, platform);
  checks.push(
    health.ok
      ? {
          area: 'sandbox',
          subject: 'sandbox',
          status: 'ok',
          text: `lanes run in the workspace sandbox by default (${health.tool} ${health.version})`,
          fix: null,
        }
      : {
          area: 'sandbox',
          subject: 'sandbox',
          status: 'problem',
          text: `lanes in the workspace sandbox (the default) cannot start: ${health.reason}`,
          fix: health.fix,
        },
  );
  for (const o of off)
    checks.push({
      area: 'sandbox',
      subject: o,
      status: 'note',
      text: `lanes of ${o} run unconfined, as you`,
      fix: null,
    });
  return checks;
}
