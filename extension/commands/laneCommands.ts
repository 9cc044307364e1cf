// Lane commands: start a lane (the guided flow of lanes/startLaneFlow.ts, prefilled from
// the last answers or the selected row; the brief written in an editor draft that "svc:
// Launch Lane" launches). Reap is reapCommand.ts.
import * as vscode from 'vscode';
import { configModels, configRoles } from '../../shared/protocol/config';
import { conversationsShow } from '../../shared/protocol/conversations';
import { lanesList, lanesRuns, lanesStart } from '../../shared/protocol/lanes';
import type { LaunchParams } from '../../shared/protocol/lanes';
import { laneStartLine } from '../../shared/format/laneStart';
import type { DeckRow } from '../commandDeck/deckModel';
import { DaemonRefusal } from '../../shared/client/daemonRefusal';
import type { HarnessChoice } from '../doctor/harnessChoices';
import { pickerHarnesses } from '../doctor/harnessHealth';
import { NothingToDo, UserCancelled } from '../errors/errorFunnel';
import { defaultLauncher } from '../lanes/startLane/flowDefaults';
import { BACK } from '../lanes/startLane/flowTypes';
import { startLaneFlow } from '../lanes/startLaneFlow';
import type { FlowFacts, LaneAnswers, Prompter } from '../lanes/startLane/flowTypes';
import { logger } from '../log';
import type { CommandDeps } from './commandDeps';

const log = logger('lanes');

/** The real prompts: quick picks and input boxes with a Back button, and an open dialog. */
export const vscodePrompter: Prompter = {
  pick(items, o) {
    const qp = vscode.window.createQuickPick<(typeof items)[number]>();
    qp.title = o.title;
    qp.placeholder = o.placeholder;
    qp.items = items;
    qp.ignoreFocusOut = true;
    qp.matchOnDescription = true;
    if (o.back) qp.buttons = [vscode.QuickInputButtons.Back];
    if (o.active) qp.activeItems = [o.active];
    return new Promise((resolve) => {
      qp.onDidTriggerButton((b) => {
        if (b !== vscode.QuickInputButtons.Back) return;
        resolve(BACK);
        qp.hide();
      });
      qp.onDidAccept(() => {
        const picked = qp.selectedItems[0] ?? qp.activeItems[0];
        if (!picked) return;
        resolve(picked);
        qp.hide();
      });
      qp.onDidHide(() => {
        resolve(undefined);
        qp.dispose();
      });
      qp.show();
    });
  },
  input(o) {
    const box = vscode.window.createInputBox();
    box.title = o.title;
    box.prompt = o.prompt;
    box.value = o.value ?? '';
    box.placeholder = o.placeholder;
    box.ignoreFocusOut = true;
    if (o.back) box.buttons = [vscode.QuickInputButtons.Back];
    // Validated as the person types (not before: the prompt shows first), and on Enter.
    const check = () => (box.validationMessage = o.validate?.(box.value));
    if (box.value) check();
    return new Promise((resolve) => {
      box.onDidChangeValue(check);
      box.onDidTriggerButton((b) => {
        if (b !== vscode.QuickInputButtons.Back) return;
        resolve(BACK);
        box.hide();
      });
      box.onDidAccept(() => {
        if (check()) return;
        resolve(box.value);
        box.hide();
      });
      box.onDidHide(() => {
        resolve(undefined);
        box.dispose();
      });
      box.show();
    });
  },
  async openFile(o) {
    const picked = await vscode.window.showOpenDialog({
      title: o.title,
      canSelectMany: false,
      canSelectFiles: true,
      canSelectFolders: false,
      defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
      filters: { Markdown: ['md', 'markdown', 'txt'], All: ['*'] },
    });
    return picked?.[0]?.fsPath;
  },
};

/**
 * The answers of the last Start Lane that did not launch (cancelled, sent to Roles,
 * refused, or waiting in its brief draft): the next Start Lane prefills them when it is
 * opened from the palette or for the same launcher. A launch clears them.
 */
