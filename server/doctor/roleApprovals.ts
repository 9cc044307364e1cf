// The roles whose lanes ask before their harness acts (gauntlet.roles.<role>.permissions:
// ask): those lanes wait for a needs-you answer, which an unattended gauntlet must know.
import type { ProjectsFile } from '../../shared/config';
import type { DoctorCheck } from '../../shared/protocol/doctor';

export function checkRoleApprovals(projects: ProjectsFile): DoctorCheck[] {
  const checks: DoctorCheck[] = [];
  for (const [key, p] of Object.entries(projects.projects)) {
    for (const [role, settings] of Object.entries(p.gauntlet?.roles ?? {})) {
      if (settings?.permissions !== 'ask') continue;
      checks.push({
        area: 'roles',
        subject: key,
        status: 'note',
        text: `project ${key}: ${role} lanes ask before their harness acts (gauntlet.roles.${role}.permissions: ask); each waits for a needs-you answer (svc conv answer)`,
        fix: null,
      });
    }
  }
  return checks;
}
