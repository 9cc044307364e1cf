// Code hosts: a project on GitHub needs a token the daemon can use (GITHUB_TOKEN in its
// environment or codehost.github.token in config.yaml); local projects need nothing.
import type { ConfigFile, ProjectsFile } from '../../shared/config';
import type { DoctorCheck } from '../../shared/protocol/doctor';

export function checkCodeHosts(
  projects: ProjectsFile,
  config: ConfigFile,
  env: NodeJS.ProcessEnv,
  configShown: string,
): DoctorCheck[] {
  const checks: DoctorCheck[] = [];
  const envToken = (env.GITHUB_TOKEN ?? '').trim() !== '';
  const cfgToken = (config.codehost?.github?.token ?? '').trim() !== '';
  for (const [key, p] of Object.entries(projects.projects)) {
    if (p.code_host !== 'github') {
      checks.push({
        area: 'codehost',
        subject: key,
        status: 'ok',
        text: `project ${key}: local code host (no token needed)`,
        fix: null,
      });
      continue;
    }
    const where = p.github ? `${p.github.owner}/${p.github.repo}` : 'no github: {owner, repo}';
    if (!p.github) {
      checks.push({
        area: 'codehost',
        subject: key,
        status: 'problem',
        text: `project ${key}: code_host github but ${where}`,
        fix: `add github: {owner: <owner>, repo: <repo>} to project ${key} in projects.yaml`,
      });
    } else if (!envToken && !cfgToken) {
      checks.push({
        area: 'codehost',
        subject: key,
        status: 'problem',
        text: `project ${key}: GitHub ${where}, but no token is set`,
        fix: `export GITHUB_TOKEN=<token> where the daemon starts, then svc daemon restart; or set codehost.github.token in ${configShown}`,
      });
    } else {
      checks.push({
        area: 'codehost',
        subject: key,
        status: 'ok',
        text: `project ${key}: GitHub ${where}, token from ${envToken ? 'GITHUB_TOKEN' : 'codehost.github.token'}`,
        fix: null,
      });
    }
  }
  return checks;
}
