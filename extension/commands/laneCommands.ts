// Lane commands: start a lane (the guided pick of lanes/startLaneFlow.ts, prefilled from
// the selected row) and reap one with the park/keep choices (spec: Reap). Reap's report
// is the text `svc lane reap` prints, from the same formatter.
import * as vscode from 'vscode';
import { lanesReap, lanesStart } from '../../shared/protocol/lanes';
import { formatReapReport } from '../../shared/format/reapReport';
import { pickerHarnesses } from '../doctor/harnessHealth';
import { NothingToDo, UserCancelled } from '../errors/errorFunnel';
import { startLaneFlow } from '../lanes/startLaneFlow';
import type { Prompter } from '../lanes/startLaneFlow';
import { logger } from '../log';
import type { CommandDeps } from './commands';
import { conversationTarget, convIdOf } from './targets';

const log = logger('lanes');

/** The real prompts: quick picks, input boxes and an open dialog. */
export const vscodePrompter: Prompter = {
  async pick(items, o) {
    const qp = vscode.window.createQuickPick<(typeof items)[number]>();
    qp.title = o.title;
    qp.placeholder = o.placeholder;
    qp.items = items;
    qp.ignoreFocusOut = true;
    if (o.active) qp.activeItems = [o.active];
    return new Promise((resolve) => {
      qp.onDidAccept(() => {
        resolve(qp.selectedItems[0] ?? qp.activeItems[0]);
        qp.hide();
      });
      qp.onDidHide(() => {
        resolve(undefined);
        qp.dispose();
      });
      qp.show();
    });
  },
  input: (o) => Promise.resolve(vscode.window.showInputBox({ title: o.title, prompt: o.prompt, value: o.value, placeHolder: o.placeholder, ignoreFocusOut: true, validateInput: o.validate })),
  async openFile(o) {
    const picked = await vscode.window.showOpenDialog({ title: o.title, canSelectMany: false, canSelectFiles: true, canSelectFolders: false, defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri, filters: { Markdown: ['md', 'markdown', 'txt'], All: ['*'] } });
    return picked?.[0]?.fsPath;
  },
};

export async function startLane(d: CommandDeps, arg: unknown, prompter: Prompter = vscodePrompter): Promise<void> {
  const id = convIdOf(arg) ?? d.deckView.selection.find((n) => n.kind === 'conv')?.convId;
  const selected = id !== undefined ? d.deck.row(id) : undefined;
  const r = await startLaneFlow(prompter, selected, d.deck.currentRows, await pickerHarnesses(d.connection));
  if (!r) throw new UserCancelled();
  if ('nothing' in r) throw new NothingToDo(r.nothing);
  const lane = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `svc: starting a ${r.params.role} lane…` }, () => d.connection.request(lanesStart, r.params));
  // The same line `svc lane start` prints.
  const line = `Lane ${lane.run}/${lane.key} ${lane.role} i${lane.iteration}: conv ${lane.id} (${lane.name}) in ${lane.cwd}`;
  log.info(line);
  const choice = await vscode.window.showInformationMessage(line, 'Open');
  if (choice === 'Open') d.panels.show(lane.id);
}

const REAP_CHOICES = [
  { label: 'Reap', description: 'stop it, remove its folder and archive it; refused while it has uncommitted changes', park: false, keep: false },
  { label: 'Reap, parking uncommitted work', description: 'save its uncommitted changes to a patch file first, then remove the folder and archive it', park: true, keep: false },
  { label: 'Reap, keeping it in the Command Deck', description: 'remove its folder, but leave its row (marked reaped) in the deck', park: false, keep: true },
  { label: 'Reap, parking and keeping it', description: 'save uncommitted changes to a patch, remove the folder, leave the row in the deck', park: true, keep: true },
];

export async function reapLane(d: CommandDeps, arg: unknown): Promise<void> {
  const t = await conversationTarget(arg, d.deck, d.deckView.selection, { what: 'reap', filter: (r) => r.kind === 'lane' && !r.reaped, none: 'no lane to reap' });
  const dirty = t.row?.git?.dirty;
  const choice = await vscode.window.showQuickPick(
    dirty ? [REAP_CHOICES[1], REAP_CHOICES[3], REAP_CHOICES[0], REAP_CHOICES[2]] : REAP_CHOICES,
    { title: `svc: Reap #${t.id}${t.row ? ` ${t.row.name}` : ''}`, placeHolder: dirty ? 'Its worktree has uncommitted changes: park them, or the reap is refused' : 'Reap never kills a process and never discards work' },
  );
  if (!choice) throw new UserCancelled();
  const r = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `svc: reaping #${t.id}…` }, () =>
    d.connection.request(lanesReap, { lane: String(t.id), park: choice.park, keep: choice.keep }),
  );
  const text = formatReapReport(r);
  log.info(text);
  const lines = text.split('\n');
  const show = r.archive.state === 'failed' || r.unpushed.length || r.orphaned.length ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
  void show(`svc: ${lines.join('; ')}`);
}
