// "svc: Raise Spend Cap…" (a lane row's menu, the palette, and the notice shown when a cap
// stops a lane a person launched): asks for the new cap and sets it as the person, which
// lets a lane stopped at its cap go on.
import * as vscode from 'vscode';
import { formatCost, parseUsd } from '../../shared/format/money';
import { isSpendReport } from '../../shared/keys';
import { lanesBudget, lanesGet, laneReported } from '../../shared/protocol/lanes';
import type { DaemonConnection } from '../connection/daemonConnection';
import { funnel } from '../errors/errorFunnel';
import type { CommandDeps } from './commandDeps';
import { ask, conversationTarget } from './targets';

export async function raiseBudget(
  d: Pick<CommandDeps, 'connection' | 'deck' | 'deckView'>,
  conv: number | undefined,
): Promise<void> {
  const t = await conversationTarget(conv, d.deck, d.deckView.selection, {
    what: 'raise the spend cap of',
    filter: (r) => r.kind === 'lane',
    none: 'no lane to set a spend cap for',
  });
  const lane = await d.connection.request(lanesGet, { lane: String(t.id) });
  const b = lane.budget;
  const suggested = b.cap !== null ? Math.max(b.cap * 2, b.spent * 1.5) : Math.max(1, b.spent * 2);
  const text = await ask({
    title: `svc: Spend cap of ${lane.name}`,
    prompt: `Spent ${formatCost(b.spent)}${b.cap !== null ? ` of ${formatCost(b.cap)}` : ' (no cap)'}. New cap in US dollars:`,
    value: suggested.toFixed(2),
    validateInput: (v) => {
      const r = parseUsd(v);
      return 'why' in r ? r.why : undefined;
    },
  });
  const r = await d.connection.request(lanesBudget, {
    lane: String(t.id),
    usd: (parseUsd(text) as { usd: number }).usd,
  });
  const freed = r.released.length ? `; ${r.released.join(', ')} may go on` : '';
  const still = r.stillHeld.map((h) => `; ${h.lane} is still stopped (${h.text})`).join('');
  void vscode.window.showInformationMessage(
    `svc: spend cap of ${r.target} set to ${formatCost(r.cap)} (spent ${formatCost(r.spent)})${freed}${still}`,
  );
}

/**
 * The person's needs-you when a cap stops a lane they launched (its launcher is a person's
 * conversation, not a lane): a warning with the two ways on, raise the cap or stop the lane.
 */
export function watchSpendReports(
  connection: DaemonConnection,
  isLane: (convId: number) => boolean,
): vscode.Disposable {
  return connection.onNotification(laneReported, (p) => {
    void funnel('show the spend cap notice', async () => {
      const lane = await connection.request(lanesGet, { lane: p.lane });
      const report = lane.report;
      if (!report || report.seq !== p.seq || !isSpendReport(report)) return;
      // A lane launched by another lane (an orchestrator): its launcher decides, not the person.
      if (isLane(lane.parentId)) return;
      const raise = 'Raise Spend Cap…';
      const stop = 'Stop Lane';
      const choice = await vscode.window.showWarningMessage(
        `svc: ${report.body.split('\n')[0].replace(/^SPEND: /, '')} — no turn runs until the cap is raised.`,
        raise,
        stop,
      );
      if (choice === raise) await vscode.commands.executeCommand('svc.raiseBudget', lane.id);
      else if (choice === stop) await vscode.commands.executeCommand('svc.stopConversation', lane.id);
    });
  });
}
