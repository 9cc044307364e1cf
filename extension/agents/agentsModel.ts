// The Agents page's rows: every conversation (roots, lanes, successors, work agents,
// reviewers), archived ones included, in the Command Deck's tree order with a depth, so
// the page nests them the same way (docs/spec.md: lanes under their launcher, critics under the
// judged builder). Pure (no vscode).
import { verdictTone } from '../../shared/format/verdictTone';
import type { ConversationInfo } from '../../shared/protocol/conversations';
import type { LaneRecord } from '../../shared/protocol/lanes';
import type { AgentRowView } from '../../shared/webview/agentsMessages';
import { buildDeck, verdictText } from '../commandDeck/deckModel';
import type { DeckNode } from '../commandDeck/deckModel';
import { deckRows } from '../commandDeck/deckRows';

function roleOf(c: ConversationInfo, lane: LaneRecord | undefined): string {
  if (lane) return `${lane.role} i${lane.iteration}`;
  if (c.kind === 'successor') return c.parentId !== null ? `successor of #${c.parentId}` : 'successor';
  if (c.review)
    return c.review.role === 'parent'
      ? 'review parent'
      : c.review.role === 'quick'
        ? 'reviewer (quick)'
        : `reviewer · ${c.review.role}`;
  if (c.kind === 'agent') return 'work agent';
  return c.kind;
}

export function agentRows(conversations: readonly ConversationInfo[], lanes: readonly LaneRecord[]): AgentRowView[] {
  const byId = new Map(conversations.map((c) => [c.id, c]));
  const laneById = new Map(lanes.map((l) => [l.id, l]));
  const out: AgentRowView[] = [];
  const walk = (nodes: readonly DeckNode[], depth: number) => {
    for (const n of nodes) {
      if (n.kind !== 'conv') continue;
      const c = byId.get(n.convId)!;
      const lane = laneById.get(c.id);
      out.push({
        id: c.id,
        name: c.name,
        title: c.title,
        kind: c.kind,
        role: roleOf(c, lane),
        depth,
        order: out.length,
        alive: c.alive,
        activity: c.activity,
        model: c.model,
        harness: c.harness,
        cost: c.cost ? c.cost.amount : null,
        currency: c.cost ? c.cost.currency : null,
        issue: c.issueId,
        verdict: lane?.verdict ? verdictText(lane.verdict) : null,
        verdictTone: lane?.verdict ? verdictTone(lane.verdict.verdict) : null,
        archived: c.archived,
        budget:
          lane && lane.budget.cap !== null
            ? { spent: lane.budget.spent, cap: lane.budget.cap, state: lane.budget.state, text: lane.budget.text }
            : null,
      });
      walk(n.children, depth + 1);
    }
  };
  walk(buildDeck(deckRows(conversations, lanes), { keepArchived: true }), 0);
  return out;
}
