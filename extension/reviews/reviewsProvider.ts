// The Reviews tree view. Empty until the review pipeline's methods land; the view's
// welcome content (package.json viewsWelcome) says so, and says why while the daemon is down.
import * as vscode from 'vscode';

export class ReviewsProvider implements vscode.TreeDataProvider<never> {
  private readonly emitter = new vscode.EventEmitter<undefined>();
  readonly onDidChangeTreeData = this.emitter.event;

  getTreeItem(n: never): vscode.TreeItem {
    return n;
  }

  getChildren(): never[] {
    return [];
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
