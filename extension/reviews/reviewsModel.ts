// The Reviews tree as a pure function: each issue's derived state (review/show) in, nodes
// out — the issue with its PR number, review state and merge readiness (Merge / Open PR
// act on that row), then the newest review run as one convoy row with its verdict and
// its reviewers under it (each opening its report once written) and the newest posted
// review's findings (each dismissable while open), and earlier runs as a
// collapsed history row. Ids are stable across refreshes so VS Code keeps what the person
// expanded or collapsed. No vscode.
import { isLive } from '../../shared/activity';
import { findingState } from '../../shared/format/findingState';
import { reviewStall } from '../../shared/format/reviewStall';
import type { FindingInfo, IssueState, ReviewerInfo } from '../../shared/protocol/review';
import { convoyFacts } from '../commandDeck/convoys';
import { activityIcon, VERDICT_COLORS, verdictBadge, verdictIcon } from '../commandDeck/deckIcons';
import type { DeckIcon, VerdictBadge } from '../commandDeck/deckIcons';
import { mdCode, mdText } from '../commandDeck/markdown';

export interface ReviewNode {
  id: string;
  kind: 'issue' | 'readiness' | 'run' | 'reviewer' | 'finding' | 'history';
  label: string;
  description: string;
  /** Markdown: the row's facts. */
  tooltip: string;
  icon: DeckIcon;
  contextValue: string;
  /** The issue a command on this node acts on. */
  issue: string;
  /** Reviewers: the conversation (Open Conversation). */
  convId?: number;
  /** Reviewers: the report a click opens once it is written. */
  reportFile?: string;
  /** Finding rows: the finding's id (Dismiss Finding). */
  finding?: string;
  /** PR rows: the PR number and its web page (Merge, Open PR). */
  pr?: { number: number; url: string | null; project: string };
  badge?: VerdictBadge;
  /** Starts collapsed (history); otherwise a node with children starts expanded. */
  collapsed?: boolean;
  children: ReviewNode[];
}

const STATE_ICONS: Record<string, DeckIcon> = {
  none: { id: 'circle-large-outline' },
  requested: { id: 'clock', color: 'charts.blue' },
  in_review: { id: 'sync~spin', color: 'charts.blue' },
  approved: { id: 'pass', color: VERDICT_COLORS.pass },
  changes_requested: { id: 'request-changes', color: VERDICT_COLORS.notYet },
  failed: { id: 'error', color: VERDICT_COLORS.fail },
  stale: { id: 'history', color: 'list.warningForeground' },
};

/** `in_review` → `in review`, as people read it. */
export const stateText = (s: string) => s.replace(/_/g, ' ');

export function issueContextValue(s: IssueState): string {
  const parts = ['svc:review', 'issue'];
  if (s.pr) parts.push('pr', s.pr.reviewState);
  // An open PR approved for its head with checks green: merging is next, so Mark Issue Done
  // (push, open the PR) is not offered; a push would only undo the approval.
  if (s.pr?.state === 'open' && s.pr.ready) parts.push('ready');
  // A live work agent: Start Work Agent is not offered.
  if (s.issue.agent && isLive(s.issue.agent.activity)) parts.push('worker');
  if (s.reviewers.some((r) => r.alive || isLive(r.activity))) parts.push('running');
  if (s.run) parts.push('run');
  // A PR with a web page (GitHub): Open PR on the row, as on its readiness row.
  if (s.pr?.url) parts.push('url');
  return parts.join('+');
}

/**
 * Like the deck's rows: a parent's id differs from a leaf's, so a row that gains children
 * starts expanded; once a parent, the id stays, and VS Code keeps its expansion by it.
 */
const treeId = (id: string, parent: boolean) => (parent ? `${id}:tree` : id);

const roleLabel = (role: string) =>
  role === 'parent' ? 'review parent' : role === 'quick' ? 'reviewer (quick)' : role;

