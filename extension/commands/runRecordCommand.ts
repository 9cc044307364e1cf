// "svc: Export Run Record…" (the palette, and the Awareness card's context menu): asks
// which run (a card passes its own), where to save, then writes the page the daemon made
// (runs/export) and offers to open it.
import * as vscode from 'vscode';
import { lanesRuns } from '../../shared/protocol/lanes';
import { runsExport } from '../../shared/protocol/runRecord';
import { UserCancelled } from '../errors/errorFunnel';
import type { RunTarget } from './commandArgs';
import type { CommandDeps } from './commandDeps';

/** `run`: the one a card's context menu names (its `data-vscode-context`), else a pick. */
export async function exportRunRecord(d: Pick<CommandDeps, 'connection'>, run: RunTarget | undefined): Promise<void> {
  let target = run;
  if (!target) {
    const { cards } = await d.connection.request(lanesRuns, {});
    if (cards.length === 0) {
      void vscode.window.showInformationMessage('svc: no gauntlet runs to export yet');
      return;
    }
    const pick = await vscode.window.showQuickPick(
      cards.map((c) => ({
        label: c.run,
        description: c.project,
        detail: `${c.countsLine} · ${c.spend.text}`,
        card: c,
      })),
      { title: 'svc: Export Run Record', placeHolder: 'Which run?' },
    );
    if (!pick) throw new UserCancelled();
    target = { run: pick.card.run, project: pick.card.project };
  }
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const name = `svc-run-${target.project}-${target.run}.html`;
  const uri = await vscode.window.showSaveDialog({
    title: `svc: Export the record of run ${target.run}`,
    defaultUri: folder ? vscode.Uri.joinPath(folder, name) : undefined,
    filters: { 'HTML page': ['html'] },
    saveLabel: 'Export',
  });
  if (!uri) throw new UserCancelled();
  const r = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `svc: exporting run ${target.run}…` },
    () => d.connection.request(runsExport, { run: target.run, project: target.project, format: 'html' }),
  );
  await vscode.workspace.fs.writeFile(uri, Buffer.from(r.html ?? '', 'utf8'));
  const open = 'Open in Browser';
  const choice = await vscode.window.showInformationMessage(
    `svc: run record of ${target.project}/${target.run} saved to ${uri.fsPath}`,
    open,
  );
  if (choice === open) await vscode.env.openExternal(uri);
}
