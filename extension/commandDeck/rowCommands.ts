// What a click on a tree row runs (the Command Deck and the Reviews tree share it): like
// the Explorer, a click opens a preview tab and a double-click keeps it.
import * as vscode from 'vscode';

/**
 * A row's click opens its report as the Explorer opens a file: `vscode.open` is the one
 * command a tree hands its open event to, so a click gives a preview tab and a
 * double-click keeps it.
 */
export function reportCommand(file: string): vscode.Command {
  return { command: 'vscode.open', title: 'Open Report', arguments: [vscode.Uri.file(file)] };
}

/** A row's click opens its conversation in the preview tab; a double-click keeps it (previewConversation). */
export function previewCommand(convId: number): vscode.Command {
  return { command: 'svc.previewConversation', title: 'Open Conversation', arguments: [convId] };
}