let remembered: LaneAnswers | undefined;

function daemonFacts(d: CommandDeps, selected: DeckRow | undefined, harnesses: HarnessChoice[]): FlowFacts {
  const launcher = async (id: number) => {
    const c = await d.connection.request(conversationsShow, { conv: String(id) });
    return { project: c.project, harness: c.harness };
  };
  return {
    rows: d.deck.currentRows,
    selected,
    harnesses,
    launcher,
    async roleSettings(project, role) {
      const view = await d.connection.request(configRoles, {});
      const row = view.projects.find((p) => p.key === project)?.roles.find((r) => r.role === role);
      return { model: row?.model.value ?? null, harness: row?.harness.value ?? null };
    },
    async models(harness) {
      try {
        const m = await d.connection.request(configModels, { harness });
        return { models: m.models, ...(m.reason ? { note: m.reason } : {}) };
      } catch (e) {
        if (DaemonRefusal.is(e)) return { models: [], note: e.message };
        throw e;
      }
    },
    async lanes(run) {
      return (await d.connection.request(lanesList, { run })).lanes;
    },
    async runs(id) {
      const [{ project }, { cards }] = await Promise.all([launcher(id), d.connection.request(lanesRuns, {})]);
      return cards
        .filter((c) => c.project === project)
        .sort((x, y) => y.latest.at - x.latest.at)
        .map((c) => ({ run: c.run, lanes: c.lanes, counts: c.countsLine }));
    },
  };
}

export async function startLane(
  d: CommandDeps,
  conv: number | undefined,
  prompter: Prompter = vscodePrompter,
): Promise<void> {
  const id = conv ?? d.deckView.selection.find((n) => n.kind === 'conv')?.convId;
  const selected = id !== undefined ? d.deck.row(id) : undefined;
  const launcher = defaultLauncher(selected, d.deck.currentRows);
  const previous = remembered && (!launcher || launcher.id === remembered.launcher) ? remembered : undefined;
  const r = await startLaneFlow(prompter, daemonFacts(d, selected, await pickerHarnesses(d.connection)), previous);
  remembered = r.answers;
  if (r.kind === 'cancelled') throw new UserCancelled();
  if (r.kind === 'nothing') throw new NothingToDo(r.message);
  if (r.kind === 'openRoles') {
    await vscode.commands.executeCommand('svc.openRoles');
    void vscode.window.showInformationMessage(
      `svc: set the model for ${r.role}s${r.project ? ` of project ${r.project}` : ''} in Roles, then run "svc: Start Lane…" again: your answers are kept.`,
    );
    return;
  }
  if (r.kind === 'launch') return launch(d, r.params);
  const answers = r.answers;
  await d.drafts.open(
    'lane',
    [
      `The brief of a ${r.what}.`,
      'Write it below this comment, then run "svc: Launch Lane" (the button in the editor title bar).',
      'A refused launch leaves this draft open; "svc: Start Lane…" again keeps every answer.',
      'Closing this editor launches nothing.',
    ],
    answers.briefText ?? '',
    {
      submit: async (text) => {
        answers.briefText = text;
        await launch(d, { ...r.params, prompt: text });
      },
      closed: (text) => {
        if (remembered === answers) answers.briefText = text;
      },
    },
  );
}

/** Launches the lane; a launch clears the remembered answers, a refusal (thrown) keeps them. */
async function launch(d: CommandDeps, params: LaunchParams): Promise<void> {
  const lane = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `svc: starting a ${params.role} lane…` },
    () => d.connection.request(lanesStart, params),
  );
  remembered = undefined;
  // The same line `svc lane start` prints.
  const line = laneStartLine(lane);
  log.info(line);
  // Not awaited: a draft closes as soon as its lane is launched, not when this message goes.
  void vscode.window.showInformationMessage(line, 'Open').then((choice) => choice === 'Open' && d.panels.show(lane.id));
}
