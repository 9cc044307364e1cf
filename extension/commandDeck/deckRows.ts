// Joins the daemon's conversation list with its lane list into Command Deck rows. Pure:
// the daemon computes activity, verdicts and git facts; this only merges by id. A builder's
// queued or running landing (lanes/landings) marks the row of the lane it lands.
import type { ConversationInfo } from '../../shared/protocol/conversations';
import type { Landing } from '../../shared/protocol/land';
import type { LaneRecord } from '../../shared/protocol/lanes';
import type { DeckRow } from './deckModel';

export function deckRows(
  conversations: readonly ConversationInfo[],
  lanes: readonly LaneRecord[],
  landings: readonly Landing[] = [],
): DeckRow[] {
  const laneById = new Map(lanes.map((l) => [l.id, l]));
  const landingOf = new Map<number, DeckRow['landing']>();
  for (const l of landings)
    if ((l.state === 'queued' || l.state === 'running') && !landingOf.has(l.laneId))
      landingOf.set(l.laneId, { id: l.id, base: l.base, state: l.state, position: l.position ?? 0, pr: l.pr });
  return conversations.map((c) => {
    const row: DeckRow = {
      id: c.id,
      name: c.name,
      title: c.title,
      kind: c.kind,
      parentId: c.parentId,
      activity: c.activity,
      archived: c.archived,
      model: c.model,
      issueId: c.issueId,
      cost: c.cost,
    };
    if (c.hostLost) row.hostLost = c.hostLost.text;
    if (c.spawnError) row.spawnError = c.spawnError;
    if (c.review) row.review = { runId: c.review.runId, role: c.review.role };
    const lane = laneById.get(c.id);
    if (lane) {
      row.role = lane.role;
      row.run = lane.run;
      row.key = lane.key;
      row.iteration = lane.iteration;
      row.reaped = lane.reaped;
      if (lane.host) row.host = lane.host;
      if (lane.sandbox) row.sandbox = lane.sandbox;
      row.judged = lane.judged;
      row.report = lane.report ? { status: lane.report.status } : null;
      row.verdict = lane.verdict
        ? {
            verdict: lane.verdict.verdict,
            defects: lane.verdict.defects,
            by: lane.verdict.by,
            verdictFile: lane.verdict.verdictFile,
          }
        : null;
      row.budget = { state: lane.budget.state, spent: lane.budget.spent, cap: lane.budget.cap, text: lane.budget.text };
      if (lane.parked?.length)
        row.parked = lane.parked.map((p) => ({
          patchFile: p.patchFile,
          paths: p.paths,
          restoreCommand: p.restoreCommand,
        }));
      if (lane.baseSha) row.base = lane.baseSha;
      if (lane.overlaps?.length)
        row.overlaps = lane.overlaps.map((o) => ({ key: o.key, lane: o.lane, paths: o.paths }));
      if (lane.baseConflict) row.baseConflict = lane.baseConflict.paths;
      const landing = landingOf.get(c.id);
      if (landing) row.landing = landing;
      row.git = lane.git
        ? { branch: lane.git.branch, ahead: lane.git.ahead, dirty: lane.git.dirty, headSha: lane.git.headSha }
        : null;
    }
    return row;
  });
}
