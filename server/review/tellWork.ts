// Lifecycle step 4b: on CHANGES_REQUESTED the work agent gets the review — it is on the PR
// (review or marker comment) and, so the agent acts on it, in an `svc tell`. Its next push
// moves the PR head, which starts a new full review (step 1).
import { workAgentName } from '../issues/issueIds';
import type { IssueRow } from '../issues/issueStore';
import { logger } from '../util/log';
import type { ReviewCtx } from './context';

const log = logger('review');

export function tellWorkAgent(
  ctx: ReviewCtx,
  issue: IssueRow,
  r: { runId: string; sha: string; pr: number; via: string; body: string },
): void {
  const agent = ctx.conv.store.byName(workAgentName(issue.id));
  if (!agent) {
    log.info(`${issue.id} ${r.runId}: changes requested; no work agent ${workAgentName(issue.id)} to tell`);
    return;
  }
  const text = [
    `Review ${r.runId} of ${issue.id} at ${r.sha.slice(0, 7)} requested changes. It is on PR #${r.pr} (${r.via === 'marker' ? 'a verdict comment' : 'a review'}; \`svc pr show ${r.pr} --project ${issue.project}\`) and below.`,
    '',
    'Fix every blocker in your workspace, commit, and push the branch (`git push`, or `svc done`). The push starts a new full review of the new head.',
    '',
    '---',
    '',
    r.body,
  ].join('\n');
  try {
    ctx.conv.tell(agent.id, text);
  } catch (e) {
    log.warn(`${issue.id} ${r.runId}: could not tell the work agent ${agent.name}: ${(e as Error).message}`);
  }
}
