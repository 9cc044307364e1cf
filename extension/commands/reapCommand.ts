// Reap from the window: the park/keep choices (spec: Reap), and a refusal that can be
// acted on. A plain reap of a lane with uncommitted work is refused (the daemon's typed
// `dirty` reason, or the deck's own dirty flag before anything is sent, so nothing is
// stopped); the refusal offers "Reap with Park". After a park the report offers the patch
// and the exact command that restores it. The report is the text `svc lane reap` prints.
import * as vscode from 'vscode';
import { DaemonRefusal } from '../../shared/client/daemonRefusal';
import { formatReapReport } from '../../shared/format/reapReport';
import type { ReapReport } from '../../shared/format/reapReport';
import { lanesReap } from '../../shared/protocol/lanes';
import { UserCancelled } from '../errors/errorFunnel';
import { logger } from '../log';
import type { CommandDeps } from './commandDeps';
import { conversationTarget } from './targets';
import type { ConvTarget } from './targets';

const log = logger('lanes');

const REAP_CHOICES = [
  {
    label: 'Reap',
    description: 'stop it, remove its folder and archive it; refused while it has uncommitted changes',
    park: false,
    keep: false,
  },
  {
    label: 'Reap, parking uncommitted work',
    description: 'save its uncommitted changes to a patch file first, then remove the folder and archive it',
    park: true,
    keep: false,
  },
  {
    label: 'Reap, keeping it in the Command Deck',
    description: 'remove its folder, but leave its row (marked reaped) in the deck',
    park: false,
    keep: true,
  },
  {
    label: 'Reap, parking and keeping it',
    description: 'save uncommitted changes to a patch, remove the folder, leave the row in the deck',
    park: true,
    keep: true,
  },
];

export const REAP_WITH_PARK = 'Reap with Park';
export const OPEN_PATCH = 'Open Patch';
export const COPY_RESTORE = 'Copy Restore Command';

export async function reapLane(d: CommandDeps, conv: number | undefined): Promise<void> {
  const t = await conversationTarget(conv, d.deck, d.deckView.selection, {
    what: 'reap',
    filter: (r) => r.kind === 'lane' && !r.reaped,
    none: 'no lane to reap',
  });
  const dirty = t.row?.git?.dirty;
  const choice = await vscode.window.showQuickPick(
    dirty ? [REAP_CHOICES[1], REAP_CHOICES[3], REAP_CHOICES[0], REAP_CHOICES[2]] : REAP_CHOICES,
    {
      title: `svc: Reap #${t.id}${t.row ? ` ${t.row.name}` : ''}`,
      placeHolder: dirty
        ? 'Its worktree has uncommitted changes: park them, or the reap is refused'
        : 'Reap never kills a process and never discards work',
    },
  );
  if (!choice) throw new UserCancelled();
  await reap(d, t, choice.park, choice.keep);
}

async function reap(d: CommandDeps, t: ConvTarget, park: boolean, keep: boolean): Promise<void> {
  // The deck already knows the worktree is dirty (the daemon's own git facts): refuse here,
  // before a request that would stop the agent on its way to the same refusal.
  if (!park && t.row?.git?.dirty) {
    return offerPark(
      d,
      t,
      keep,
      `svc: #${t.id} ${t.row.name} has uncommitted work, so a plain reap is refused; nothing was stopped or removed. Park the work in a patch and reap?`,
    );
  }
  let r: ReapReport;
  try {
    r = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `svc: reaping #${t.id}…` },
      () => d.connection.request(lanesReap, { lane: String(t.id), park, keep }),
    );
  } catch (e) {
    // The daemon's word is final (the deck's facts may be a moment old): matched by reason, never by text.
    if (!park && DaemonRefusal.is(e) && e.reason === 'dirty') {
      log.info(`reap #${t.id}: refused (dirty): ${e.message}`);
      return offerPark(d, t, keep, `svc: ${e.message.split('\n')[0]}`);
    }
    throw e;
  }
  const text = formatReapReport(r);
  log.info(text);
  const message = `svc: ${text.split('\n').join('; ')}`;
  const show =
    r.archive.state === 'failed' || r.unpushed.length || r.orphaned.length
      ? vscode.window.showWarningMessage
      : vscode.window.showInformationMessage;
  if (!r.park) return void show(message);
  const parked = r.park;
  const restore = r.removed === 'worktree' ? parked.restoreAfterRemoveCommand : parked.restoreCommand;
  void show(message, OPEN_PATCH, COPY_RESTORE).then(async (choice) => {
    if (choice === OPEN_PATCH)
      await vscode.window.showTextDocument(vscode.Uri.file(parked.patchFile), { preview: false });
    else if (choice === COPY_RESTORE) {
      await vscode.env.clipboard.writeText(restore);
      void vscode.window.showInformationMessage(`svc: copied the restore command: ${restore}`);
    }
  });
}

/** The refusal of a plain reap, with the reap that saves the work first. */
async function offerPark(d: CommandDeps, t: ConvTarget, keep: boolean, message: string): Promise<void> {
  const choice = await vscode.window.showErrorMessage(message, REAP_WITH_PARK);
  if (choice === REAP_WITH_PARK) await reap(d, t, true, keep);
}
