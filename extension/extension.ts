// Extension entry point: activation wires the daemon connection, views and commands.
import type * as vscode from 'vscode';

export function activate(_context: vscode.ExtensionContext): void {
  // Views and commands are registered by the extension feature modules.
}

export function deactivate(): void {
  // The daemon outlives the window on purpose.
}
