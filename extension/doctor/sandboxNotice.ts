// The first lane a window sees fail because its sandbox cannot start gets a notification
// with "Show Fix" (the fix, narrowest first, in an editor tab): the row alone says
// "failed-to-start", and the way out is a system change the person must make.
import * as vscode from 'vscode';
import type { DeckRow } from '../commandDeck/deckTypes';
import { FirstSandboxTrouble, sandboxFixPage, sandboxTroubleMessage } from './sandboxTrouble';

export const SHOW_FIX = 'Show Fix';

export function watchSandboxTrouble(onRows: vscode.Event<readonly DeckRow[] | undefined>): vscode.Disposable {
  const first = new FirstSandboxTrouble();
  return onRows((rows) => {
    const t = first.next(rows);
    if (!t) return;
    void vscode.window.showErrorMessage(sandboxTroubleMessage(t), SHOW_FIX).then(async (choice) => {
      if (choice !== SHOW_FIX) return;
      const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: sandboxFixPage(t) });
      await vscode.window.showTextDocument(doc, { preview: false });
    });
  });
}
