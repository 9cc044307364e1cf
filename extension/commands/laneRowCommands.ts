// Power-user actions on a lane row: open its worktree in a new window, copy its branch.
// Both act on the lane the row names; a lane on another host has its folder there, which
// this window cannot open, so it says where and how instead.
import * as vscode from 'vscode';
import { lanesGet } from '../../shared/protocol/lanes';
import { NothingToDo } from '../errors/errorFunnel';
import type { CommandDeps } from './commandDeps';
import { conversationTarget } from './targets';

export async function openWorktreeInNewWindow(d: CommandDeps, arg: unknown): Promise<void> {
  const t = await conversationTarget(arg, d.deck, d.deckView.selection, {
    what: 'open in a new window',
    filter: (r) => r.kind === 'lane' && !r.reaped,
    none: 'no lane to open',
  });
  const lane = await d.connection.request(lanesGet, { lane: String(t.id) });
  if (lane.reaped) throw new NothingToDo(`#${lane.id} ${lane.name} was reaped: its folder is gone`);
  if (lane.host)
    throw new NothingToDo(
      `#${lane.id} ${lane.name} runs on host ${lane.host}: its folder ${lane.cwd} is there; open it with a Remote-SSH window on ${lane.host}`,
    );
  await vscode.commands.executeCommand('vscode.openFolder', vscode.Uri.file(lane.cwd), { forceNewWindow: true });
}

export async function copyBranch(d: CommandDeps, arg: unknown): Promise<void> {
  const t = await conversationTarget(arg, d.deck, d.deckView.selection, {
    what: 'copy the branch of',
    filter: (r) => !!r.git?.branch,
    none: 'no lane on a branch',
  });
  const branch = t.row?.git?.branch ?? (await d.connection.request(lanesGet, { lane: String(t.id) })).git?.branch;
  if (!branch) throw new NothingToDo(`#${t.id} is not on a branch (its HEAD is detached)`);
  await vscode.env.clipboard.writeText(branch);
  void vscode.window.showInformationMessage(`svc: copied the branch name ${branch}`);
}
