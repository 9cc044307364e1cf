// The Reviews tree as a pure function: each issue's derived state (review/show) in, nodes
// out — the issue with its PR number, review state and merge readiness, then the newest
// review run and the convoy's reviewers (each opening its conversation). No vscode.
import { isLive } from '../../shared/activity';
import type { Activity } from '../../shared/activity';
import type { IssueState, ReviewerInfo } from '../../shared/protocol/review';
import { activityIcon, verdictIcon } from '../commandDeck/deckIcons';
import type { DeckIcon } from '../commandDeck/deckIcons';

export interface ReviewNode {
  id: string;
  kind: 'issue' | 'readiness' | 'run' | 'reviewer';
  label: string;
  description: string;
  tooltip: string;
  icon: DeckIcon;
  contextValue: string;
  /** The issue a command on this node acts on. */
  issue: string;
  /** Reviewers: the conversation a click opens. */
  convId?: number;
  children: ReviewNode[];
}

const STATE_ICONS: Record<string, DeckIcon> = {
  none: { id: 'circle-large-outline' },
  requested: { id: 'clock' },
  in_review: { id: 'sync~spin' },
  approved: { id: 'pass', color: 'testing.iconPassed' },
  changes_requested: { id: 'request-changes', color: 'list.warningForeground' },
  failed: { id: 'error', color: 'testing.iconFailed' },
  stale: { id: 'history', color: 'list.warningForeground' },
};

/** `in_review` → `in review`, as people read it. */
export const stateText = (s: string) => s.replace(/_/g, ' ');

export function issueContextValue(s: IssueState): string {
  const parts = ['svc:review', 'issue'];
  if (s.pr) parts.push('pr', s.pr.reviewState);
  if (s.reviewers.some((r) => r.alive || isLive(r.activity as Activity))) parts.push('running');
  if (s.run) parts.push('run');
  return parts.join('+');
}

function reviewerNode(issue: string, r: ReviewerInfo): ReviewNode {
  const parts = [`#${r.id}`, r.activity];
  if (r.report.verdict) parts.push(r.report.verdict);
  else if (r.report.exists) parts.push('report without a verdict');
  parts.push(r.model);
  const liveTokens = isLive(r.activity as Activity) ? '+live' : '';
  return {
    id: `reviewer:${r.id}`,
    kind: 'reviewer',
    label: r.role === 'parent' ? 'review parent' : r.role === 'quick' ? 'reviewer (quick)' : r.role,
    description: parts.join(' · '),
    tooltip: `${r.name} (#${r.id}) · run ${r.runId}\nreport: ${r.report.path}${r.report.exists ? '' : ' (not written yet)'}`,
    icon: r.report.verdict ? verdictIcon(r.report.verdict) : activityIcon(r.activity as Activity),
    contextValue: `svc:reviewer+${r.activity}${liveTokens}`,
    issue,
    convId: r.id,
    children: [],
  };
}

export function reviewNodes(states: readonly IssueState[]): ReviewNode[] {
  return states.map((s) => {
    const id = s.issue.id;
    const children: ReviewNode[] = [];
    const desc: string[] = [];
    if (s.pr) {
      desc.push(`PR #${s.pr.number}`, stateText(s.pr.reviewState), s.pr.state === 'open' ? (s.pr.ready ? 'ready to merge' : 'not ready') : s.pr.state);
      children.push({
        id: `ready:${id}`,
        kind: 'readiness',
        label: s.pr.ready ? 'merge: ready' : 'merge: not ready',
        description: s.pr.ready ? (s.pr.head ? `head ${s.pr.head.slice(0, 7)}` : '') : s.pr.reasons.join('; '),
        tooltip: s.pr.ready ? 'Approved for the current head and checks green.' : ['Not ready to merge:', ...s.pr.reasons.map((r) => `- ${r}`)].join('\n'),
        icon: s.pr.ready ? { id: 'git-merge', color: 'testing.iconPassed' } : { id: 'git-pull-request', color: 'list.warningForeground' },
        contextValue: 'svc:review+readiness',
        issue: id,
        children: [],
      });
    } else desc.push('no PR yet');
    if (s.run) {
      children.push({
        id: `run:${id}`,
        kind: 'run',
        label: `review ${s.run.runId} (${s.run.mode})`,
        description: `${s.run.phase}${s.run.verdict ? ` · ${s.run.verdict}` : ''} · at ${s.run.sha.slice(0, 7)}`,
        tooltip: `Review run ${s.run.runId}, mode ${s.run.mode}, commit ${s.run.sha}${s.run.worktree ? `\nworktree ${s.run.worktree}` : ''}`,
        icon: s.run.verdict ? verdictIcon(s.run.verdict) : { id: 'checklist' },
        contextValue: 'svc:review+run',
        issue: id,
        children: [],
      });
    }
    for (const r of s.reviewers) children.push(reviewerNode(id, r));
    const reviewState = s.pr?.reviewState ?? 'none';
    return {
      // Like the deck's rows: a parent's id differs from a leaf's, so it starts expanded once children appear.
      id: `issue:${id}${children.length ? ':tree' : ''}`,
      kind: 'issue',
      label: `${id} ${s.issue.title}`,
      description: desc.join(' · '),
      tooltip: `${id}: ${s.issue.title}\nbranch ${s.issue.branch}\nworkspace ${s.issue.workspace}${s.pr?.url ? `\n${s.pr.url}` : ''}`,
      icon: STATE_ICONS[reviewState] ?? STATE_ICONS.none,
      contextValue: issueContextValue(s),
      issue: id,
      children,
    };
  });
}
