// Daemon commands: start it, show its status, show its log. The log works while the
// daemon is down (it is a file in SVC_HOME).
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { daemonStatus } from '../../shared/protocol/daemon';
import { homePaths } from '../../shared/svcHome';
import type { DaemonConnection } from '../connection/daemonConnection';
import { plural } from '../connection/statusText';
import { SHOW_DAEMON_LOG } from '../errors/errorFunnel';

export async function startDaemon(connection: DaemonConnection): Promise<void> {
  await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'svc: starting the daemon' }, () => connection.start());
  const s = connection.state;
  if (s.kind === 'connected') void vscode.window.showInformationMessage(`svc daemon ${s.info.version} is running (pid ${s.info.pid}).`);
  else if (s.kind === 'noNode') void vscode.window.showErrorMessage(`svc cannot start its daemon: ${s.problem}. Fix: ${s.fix}.`);
  else void vscode.window.showErrorMessage(`svc: the daemon did not start: ${connection.whyDown()}.`, SHOW_DAEMON_LOG).then((c) => c && vscode.commands.executeCommand('svc.showDaemonLog'));
}

export async function showDaemonStatus(connection: DaemonConnection): Promise<void> {
  const i = await connection.request(daemonStatus, {});
  const up = Math.round(i.uptimeMs / 60_000);
  const choice = await vscode.window.showInformationMessage(
    `svc daemon ${i.version} (build ${i.build}), pid ${i.pid}, up ${up} min: ${plural(i.conversations, 'conversation')}, ${i.live} live. SVC_HOME ${i.svcHome}`,
    SHOW_DAEMON_LOG,
  );
  if (choice) await vscode.commands.executeCommand('svc.showDaemonLog');
}

export async function showDaemonLog(connection: DaemonConnection): Promise<void> {
  const file = homePaths(connection.home).daemonLog;
  if (!fs.existsSync(file)) {
    void vscode.window.showInformationMessage(`svc: there is no daemon log yet (${file}); the daemon writes it when it first starts.`);
    return;
  }
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
  const editor = await vscode.window.showTextDocument(doc, { preview: true });
  const end = doc.lineAt(doc.lineCount - 1).range.end;
  editor.revealRange(new vscode.Range(end, end));
}
