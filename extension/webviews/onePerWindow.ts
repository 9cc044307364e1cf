// A kind of webview panel a window has one of (the Agents page, the Roles panel): showing
// it again reveals the open one, and a second panel VS Code restores after a reload is
// closed in favour of the one already open.
import type * as vscode from 'vscode';

export class OnePerWindow<P extends { reveal(): void }> {
  private current?: P;

  /** The open panel, revealed; else a new one. */
  show(make: () => P): P {
    if (this.current) {
      this.current.reveal();
      return this.current;
    }
    this.current = make();
    return this.current;
  }

  /** A panel VS Code kept across a reload becomes the one, unless one is open already (then it is closed). */
  restore(panel: vscode.WebviewPanel, make: (panel: vscode.WebviewPanel) => P): P {
    if (this.current) {
      panel.dispose();
      return this.current;
    }
    this.current = make(panel);
    return this.current;
  }

  /** The open panel, if any. */
  get open(): P | undefined {
    return this.current;
  }

  /** The panel says it is disposed. */
  closed(p: P): void {
    if (this.current === p) this.current = undefined;
  }
}
