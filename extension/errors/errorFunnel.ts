// The one error funnel (docs/style.md §8) for commands and webview messages: a user cancellation
// is quiet, a daemon refusal shows the daemon's message, a down daemon says why and
// offers to start it (a notice that closes itself on reconnect), and anything else is a bug: logged with its stack, shown with a
// "Show Log" action.
import * as vscode from 'vscode';
import { DaemonRefusal } from '../../shared/client/daemonRefusal';
import { DaemonDown } from '../connection/daemonErrors';
import { logger, outputChannel } from '../log';
import { showDaemonDownNotice } from './daemonDownNotice';
import { refusalFix } from './cliHints';

const log = logger('errors');

/** Thrown (or returned from a picker) when the user backs out; never shown. */
export class UserCancelled extends Error {
  constructor() {
    super('cancelled');
    this.name = 'UserCancelled';
  }
}

/** A remedy the window can run, offered as a button beside a message. */
export interface Remedy {
  button: string;
  command: string;
  args?: unknown[];
}

/** Nothing to act on (no conversation needs an answer, no issue to review): said plainly, not as an error; with a button when there is something to do first. */
export class NothingToDo extends Error {
  constructor(
    message: string,
    readonly remedy?: Remedy,
  ) {
    super(message);
    this.name = 'NothingToDo';
  }
}

export const SHOW_DAEMON_LOG = 'Show Daemon Log';
export const SHOW_LOG = 'Show Log';

/** Runs `fn`, reporting any failure once. `what` names the action for the messages. */
export async function funnel<T>(what: string, fn: () => T | Promise<T>): Promise<T | undefined> {
  try {
    return await fn();
  } catch (e) {
    report(what, e);
    return undefined;
  }
}

export function report(what: string, e: unknown): void {
  if (e instanceof UserCancelled || e instanceof vscode.CancellationError) return;
  if (e instanceof NothingToDo) {
    const remedy = e.remedy;
    if (remedy)
      void vscode.window
        .showInformationMessage(`svc: ${e.message}`, remedy.button)
        .then((c) => c && vscode.commands.executeCommand(remedy.command, ...(remedy.args ?? [])));
    else void vscode.window.showInformationMessage(`svc: ${e.message}`);
    return;
  }
  if (DaemonDown.is(e)) {
    log.warn(`${what}: ${e.message}`);
    showDaemonDownNotice(what, e.message);
    return;
  }
  if (DaemonRefusal.is(e)) {
    log.info(`${what}: refused (${e.reason}): ${e.message}`);
    const fix = refusalFix(e);
    if (fix)
      void vscode.window
        .showErrorMessage(fix.message, fix.button)
        .then((c) => c && vscode.commands.executeCommand(fix.command, ...fix.args));
    else void vscode.window.showErrorMessage(e.message);
    return;
  }
  log.error(`${what} failed`, e);
  const message = e instanceof Error ? e.message : String(e);
  void vscode.window.showErrorMessage(`svc: ${what} failed: ${message}`, SHOW_LOG).then(followUp);
}

function followUp(choice: string | undefined): void {
  if (choice === SHOW_LOG) outputChannel().show(true);
}
