// An expanded Awareness card's lane list: the run's LaneRecords placed with the Command
// Deck's rule (critics and verifiers under the builder they judge; an orchestrator's
// lanes under it), archived lanes kept (they stay in the lane list, `stopped`). Pure.
import type { LaneRecord } from '../../shared/protocol/lanes';
import type { RunLaneView } from '../../shared/webview/awarenessMessages';
import { buildDeck, spendText, verdictText } from '../commandDeck/deckModel';
import type { DeckNode, DeckRow } from '../commandDeck/deckModel';

export function laneDeckRow(l: LaneRecord): DeckRow {
  return {
    id: l.id,
    name: l.name,
    title: l.title,
    kind: 'lane',
    parentId: l.parentId,
    activity: l.activity,
    archived: l.archived,
    model: l.model,
    role: l.role,
    run: l.run,
    key: l.key,
    iteration: l.iteration,
    reaped: l.reaped,
    host: l.host,
    judged: l.judged,
    verdict: l.verdict ? { verdict: l.verdict.verdict, defects: l.verdict.defects, by: l.verdict.by } : null,
    git: l.git ? { branch: l.git.branch, ahead: l.git.ahead, dirty: l.git.dirty } : null,
  };
}

export function runLaneTree(lanes: readonly LaneRecord[]): RunLaneView[] {
  const byId = new Map(lanes.map((l) => [l.id, l]));
  const view = (nodes: readonly DeckNode[]): RunLaneView[] =>
    nodes
      .filter((n) => n.kind === 'conv')
      .map((n) => {
        const l = byId.get(n.convId)!;
        const parts = [`#${l.id}`, l.archived ? 'stopped (archived)' : l.activity];
        if (l.host) parts.push(l.hostLost ? `on ${l.host} (connection lost, reconnecting)` : `on ${l.host}`);
        if (l.verdict) parts.push(verdictText(l.verdict));
        if (l.report) parts.push(`reported ${l.report.status}`);
        const spend = spendText(l.budget);
        if (spend) parts.push(spend);
        return {
          convId: l.id,
          label: `${l.role} i${l.iteration} · ${l.key}`,
          description: parts.join(' · '),
          activity: l.activity,
          children: view(n.children),
        };
      });
  return view(buildDeck(lanes.map(laneDeckRow), { keepArchived: true }));
}
