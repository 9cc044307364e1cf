// Commands of the trees' rows and title bars: open a report file (a reviewer's or a
// critic's), the Command Deck's "Show Archived" / "Live Only" toggles, and a PR row's
// Merge and Open PR.
import * as vscode from 'vscode';
import { prMerge } from '../../shared/protocol/pr';
import { NothingToDo, UserCancelled } from '../errors/errorFunnel';
import type { PrTarget } from './commandArgs';
import type { CommandDeps } from './commandDeps';

/** Context keys the deck's title bar reads to show each toggle's other half. */
export const DECK_SHOW_ARCHIVED = 'svc.deck.showArchived';
export const DECK_LIVE_ONLY = 'svc.deck.liveOnly';

/**
 * "Open Report" (a reviewer's or a critic's row, the Conversation panel's button): an
 * explicit open, so the tab is kept. A reviewer row's click opens a preview instead
 * (rowCommands.reportCommand); a critic row's click opens its conversation, and this its
 * verdict file.
 */
export async function openReport(file: string | undefined): Promise<void> {
  if (!file) throw new NothingToDo('this row has no report yet');
  await vscode.commands.executeCommand('vscode.open', vscode.Uri.file(file), { preview: false });
}

export async function setDeckFilter(d: CommandDeps, o: { keepArchived?: boolean; liveOnly?: boolean }): Promise<void> {
  d.deck.setOptions(o);
  if (o.keepArchived !== undefined)
    await vscode.commands.executeCommand('setContext', DECK_SHOW_ARCHIVED, o.keepArchived);
  if (o.liveOnly !== undefined) await vscode.commands.executeCommand('setContext', DECK_LIVE_ONLY, o.liveOnly);
}

/** The PR a row names, else the one open PR of the Reviews view. */
function prTarget(d: CommandDeps, a: PrTarget): { issue: string; pr: NonNullable<PrTarget['pr']> } {
  let pr = a.pr;
  if (!pr && typeof a.issue === 'string') {
    const s = d.reviews.issues.find((i) => i.issue.id === a.issue);
    if (s?.pr) pr = { number: s.pr.number, url: s.pr.url, project: s.issue.project };
  }
  if (!pr) {
    const open = d.reviews.issues.filter((s) => s.pr?.state === 'open');
    if (open.length !== 1) throw new NothingToDo("run Merge PR or Open PR on an issue's PR row in the Reviews view");
    const s = open[0];
    return { issue: s.issue.id, pr: { number: s.pr!.number, url: s.pr!.url, project: s.issue.project } };
  }
  return { issue: a.issue ?? '', pr };
}

export async function mergePr(d: CommandDeps, target: PrTarget): Promise<void> {
  const { issue, pr } = prTarget(d, target);
  const go = await vscode.window.showWarningMessage(
    `Merge PR #${pr.number}${issue ? ` of ${issue}` : ''} into its base branch?`,
    {
      modal: true,
      detail: 'svc merges only a PR approved for its current head with checks green; otherwise it says why not.',
    },
    'Merge',
  );
  if (go !== 'Merge') throw new UserCancelled();
  const r = await d.connection.request(prMerge, { project: pr.project, pr: String(pr.number) });
  void vscode.window.showInformationMessage(`svc: merged PR #${r.pr.number} (${r.method}) at ${r.sha.slice(0, 7)}.`);
  d.reviews.refresh();
}

export async function openPr(d: CommandDeps, target: PrTarget): Promise<void> {
  const { pr } = prTarget(d, target);
  if (!pr.url)
    throw new NothingToDo(
      `PR #${pr.number} has no web page: the project uses the local code host, whose pull requests live in svc only (its row in the Reviews view shows its state)`,
    );
  await vscode.env.openExternal(vscode.Uri.parse(pr.url));
}
