// `svc show <id>`: the issue's state derived at read time — the PR with `reviewState` and
// live merge readiness, the newest run and its reviewers (alive, report), and the
// journal's tail. Nothing here is stored.
import * as path from 'node:path';
import type { IssueState, ReviewerInfo } from '../../shared/protocol/review';
import { prDetail } from '../codehost/prState';
import { issueInfo } from '../issues/issueInfo';
import type { IssueRow } from '../issues/issueStore';
import { logger } from '../util/log';
import type { ReviewCtx } from './context';
import { readJournal } from './journal';
import { reportPath } from './paths';
import { checkPostable, parseVerdict, QUICK_SECTIONS, SYNTHESIS_SECTIONS } from './reportShape';
import { reviewersOf } from './reviewers';
import { reviewState } from './reviewState';
import { latestRun, serviceVerdicts } from './runs';
import type { Run } from './runs';
import { readReviewFile } from './reviewFiles';
import { postedFindings } from './runFindings';

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
          const posting = r.role === 'parent' || r.role === 'quick';
          const text = readReviewFile(issue.workspace, file);
          const report = posting
            ? postedReport(file, text, r.runId === run.runId ? run : undefined)
            : laneReport(file, text);
          return {
            id: row.id,
            name: row.name,
            role: r.role,
            runId: r.runId,
            model: row.model,
            alive: ctx.conv.facts(row.id).alive,
            activity: ctx.conv.activity(row, now),
            report,
          };
        })
    : [];
  return {
    issue: issueInfo(ctx.conv, issue),
    pr,
    run: run
      ? {
          runId: run.runId,
          mode: run.mode,
          sha: run.sha,
          phase: run.phase,
          verdict: run.verdict,
          worktree: run.worktree,
        }
      : null,
    reviewers,
    journal: entries.slice(-lines),
    ...withFindings(postedFindings(issue.workspace, entries)),
  };
}

const withFindings = (findings: IssueState['findings']) => (findings ? { findings } : {});

/** `text`: the file as readReviewFile read it, null when there is none svc reads. */
function laneReport(file: string, text: string | null): ReviewerInfo['report'] {
  if (text === null) return { path: file, exists: false, verdict: null, posted: false, problem: null };
  const v = parseVerdict(text, path.basename(file));
  return { path: file, exists: true, verdict: v.ok ? v.verdict : null, posted: false, problem: v.ok ? null : v.why };
}

/** The parent's (quick agent's) file: what was posted, or the file as it stands, unposted.
 *  A file that would be refused is never shown as the run's verdict. */
function postedReport(file: string, text: string | null, run: Run | undefined): ReviewerInfo['report'] {
  const exists = text !== null;
  if (run?.phase === 'verdict') return { path: file, exists, verdict: run.verdict, posted: true, problem: null };
  if (!exists) return { path: file, exists, verdict: null, posted: false, problem: null };
  try {
    const verdict = checkPostable(
      text,
      path.basename(file),
      run?.mode === 'quick' ? QUICK_SECTIONS : SYNTHESIS_SECTIONS,
    );
    return { path: file, exists, verdict, posted: false, problem: null };
  } catch (e) {
    return { path: file, exists, verdict: null, posted: false, problem: (e as Error).message };
  }
}
