// The `svc` command outside VS Code's terminal: what a login shell finds. codex runs every
// command of an agent in a login shell, whose profile resets PATH, so without svc's
// launcher (svc install-cli) a codex lane finds no `svc` and must fall back to $SVC_BIN;
// the person's own terminal has none either. A problem when a setting uses codex, a note
// otherwise; a launcher whose svc or Node is gone is always a problem.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cliLinkPath, loginShellSvc, pathFix, readInstalled } from '../../shared/cli/installCli';
import type { DoctorCheck } from '../../shared/protocol/doctor';

export interface CliCheckInput {
  env: NodeJS.ProcessEnv;
  home: string;
  platform: NodeJS.Platform;
  /** A role, review setting or profile uses codex. */
  codexUsed: boolean;
}

const INSTALL = `svc install-cli (in VS Code: "svc: Install 'svc' Command in PATH")`;

export function checkCli(i: CliCheckInput): DoctorCheck[] {
  const file = cliLinkPath({ platform: i.platform, home: i.home, localAppData: i.env.LOCALAPPDATA });
  const installed = readInstalled(file);
  const missing = i.codexUsed ? 'problem' : 'note';
  const who = i.codexUsed
    ? 'codex lanes (which run commands in a login shell) and your terminals'
    : 'your terminals, and codex lanes (which run commands in a login shell)';
  const check = (status: DoctorCheck['status'], text: string, fix: string | null): DoctorCheck[] => [
    { area: 'cli', subject: file, status, text, fix },
  ];
  if (installed.kind === 'other')
    return check(
      missing,
      `${file} is not svc's launcher, so svc install-cli leaves it alone`,
      `move ${file} away, then ${INSTALL}`,
    );
  if (installed.kind === 'ours') {
    const gone = [installed.shimPath, installed.nodePath].find((f) => !fs.existsSync(f));
    if (gone)
      return check(
        'problem',
        `${file} runs ${installed.shimPath} with ${installed.nodePath}, but ${gone} no longer exists`,
        INSTALL,
      );
  }
  if (i.platform === 'win32') {
    if (installed.kind === 'ours')
      return check('ok', `${file} runs ${installed.shimPath} with ${installed.nodePath}`, null);
    return check(missing, `svc is not installed as a command for ${who}`, INSTALL);
  }
  const found = loginShellSvc(i.env, i.home);
  if (installed.kind === 'none') {
    if (found)
      return check(
        'note',
        `a login shell finds svc at ${found}, which is not svc's launcher (svc install-cli writes ${file})`,
        INSTALL,
      );
    return check(missing, `a login shell does not find svc: ${who} have no svc command`, INSTALL);
  }
  if (found === file)
    return check('ok', `a login shell finds svc: ${file} runs ${installed.shimPath} with ${installed.nodePath}`, null);
  if (found)
    return check(
      missing,
      `a login shell finds ${found} before svc's launcher ${file}`,
      `remove ${found}, or put ${path.dirname(file)} before ${path.dirname(found)} on PATH`,
    );
  return check(
    missing,
    `a login shell does not find ${file}: ${path.dirname(file)} is not on its PATH`,
    pathFix(file, i.home),
  );
}
