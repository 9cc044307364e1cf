// doctor/run (shared/protocol/doctor.ts): the checks run in the daemon, whose environment
// and config agents inherit. A config file that does not parse is itself a problem, and
// the other checks still run (with empty settings).
import { ConfigFile, ProjectsFile } from '../../shared/config';
import type { DoctorCheck } from '../../shared/protocol/doctor';
import { doctorRun } from '../../shared/protocol/doctor';
import type { App } from '../app';
import { runDoctor } from './runDoctor';

const startedAt = Date.now();

function readOr<T>(read: () => T, empty: T, file: string, problems: DoctorCheck[]): T {
  try {
    return read();
  } catch (e) {
    problems.push({
      area: 'config',
      subject: file,
      status: 'problem',
      text: (e as Error).message,
      fix: `correct ${file} (svc config get/set shows and changes settings)`,
    });
    return empty;
  }
}

/** `more`: checks other features make of their own state (notify targets' given-up events). */
export function registerDoctor(app: App, live: () => number, more: () => DoctorCheck[] = () => []): void {
  app.rpc.handle(doctorRun, async (p) => {
    const problems: DoctorCheck[] = [];
    const config = readOr(() => app.config.config(), ConfigFile.parse({}), app.paths.config, problems);
    const projects = readOr(() => app.config.projects(), ProjectsFile.parse({}), app.paths.projects, problems);
    const report = await runDoctor({
      config,
      projects,
      env: process.env,
      svcHome: app.paths.home,
      configFile: app.paths.config,
      distDir: app.distDir,
      daemon: { pid: process.pid, uptimeMs: Date.now() - startedAt, live: live() },
      only: p.only,
    });
    const extra = p.only !== 'harnesses' ? more() : [];
    return {
      ...report,
      checks: [...problems, ...report.checks, ...extra],
      problems: report.problems + problems.length + extra.filter((c) => c.status === 'problem').length,
    };
  });
}
