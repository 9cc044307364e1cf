// `svc show <id>`: the issue's state derived at read time — the PR with `reviewState` and
// live merge readiness, the newest run and its reviewers (alive, report), and the
// journal's tail. Nothing here is stored.
import * as fs from 'node:fs';
import type { IssueState, ReviewerInfo } from '../../shared/protocol/review';
import { prDetail } from '../codehost/prState';
import { issueInfo } from '../issues/issueInfo';
import type { IssueRow } from '../issues/issueStore';
import { logger } from '../util/log';
import type { ReviewCtx } from './context';
import { readJournal } from './journal';
import { reportPath } from './paths';
import { parseVerdict } from './reportShape';
import { reviewersOf } from './reviewers';
import { reviewState } from './reviewState';
import { latestRun, serviceVerdicts } from './runs';

const log = logger('review');

export async function issueState(ctx: ReviewCtx, issue: IssueRow, lines = 10): Promise<IssueState> {
  const entries = readJournal(issue.workspace);
  const run = latestRun(entries);
  let pr: IssueState['pr'] = null;
  try {
    const host = ctx.hosts.forProject(issue.project);
    const found = await host.getPullRequest({ branch: issue.branch });
    if (found) {
      const d = await prDetail(host, found, serviceVerdicts(entries, found.number));
      pr = {
        number: found.number,
        state: found.state,
        head: found.head,
        url: found.url,
        reviewState: reviewState(entries, found.head),
        ready: d.readiness.ready,
        reasons: d.readiness.reasons,
        checks: d.checks,
      };
    }
  } catch (e) {
    log.warn(`${issue.id}: code host unavailable for svc show: ${(e as Error).message}`);
  }
  const now = ctx.app.now();
  const reviewers: ReviewerInfo[] = run
    ? reviewersOf(ctx, issue.id, run.runId)
        .filter((r) => r.row.archivedAt === null)
        .map((r) => {
          const row = ctx.conv.get(r.row.id)!;
          const file = reportPath(issue.workspace, r.runId, r.role);
          const exists = fs.existsSync(file);
          const v = exists ? parseVerdict(fs.readFileSync(file, 'utf8'), file) : undefined;
          return {
            id: row.id,
            name: row.name,
            role: r.role,
            runId: r.runId,
            model: row.model,
            alive: ctx.conv.facts(row.id).alive,
            activity: ctx.conv.activity(row, now),
            report: { path: file, exists, verdict: v?.ok ? v.verdict : null },
          };
        })
    : [];
  return {
    issue: issueInfo(ctx.conv, issue),
    pr,
    run: run ? { runId: run.runId, mode: run.mode, sha: run.sha, phase: run.phase, verdict: run.verdict, worktree: run.worktree } : null,
    reviewers,
    journal: entries.slice(-lines),
  };
}