function reviewerNode(issue: string, r: ReviewerInfo): ReviewNode {
  const parts = [`#${r.id}`, r.activity];
  if (r.report.exists && !r.report.verdict) parts.push('report without a verdict');
  parts.push(r.model);
  const live = isLive(r.activity);
  const tooltip = [
    `**${mdText(roleLabel(r.role))}** of ${mdText(issue)} review ${mdText(r.runId)}`,
    '',
    `- conversation: #${r.id} ${mdCode(r.name)}`,
    `- activity: ${r.activity}`,
    `- model: ${mdCode(r.model)}`,
    `- report: ${mdCode(r.report.path)}${r.report.exists ? '' : ' (not written yet)'}`,
    `- verdict: ${r.report.verdict ? mdText(r.report.verdict) : 'none yet'}`,
  ];
  return {
    id: `reviewer:${r.id}`,
    kind: 'reviewer',
    label: roleLabel(r.role),
    description: parts.join(' · '),
    tooltip: tooltip.join('\n'),
    icon: r.report.verdict ? verdictIcon(r.report.verdict) : activityIcon(r.activity),
    contextValue: `svc:reviewer+${r.activity}${live ? '+live' : ''}${r.report.exists ? '+report' : ''}`,
    issue,
    convId: r.id,
    ...(r.report.exists ? { reportFile: r.report.path } : {}),
    ...(r.report.verdict ? { badge: verdictBadge({ verdict: r.report.verdict }) } : {}),
    children: [],
  };
}

const SEVERITY_ICONS: Record<FindingInfo['severity'], DeckIcon> = {
  blocker: { id: 'error', color: VERDICT_COLORS.fail },
  'should-fix': { id: 'warning', color: VERDICT_COLORS.notYet },
  nit: { id: 'info' },
};

/** A finding of the newest posted review: dismissable while it is open and nobody dismissed it. */
export function findingNode(issue: string, f: FindingInfo): ReviewNode {
  const state = findingState(f);
  return {
    id: `finding:${issue}:${f.id}`,
    kind: 'finding',
    label: `[${f.severity}] ${f.location}`,
    description: `${f.title} · ${state.join(' · ')}`,
    tooltip: [
      `**${mdText(f.title)}** (${f.severity}) at ${mdCode(f.location)}`,
      '',
      `- finding: ${mdCode(f.id)}`,
      `- ${state.join(', ')}`,
      ...(f.status !== 'fixed' && !f.dismissed
        ? [
            `- not worth fixing? Dismiss it (${mdCode(`svc review dismiss ${issue} ${f.id}`)}): it is not posted again until its code changes`,
          ]
        : []),
    ].join('\n'),
    icon:
      f.status === 'fixed'
        ? { id: 'pass', color: VERDICT_COLORS.pass }
        : f.dismissed
          ? { id: 'circle-slash', color: 'disabledForeground' }
          : SEVERITY_ICONS[f.severity],
    contextValue: `svc:review+finding+${f.status}${f.dismissed ? '+dismissed' : ''}`,
    issue,
    finding: f.id,
    children: [],
  };
}

