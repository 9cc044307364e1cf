// Runs every check with the daemon's environment and config: what agents inherit is what
// is checked. The daemon's own health is a check too; a client that cannot reach the
// daemon reports that itself (shared/format/doctorText.ts).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ConfigFile, ProjectsFile } from '../../shared/config';
import type { DoctorCheck, DoctorReport, HarnessHealth } from '../../shared/protocol/doctor';
import { SVC_VERSION } from '../../shared/version';
import { BUILT_IN_HARNESSES, resolveProfile } from '../harness/profiles';
import { checkCli } from './cliCheck';
import { checkCodeHosts } from './codehostCheck';
import { checkGit } from './gitCheck';
import { checkHarness } from './harnessCheck';
import { checkHome } from './homeCheck';
import { checkNode } from './nodeCheck';
import { checkRoleApprovals } from './roleApprovals';
import { checkSandbox } from './sandboxCheck';
import { usedHarnesses } from './usedHarnesses';

export interface DoctorInput {
  config: ConfigFile;
  projects: ProjectsFile;
  env: NodeJS.ProcessEnv;
  svcHome: string;
  configFile: string;
  distDir: string;
  daemon: { pid: number; uptimeMs: number; live: number };
  only?: 'harnesses';
}

function shown(file: string, env: NodeJS.ProcessEnv): string {
  const home = env.HOME;
  return home && file.startsWith(home + path.sep) ? `~${file.slice(home.length)}` : file;
}

export async function runDoctor(i: DoctorInput): Promise<DoctorReport> {
  const configShown = shown(i.configFile, i.env);
  const used = usedHarnesses(i.config, i.projects);
  const custom = Object.keys(i.config.harnesses).filter((h) => !(BUILT_IN_HARNESSES as readonly string[]).includes(h));
  const harnesses: HarnessHealth[] = [];
  const checks: DoctorCheck[] = [];
  const results = await Promise.all(
    [...BUILT_IN_HARNESSES, ...custom].map(async (name) => {
      try {
        const profile = resolveProfile(name, i.config, i.distDir, configShown);
        return await checkHarness({
          profile,
          builtIn: (BUILT_IN_HARNESSES as readonly string[]).includes(name),
          used: used.has(name),
          env: i.env,
          configShown,
        });
      } catch (e) {
        return {
          health: null,
          checks: [
            {
              area: 'harness',
              subject: name,
              status: 'problem' as const,
              text: `${name}: ${(e as Error).message}`,
              fix: `fix harnesses.${name} in ${configShown}`,
            },
          ],
        };
      }
    }),
  );
  for (const r of results) {
    if (r.health) harnesses.push(r.health);
    checks.push(...r.checks);
  }
  if (i.only !== 'harnesses') {
    checks.push(
      ...(await checkNode(
        i.env,
        process.version,
        harnesses.find((h) => h.name === 'claude' && h.installed)?.path ?? null,
      )),
    );
    const home = i.env.HOME && fs.existsSync(i.env.HOME) ? i.env.HOME : i.svcHome;
    checks.push(...(await checkGit(i.env, home)));
    checks.push(...checkHome(i.svcHome));
    checks.push(
      ...checkCli({
        env: i.env,
        home: i.env.HOME || os.homedir(),
        platform: process.platform,
        codexUsed: used.has('codex'),
      }),
    );
    checks.push({
      area: 'daemon',
      subject: 'daemon',
      status: 'ok',
      text: `daemon pid ${i.daemon.pid}, version ${SVC_VERSION}, up ${Math.round(i.daemon.uptimeMs / 1000)} s, ${i.daemon.live} live agent(s)`,
      fix: null,
    });
    checks.push(...checkCodeHosts(i.projects, i.config, i.env, configShown));
    checks.push(...checkRoleApprovals(i.projects));
    checks.push(...(await checkSandbox(i.projects, i.config, i.env)));
  }
  return { harnesses, checks, problems: checks.filter((c) => c.status === 'problem').length };
}
