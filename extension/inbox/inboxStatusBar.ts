// The Inbox's status bar item, `$(inbox) 2`: how many items wait on the person, shown while
// the inbox can be read; a click opens the Inbox view ("svc: Open Inbox"). No warning
// colour: the daemon's item already turns yellow while a conversation needs the person.
import * as vscode from 'vscode';
import type { InboxItem } from '../../shared/protocol/inbox';
import { inboxStatus } from './inboxModel';

export class InboxStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('svc.inbox', vscode.StatusBarAlignment.Left, 9);

  constructor() {
    this.item.name = 'svc inbox';
    this.item.command = 'svc.openInbox';
  }

  set(items: readonly InboxItem[] | undefined): void {
    if (!items) return this.item.hide();
    const s = inboxStatus(items);
    this.item.text = s.text;
    this.item.tooltip = s.tooltip;
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