export function reviewNodes(states: readonly IssueState[]): ReviewNode[] {
  const facts = convoyFacts(states);
  return states.map((s, i) => {
    const id = s.issue.id;
    const children: ReviewNode[] = [];
    const desc: string[] = [];
    const prFacts = s.pr ? { number: s.pr.number, url: s.pr.url, project: s.issue.project } : undefined;
    if (s.pr) {
      desc.push(
        `PR #${s.pr.number}`,
        stateText(s.pr.reviewState),
        s.pr.state === 'open' ? (s.pr.ready ? 'ready to merge' : 'not ready') : s.pr.state,
      );
      const mergeable = s.pr.state === 'open' && s.pr.ready;
      children.push({
        id: `ready:${id}`,
        kind: 'readiness',
        label:
          s.pr.state !== 'open' ? `PR #${s.pr.number} ${s.pr.state}` : s.pr.ready ? 'merge: ready' : 'merge: not ready',
        description:
          s.pr.ready || s.pr.state !== 'open'
            ? s.pr.head
              ? `head ${s.pr.head.slice(0, 7)}`
              : ''
            : s.pr.reasons.join('; '),
        tooltip: [
          `**PR #${s.pr.number}** of ${mdText(id)}: ${s.pr.state}`,
          '',
          ...(s.pr.head ? [`- head: ${mdCode(s.pr.head.slice(0, 12))}`] : []),
          `- review: ${stateText(s.pr.reviewState)}`,
          ...(s.pr.ready
            ? ['- approved for the current head and checks green']
            : s.pr.reasons.map((r) => `- not ready: ${mdText(r)}`)),
          ...s.pr.checks.map((c) => `- check ${mdText(c.name)}: ${mdText(c.state)}`),
        ].join('\n'),
        icon:
          s.pr.state === 'merged'
            ? { id: 'git-merge', color: 'charts.purple' }
            : s.pr.ready
              ? { id: 'git-merge', color: 'testing.iconPassed' }
              : { id: 'git-pull-request', color: 'list.warningForeground' },
        contextValue: `svc:review+readiness+pr${mergeable ? '+mergeable' : ''}${s.pr.url ? '+url' : ''}`,
        issue: id,
        pr: prFacts,
        children: [],
      });
    } else desc.push('no PR yet');
    if (s.run) {
      const reviewers = s.reviewers.map((r) => reviewerNode(id, r));
      for (const f of s.findings ?? []) reviewers.push(findingNode(id, f));
      const earlier = Object.entries(facts[i].runs)
        .filter(([run]) => run !== s.run!.runId)
        .sort((a, b) => Number(b[0].slice(1)) - Number(a[0].slice(1)));
      if (earlier.length) {
        reviewers.push({
          id: `history:${id}`,
          kind: 'history',
          label: 'earlier runs',
          description: earlier.map(([run, f]) => `${run} ${f.verdict ? stateText(f.verdict) : f.phase}`).join(' · '),
          tooltip: `Earlier review runs of ${mdText(id)} (from its pipeline journal).`,
          icon: { id: 'history' },
          contextValue: 'svc:review+history',
          issue: id,
          collapsed: true,
          children: earlier.map(([run, f]) => ({
            id: `run:${id}:${run}`,
            kind: 'run' as const,
            label: `review ${run}`,
            description: f.verdict ? stateText(f.verdict) : f.phase,
            tooltip: `Review run ${mdText(run)} of ${mdText(id)}: ${f.verdict ? mdText(f.verdict) : f.phase}`,
            icon: f.verdict ? verdictIcon(f.verdict) : { id: 'circle-slash', color: 'disabledForeground' },
            contextValue: 'svc:review+run+earlier',
            issue: id,
            ...(f.verdict ? { badge: verdictBadge({ verdict: f.verdict }) } : {}),
            children: [],
          })),
        });
      }
      const running = s.reviewers.some((r) => r.alive || isLive(r.activity));
      // A stalled run's remedy is Restart Review…, offered on its row (docs/style.md §21).
      const stall = reviewStall(s);
      children.push({
        // Stable for the issue (not per run), so expansion survives a new run as well as a refresh.
        id: treeId(`run:${id}`, reviewers.length > 0),
        kind: 'run',
        label: `review ${s.run.runId} (${s.run.mode})`,
        description: `${s.run.verdict ? stateText(s.run.verdict) : running ? 'reviewing' : stall ? 'stalled: restart it' : s.run.phase} · at ${s.run.sha.slice(0, 7)}`,
        tooltip: [
          `**Review ${mdText(s.run.runId)}** of ${mdText(id)}`,
          '',
          `- mode: ${s.run.mode}`,
          `- phase: ${s.run.phase}`,
          `- verdict: ${s.run.verdict ? mdText(s.run.verdict) : 'none yet'}`,
          `- head: ${mdCode(s.run.sha.slice(0, 12))}`,
          ...(s.run.worktree ? [`- worktree: ${mdCode(s.run.worktree)}`] : []),
          ...(stall
            ? [
                '',
                `**Stalled**: ${mdText(stall.why)}. Restart it with the restart button on this row (${mdCode(stall.command)}).`,
              ]
            : []),
        ].join('\n'),
        icon: s.run.verdict ? verdictIcon(s.run.verdict) : running ? activityIcon('working') : { id: 'checklist' },
        contextValue: `svc:review+run${running ? '+running' : ''}${stall ? '+stalled' : ''}`,
        issue: id,
        ...(s.run.verdict ? { badge: verdictBadge({ verdict: s.run.verdict }) } : {}),
        children: reviewers,
      });
    } else for (const r of s.reviewers) children.push(reviewerNode(id, r));
    const reviewState = s.pr?.reviewState ?? 'none';
    return {
      id: treeId(`issue:${id}`, children.length > 0),
      kind: 'issue',
      label: `${id} ${s.issue.title}`,
      description: desc.join(' · '),
      tooltip: [
        `**${mdText(`${id} ${s.issue.title}`)}**`,
        '',
        `- project: ${mdText(s.issue.project)}`,
        `- branch: ${mdCode(s.issue.branch)}`,
        `- workspace: ${mdCode(s.issue.workspace)}`,
        ...(s.pr
          ? [`- PR #${s.pr.number}: ${stateText(s.pr.reviewState)}${s.pr.url ? ` · ${mdText(s.pr.url)}` : ''}`]
          : ['- no PR yet']),
      ].join('\n'),
      icon: STATE_ICONS[reviewState] ?? STATE_ICONS.none,
      contextValue: issueContextValue(s),
      issue: id,
      ...(prFacts ? { pr: prFacts } : {}),
      children,
    };
  });
}
