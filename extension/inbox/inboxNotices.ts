// A notification for each new inbox item, with the buttons that act on it (a request's
// choices answer it from the toast), except for kinds muted in `svc.inbox.mutedKinds`.
// Spend holds are left out: the spend notice (commands/budgetCommand.ts) already says so
// when a cap stops a lane the person launched, with Raise Spend Cap… and Stop Lane.
import * as vscode from 'vscode';
import { conversationsAnswer } from '../../shared/protocol/conversations';
import type { InboxItem } from '../../shared/protocol/inbox';
import type { DaemonConnection } from '../connection/daemonConnection';
import { funnel } from '../errors/errorFunnel';
import { logger } from '../log';
import { itemKey, newItems, noticeOf } from './inboxModel';

export const MUTED_KINDS_SETTING = 'inbox.mutedKinds';
const log = logger('inbox');

export class InboxNotices {
  /** The items of the previous read; undefined until the first (which announces nothing). */
  private seen: Set<string> | undefined;

  constructor(private readonly connection: DaemonConnection) {}

  /** Called with every read's items; announces those new since the previous read. */
  update(items: readonly InboxItem[] | undefined): void {
    // While the daemon is down nothing is known; what was seen stays seen.
    if (!items) return;
    const muted = vscode.workspace.getConfiguration('svc').get<string[]>(MUTED_KINDS_SETTING) ?? [];
    const fresh = newItems(this.seen, items, [...muted, 'spend']);
    this.seen = new Set(items.map(itemKey));
    for (const item of fresh) log.info(`new inbox item ${item.id}: ${item.title}`);
    for (const item of fresh) void funnel(`act on ${item.id}`, () => this.show(item));
  }

  private async show(item: InboxItem): Promise<void> {
    const { message, actions } = noticeOf(item);
    const labels = actions.map((a) => a.label);
    const picked =
      item.kind === 'failed-start'
        ? await vscode.window.showErrorMessage(message, ...labels)
        : await vscode.window.showWarningMessage(message, ...labels);
    const action = actions.find((a) => a.label === picked);
    if (!action) return;
    const convId = item.conversation?.id;
    if (action.run === 'openInbox') return void (await vscode.commands.executeCommand('svc.openInbox'));
    if (action.run === 'command') return void (await vscode.commands.executeCommand(action.command, convId));
    const r = await this.connection.request(conversationsAnswer, { conv: String(convId), option: action.option });
    void vscode.window.showInformationMessage(`svc: answered #${convId}: ${r.answered.title}`);
  }
}
