// Review convoys in the Command Deck: a review run's agents (the parent and its four lanes,
// or the quick-mode agent) fold into one convoy row with the run's verdict, under the
// issue's work agent. The newest run is the row; earlier runs (archived when the next run
// starts, so only listed with "Show Archived") sit under it as collapsed history. Pure.
import { isLive } from '../../shared/activity';
import type { IssueState } from '../../shared/protocol/review';
import { activityIcon, verdictBadge, verdictIcon } from './deckIcons';
import type { DeckNode, DeckRow } from './deckTypes';
import { mdCode, mdText } from './markdown';

/** What the Reviews side knows of an issue's runs: verdicts by run, reports by reviewer conversation. */
export interface ConvoyFacts {
  issue: string;
  runs: Record<string, { verdict: string | null; phase: string; mode?: string }>;
  reports: Record<number, { path: string; exists: boolean; verdict: string | null }>;
}

/** From review/show: the newest run and its reviewers' reports, earlier runs' verdicts from the journal. */
export function convoyFacts(states: readonly IssueState[]): ConvoyFacts[] {
  return states.map((s) => {
    const runs: ConvoyFacts['runs'] = {};
    for (const e of s.journal) {
      if (!e.runId) continue;
      const seen = runs[e.runId] ?? { verdict: null, phase: 'requested' };
      if (e.kind === 'review.verdict' && typeof e.verdict === 'string')
        runs[e.runId] = { ...seen, verdict: e.verdict, phase: 'verdict' };
      else if (e.kind === 'review.aborted') runs[e.runId] = { ...seen, phase: 'aborted' };
      else runs[e.runId] = seen;
    }
    if (s.run) runs[s.run.runId] = { verdict: s.run.verdict, phase: s.run.phase, mode: s.run.mode };
    const reports: ConvoyFacts['reports'] = {};
    for (const r of s.reviewers)
      reports[r.id] = { path: r.report.path, exists: r.report.exists, verdict: r.report.verdict };
    return { issue: s.issue.id, runs, reports };
  });
}

export interface ReviewerOf {
  issue: string;
  run: string;
  role: string;
}

/** A reviewer's issue, run and role, from the daemon's facts (never its name or title, which a retired reviewer changes). */
export function reviewerOf(r: DeckRow): ReviewerOf | null {
  return r.review && r.issueId ? { issue: r.issueId, run: r.review.runId, role: r.review.role } : null;
}

const runNumber = (run: string) => Number(run.slice(1));
const ROLE_ORDER = ['parent', 'quick', 'security', 'correctness', 'performance', 'requirements'];
const roleLabel = (role: string) =>
  role === 'parent' ? 'review parent' : role === 'quick' ? 'reviewer (quick)' : role;

/**
 * Folds reviewers into convoy nodes. Returns the folded row ids, and for each convoy the row
 * id it takes the place of (its first reviewer, so it sits where its agents sat) and its parent.
 */
export function foldConvoys(
  sorted: readonly DeckRow[],
  parentOf: Map<number, number | null>,
  nodes: Map<number, DeckNode>,
  reviews: readonly ConvoyFacts[],
): { folded: Set<number>; anchors: Map<number, { node: DeckNode; parent: number | null }> } {
  const facts = new Map(reviews.map((f) => [f.issue, f]));
  const byIssue = new Map<string, Map<string, { row: DeckRow; who: ReviewerOf }[]>>();
  for (const r of sorted) {
    const who = reviewerOf(r);
    if (!who) continue;
    const runs = byIssue.get(who.issue) ?? new Map<string, { row: DeckRow; who: ReviewerOf }[]>();
    byIssue.set(who.issue, runs);
    const list = runs.get(who.run) ?? [];
    list.push({ row: r, who });
    runs.set(who.run, list);
  }
  const folded = new Set<number>();
  const anchors = new Map<number, { node: DeckNode; parent: number | null }>();
  for (const [issue, runs] of byIssue) {
    const f = facts.get(issue);
    const order = [...runs.keys()].sort((a, b) => runNumber(b) - runNumber(a));
    const convoys = order.map((run, i) => convoyNode(issue, run, runs.get(run)!, nodes, f, i > 0));
    const [newest, ...earlier] = convoys;
    if (earlier.length) {
      newest.children.push({
        id: `convoy-history:${issue}`,
        kind: 'history',
        convId: newest.convId,
        label: 'earlier runs',
        description: earlier
          .map((c) => c.label.slice(`${issue} review `.length) + (c.badge ? ` ${c.badge.tooltip}` : ''))
          .join(' · '),
        tooltip: `Earlier review runs of ${mdText(issue)}; their agents are archived.`,
        icon: { id: 'history' },
        contextValue: 'svc:convoy-history',
        children: earlier,
        collapsed: true,
      });
    }
    const all = order.flatMap((run) => runs.get(run)!);
    for (const { row } of all) folded.add(row.id);
    // Under the work agent that the newest run's parent (or quick agent) reports to.
    const lead =
      runs.get(order[0])!.find((x) => x.who.role === 'parent' || x.who.role === 'quick')?.row ??
      runs.get(order[0])![0].row;
    let parent = parentOf.get(lead.id) ?? null;
    if (parent !== null && folded.has(parent)) parent = null;
    const anchor = Math.min(...all.map((x) => x.row.id));
    anchors.set(anchor, { node: newest, parent });
  }
  return { folded, anchors };
}

