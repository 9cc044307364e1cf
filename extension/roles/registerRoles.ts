// The Roles panel's command, `svc.openRoles` (palette, and a button on the Command Deck's
// title bar). Wired from extension.ts with one call; package.json contributes the command.
import * as vscode from 'vscode';
import type { DaemonConnection } from '../connection/daemonConnection';
import { funnel } from '../errors/errorFunnel';
import { RolesPanel } from './rolesPanel';

export const ROLES_COMMAND = 'svc.openRoles';

export function registerRoles(extensionUri: vscode.Uri, connection: DaemonConnection): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(ROLES_COMMAND, () => funnel('open the Roles panel', () => void RolesPanel.show(extensionUri, connection))),
    { dispose: () => RolesPanel.open?.dispose() },
  ];
}
