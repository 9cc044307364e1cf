// The status bar item: daemon health and how many conversations need the person.
// Clicking it runs "svc: Show Daemon Status".
import * as vscode from 'vscode';
import type { ConnectionState, DaemonConnection } from './daemonConnection';
import { statusText } from './statusText';

export class DaemonStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('svc.status', vscode.StatusBarAlignment.Left, 10);
  private needsYou: number | undefined;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly connection: DaemonConnection) {
    this.item.name = 'svc daemon';
    this.item.command = 'svc.showDaemonStatus';
    this.subscription = connection.onDidChangeState((s) => this.render(s));
    this.render(connection.state);
    this.item.show();
  }

  /** The count of conversations whose activity is needs-you; undefined when unknown. */
  setNeedsYou(n: number | undefined): void {
    if (n === this.needsYou) return;
    this.needsYou = n;
    this.render(this.connection.state);
  }

  private render(s: ConnectionState): void {
    const t = statusText(s, this.needsYou);
    this.item.text = t.text;
    this.item.tooltip = t.tooltip;
    this.item.backgroundColor = t.background ? new vscode.ThemeColor(t.background) : undefined;
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }
}
