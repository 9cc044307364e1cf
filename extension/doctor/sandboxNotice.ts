// The first lane a window sees fail because its sandbox cannot start gets a notification
// with "Show Fix" (the fix, narrowest first, in an editor tab): the row alone says
// "failed-to-start", and the way out is a system change the person must make. The page is a
// read-only `svc-fix:` document, so closing it never asks to save a file nobody wrote.
import * as vscode from 'vscode';
import type { DeckRow } from '../commandDeck/deckTypes';
import { FirstSandboxTrouble, sandboxFixPage, sandboxTroubleMessage } from './sandboxTrouble';

export const SHOW_FIX = 'Show Fix';
const SCHEME = 'svc-fix';

export function watchSandboxTrouble(onRows: vscode.Event<readonly DeckRow[] | undefined>): vscode.Disposable {
  const first = new FirstSandboxTrouble();
  const pages = new Map<string, string>();
  const provider = vscode.workspace.registerTextDocumentContentProvider(SCHEME, {
    provideTextDocumentContent: (uri) => pages.get(uri.path) ?? '',
  });
  const watch = onRows((rows) => {
    const t = first.next(rows);
    if (!t) return;
    const uri = vscode.Uri.from({ scheme: SCHEME, path: `/sandbox fix for lane ${t.convId}.md` });
    pages.set(uri.path, sandboxFixPage(t));
    void vscode.window.showErrorMessage(sandboxTroubleMessage(t), SHOW_FIX).then(async (choice) => {
      if (choice !== SHOW_FIX) return;
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(doc, { preview: false });
    });
  });
  return vscode.Disposable.from(provider, watch);
}
