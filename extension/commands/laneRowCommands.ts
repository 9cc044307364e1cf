// Power-user actions on a lane row: open its worktree in a new window, copy its branch,
// compare a builder's worktree with the commit it started from. Each acts on the lane the row names; a lane on another host has its folder there, which
// this window cannot open, so it says where and how instead.
import * as vscode from 'vscode';
import { lanesGet } from '../../shared/protocol/lanes';
import { NothingToDo } from '../errors/errorFunnel';
import type { CommandDeps } from './commandDeps';
import { conversationTarget } from './targets';
import { compareWorktreeWithCommit } from '../lanes/baseDiff';

export async function openWorktreeInNewWindow(d: CommandDeps, conv: number | undefined): Promise<void> {
  const t = await conversationTarget(conv, d.deck, d.deckView.selection, {
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

export async function copyBranch(d: CommandDeps, conv: number | undefined): Promise<void> {
  const t = await conversationTarget(conv, d.deck, d.deckView.selection, {
    what: 'copy the branch of',
    filter: (r) => !!r.git?.branch,
    none: 'no lane on a branch',
  });
  const branch = t.row?.git?.branch ?? (await d.connection.request(lanesGet, { lane: String(t.id) })).git?.branch;
  if (!branch) throw new NothingToDo(`#${t.id} is not on a branch (its HEAD is detached)`);
  await vscode.env.clipboard.writeText(branch);
  void vscode.window.showInformationMessage(`svc: copied the branch name ${branch}`);
}

/** Builder lanes (a --reuse respawn shares its directory's base): the worktree against the commit it was created from. */
export async function compareWithBase(d: CommandDeps, conv: number | undefined): Promise<void> {
  const t = await conversationTarget(conv, d.deck, d.deckView.selection, {
    what: 'compare with its base',
    filter: (r) => r.role === 'builder' && !!r.base && !r.reaped,
    none: 'no builder lane with a base commit',
  });
  const lane = await d.connection.request(lanesGet, { lane: String(t.id) });
  const who = `#${lane.id} ${lane.name}`;
  if (lane.role !== 'builder')
    throw new NothingToDo(`${who} is a ${lane.role} lane: Compare with Base shows a builder's work since its start`);
  if (lane.reaped) throw new NothingToDo(`${who} was reaped: its worktree is gone`);
  if (lane.host)
    throw new NothingToDo(
      `${who} runs on host ${lane.host}: its worktree ${lane.cwd} is there; compare it in a Remote-SSH window on ${lane.host}`,
    );
  if (!lane.baseSha)
    throw new NothingToDo(
      `${who} has no base commit on record (it was launched before svc kept one): compare its branch with git diff in ${lane.cwd}`,
    );
  await compareWorktreeWithCommit(`${lane.title} ↔ base ${lane.baseSha.slice(0, 8)}`, lane.cwd, lane.baseSha);
}
