// "svc: Install 'svc' Command in PATH" and "svc: Uninstall 'svc' Command from PATH": the
// same launcher as `svc install-cli` (shared/cli/installCli.ts), running this extension's
// svc with the Node the daemon runs on, so terminals outside VS Code and codex lanes'
// login shells find `svc`. When an update of the extension removed the svc a launcher of
// ours ran, activation points it at this one (refreshCliLauncher).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  cliLinkPath,
  describeInstallCli,
  describeUninstallCli,
  installCli,
  loginShellSvc,
  readInstalled,
  uninstallCli,
} from '../../shared/cli/installCli';
import { logger } from '../log';
import type { CommandDeps } from './commandDeps';

const log = logger('cli');

const place = () => ({
  platform: process.platform,
  home: process.env.HOME || os.homedir(),
  localAppData: process.env.LOCALAPPDATA,
});
const shimOf = (extensionPath: string) => path.join(extensionPath, 'bin', 'svc');

export async function installCliCommand(d: CommandDeps): Promise<void> {
  const nodePath = d.connection.nodePath;
  if (!nodePath) {
    void vscode.window.showErrorMessage(
      `svc: no supported Node was found to run the svc command with: ${d.connection.whyDown()}`,
    );
    return;
  }
  const where = place();
  const r = installCli({ ...where, nodePath, shimPath: shimOf(d.extensionUri.fsPath) });
  const ok = r.outcome !== 'taken' && r.outcome !== 'outsideHome';
  const line = describeInstallCli(
    r,
    ok && process.platform !== 'win32' ? loginShellSvc(process.env, where.home) : undefined,
    where.home,
  );
  log.info(line);
  if (!ok) void vscode.window.showErrorMessage(`svc: ${line}`);
  else if (/; but /.test(line)) void vscode.window.showWarningMessage(`svc: ${line}`);
  else void vscode.window.showInformationMessage(`svc: ${line}`);
}

export async function uninstallCliCommand(): Promise<void> {
  const r = uninstallCli(place());
  const line = describeUninstallCli(r);
  log.info(line);
  if (r.outcome === 'notOurs') void vscode.window.showErrorMessage(`svc: ${line}`);
  else void vscode.window.showInformationMessage(`svc: ${line}`);
}

/** A launcher of ours whose svc is gone (the extension was updated) runs this one from now on. */
export function refreshCliLauncher(extensionPath: string, nodePath: string | undefined): void {
  if (!nodePath) return;
  const where = place();
  const there = readInstalled(cliLinkPath(where));
  if (there.kind !== 'ours' || (fs.existsSync(there.shimPath) && fs.existsSync(there.nodePath))) return;
  const r = installCli({ ...where, nodePath, shimPath: shimOf(extensionPath) });
  log.info(
    `the svc launcher ran ${there.shimPath} with ${there.nodePath}, which no longer exist: ${describeInstallCli(r, undefined, where.home)}`,
  );
}
