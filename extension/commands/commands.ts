// Palette and view commands. Each runs through the error funnel, so while the daemon is
// down a command that needs it says why and offers to start it; commands that do not
// need it (the logs, starting the daemon) always work.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { conversationsShow } from '../../shared/protocol/conversations';
import { daemonStatus } from '../../shared/protocol/daemon';
import { homePaths } from '../../shared/svcHome';
import type { DeckProvider } from '../commandDeck/deckProvider';
import type { DaemonConnection } from '../connection/daemonConnection';
import { conversationUri } from '../conversations/conversationLog';
import { plural } from '../connection/statusText';
import { funnel, SHOW_DAEMON_LOG } from '../errors/errorFunnel';
import { outputChannel } from '../log';

/** Every command id the extension registers; package.json must contribute each (an in-host test checks). */
export const COMMAND_IDS = ['svc.startDaemon', 'svc.showDaemonStatus', 'svc.showDaemonLog', 'svc.showLog', 'svc.openConversation'] as const;
export type CommandId = (typeof COMMAND_IDS)[number];

export interface CommandDeps {
  connection: DaemonConnection;
  deck: DeckProvider;
  deckView: vscode.TreeView<unknown>;
}

export function registerCommands(d: CommandDeps): vscode.Disposable[] {
  const command = (id: CommandId, what: string, fn: (...args: unknown[]) => unknown) =>
    vscode.commands.registerCommand(id, (...args: unknown[]) => funnel(what, () => fn(...args)));
  return [
    command('svc.startDaemon', 'start the daemon', () => startDaemon(d.connection)),
    command('svc.showDaemonStatus', 'show the daemon status', () => showDaemonStatus(d.connection)),
    command('svc.showDaemonLog', 'show the daemon log', () => showDaemonLog(d.connection)),
    command('svc.showLog', 'show the log', () => outputChannel().show(true)),
    command('svc.openConversation', 'open the conversation', (id) => openConversation(d, id)),
  ];
}

async function startDaemon(connection: DaemonConnection): Promise<void> {
  await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'svc: starting the daemon' }, () => connection.start());
  const s = connection.state;
  if (s.kind === 'connected') void vscode.window.showInformationMessage(`svc daemon ${s.info.version} is running (pid ${s.info.pid}).`);
  else if (s.kind === 'noNode') void vscode.window.showErrorMessage(`svc cannot start its daemon: ${s.problem}. Fix: ${s.fix}.`);
  else void vscode.window.showErrorMessage(`svc: the daemon did not start: ${connection.whyDown()}.`, SHOW_DAEMON_LOG).then((c) => c && vscode.commands.executeCommand('svc.showDaemonLog'));
}

async function showDaemonStatus(connection: DaemonConnection): Promise<void> {
  const i = await connection.request(daemonStatus, {});
  const up = Math.round(i.uptimeMs / 60_000);
  const choice = await vscode.window.showInformationMessage(
    `svc daemon ${i.version} (build ${i.build}), pid ${i.pid}, up ${up} min: ${plural(i.conversations, 'conversation')}, ${i.live} live. SVC_HOME ${i.svcHome}`,
    SHOW_DAEMON_LOG,
  );
  if (choice) await vscode.commands.executeCommand('svc.showDaemonLog');
}

async function showDaemonLog(connection: DaemonConnection): Promise<void> {
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

/** Until the conversation panel lands, opening a conversation shows its output (and selects its row). */
async function openConversation(d: CommandDeps, id: unknown): Promise<void> {
  const convId = typeof id === 'number' ? id : typeof id === 'object' && id !== null && 'convId' in id ? Number((id as { convId: unknown }).convId) : NaN;
  if (!Number.isInteger(convId)) throw new Error(`svc.openConversation needs a conversation id, got ${JSON.stringify(id)}`);
  const info = await d.connection.request(conversationsShow, { conv: String(convId) });
  const doc = await vscode.workspace.openTextDocument(conversationUri(info.id, info.name));
  await vscode.window.showTextDocument(doc, { preview: true });
  const node = d.deck.node(convId);
  if (node && d.deckView.visible) await d.deckView.reveal(node, { select: true, focus: false, expand: true });
}