function convoyNode(
  issue: string,
  run: string,
  members: { row: DeckRow; who: ReviewerOf }[],
  nodes: Map<number, DeckNode>,
  f: ConvoyFacts | undefined,
  earlier: boolean,
): DeckNode {
  const sortedMembers = [...members].sort(
    (a, b) => ROLE_ORDER.indexOf(a.who.role) - ROLE_ORDER.indexOf(b.who.role) || a.row.id - b.row.id,
  );
  const lead = sortedMembers[0].row;
  const facts = f?.runs[run];
  const mode = facts?.mode ?? (members.some((m) => m.who.role === 'parent') ? 'full' : 'quick');
  const live = members.some((m) => isLive(m.row.activity));
  const children = sortedMembers.map(({ row, who }) => reviewerNode(row, who, nodes.get(row.id)!, f, issue));
  const verdict = facts?.verdict ?? null;
  const state = verdict
    ? verdict.replace(/_/g, ' ')
    : live
      ? 'reviewing'
      : facts?.phase === 'aborted'
        ? 'aborted'
        : 'no verdict';
  const tooltip = [
    `**${mdText(`${issue} review ${run}`)}**`,
    '',
    `- mode: ${mode}`,
    `- verdict: ${verdict ? mdText(verdict) : mdText(state)}`,
    `- reviewers: ${members.length}`,
  ];
  if (earlier) tooltip.push('- an earlier run: its agents are archived');
  return {
    id: `convoy:${issue}:${run}`,
    kind: 'convoy',
    convId: lead.id,
    label: `${issue} review ${run}`,
    description: `${mode} · ${state}`,
    tooltip: tooltip.join('\n'),
    icon: verdict ? verdictIcon(verdict) : live ? activityIcon('working') : activityIcon(lead.activity),
    contextValue: `svc:convoy${live ? '+live' : ''}${verdict ? '+verdict' : ''}`,
    children,
    ...(verdict ? { badge: verdictBadge({ verdict }) } : {}),
    ...(earlier ? { collapsed: true } : {}),
    issue,
  };
}

function reviewerNode(
  row: DeckRow,
  who: ReviewerOf,
  node: DeckNode,
  f: ConvoyFacts | undefined,
  issue: string,
): DeckNode {
  const report = f?.reports[row.id];
  const parts = [`#${row.id}`, row.archived ? `${row.activity} (archived)` : row.activity];
  if (report?.exists && !report.verdict) parts.push('report without a verdict');
  const tooltip = [node.tooltip];
  if (report)
    tooltip.push(
      `- report: ${mdCode(report.path)}${report.exists ? '' : ' (not written yet)'}`,
      `- report verdict: ${report.verdict ? mdText(report.verdict) : 'none yet'}`,
    );
  return {
    ...node,
    label: roleLabel(who.role),
    description: parts.join(' · '),
    tooltip: tooltip.join('\n'),
    icon: report?.verdict ? verdictIcon(report.verdict) : activityIcon(row.activity),
    contextValue: `${node.contextValue}+reviewer${report?.exists ? '+report' : ''}`,
    ...(report?.verdict ? { badge: verdictBadge({ verdict: report.verdict }) } : {}),
    ...(report?.exists ? { reportFile: report.path } : {}),
    issue,
  };
}
