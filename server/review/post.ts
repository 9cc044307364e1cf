// Lifecycle step 3: the parent's synthesis.md (or the quick agent's review.md) becomes ONE
// PR review pinned to the reviewed commit (`review.verdict`). APPROVED → APPROVE,
// CHANGES_REQUESTED → REQUEST_CHANGES, FAILED → a COMMENT-type review. When the host
// refuses a review on the author's own PR (selfReviewRefused), the verdict is a comment
// that begins with the marker `<!-- svc-verdict: … sha=… -->`. Bad files are refused with
// the reason, logged, and nothing is posted.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SvcError } from '../../shared/errors';
import type { VerdictName } from '../../shared/protocol/review';
import type { ReviewEvent } from '../codehost/codeHost';
import { verdictMarker } from '../codehost/marker';
import { MAX_BODY } from '../codehost/validate';
import type { IssueRow } from '../issues/issueStore';
import { logger } from '../util/log';
import type { ReviewCtx } from './context';
import { iso } from './context';
import { appendJournal, readJournal } from './journal';
import { LANES, reportPath, runDir } from './paths';
import { checkPostable, normalizedReport, parseVerdict, QUICK_SECTIONS, SYNTHESIS_SECTIONS } from './reportShape';
import { gatherFindings, writeRunFindings } from './runFindings';
import {
  alreadyPostedError,
  approveOverInvalidReportError,
  noAiReviewError,
  noReportError,
  runAbortedError,
  runSupersededError,
  runWithoutPrError,
  unknownRunError,
} from './reviewRefusals';
import { latestRun, runsOf } from './runs';
import { tellWorkAgent } from './tellWork';
import { readReviewFile } from './reviewFiles';

const log = logger('review');

const EVENT: Record<VerdictName, ReviewEvent> = {
  APPROVED: 'APPROVE',
  CHANGES_REQUESTED: 'REQUEST_CHANGES',
  FAILED: 'COMMENT',
};

export interface Posted {
  issue: string;
  runId: string;
  verdict: VerdictName;
  via: 'review' | 'marker' | 'comment';
  sha: string;
  pr: number;
  id: number;
}

/** `by`: who hands the file over — `agent` (svc review post) or `daemon` (rule 3). */
export async function postVerdict(
  ctx: ReviewCtx,
  issue: IssueRow,
  runId: string,
  by: 'agent' | 'daemon',
): Promise<Posted> {
  const entries = readJournal(issue.workspace);
  const run = runsOf(entries).get(runId);
  if (!run) throw unknownRunError(issue, runId);
  if (run.phase === 'verdict') throw alreadyPostedError(issue, runId, run.verdict, 'post');
  if (run.phase === 'aborted') throw runAbortedError(issue, runId);
  const latest = latestRun(entries)!;
  if (latest.runId !== runId) {
    throw runSupersededError(issue, run, latest);
  }
  if (run.mode === 'none') throw noAiReviewError(issue, runId, 'post');
  if (run.pr === null) throw runWithoutPrError(issue, runId);

  const role = run.mode === 'quick' ? 'quick' : 'parent';
  const file = reportPath(issue.workspace, runId, role);
  const name = path.basename(file);
  const written = readReviewFile(issue.workspace, file);
  if (written === null) throw refuse(issue, runId, noReportError(issue, runId, name, file));
  let text = written;
  let verdict: VerdictName;
  try {
    verdict = checkPostable(text, name, run.mode === 'quick' ? QUICK_SECTIONS : SYNTHESIS_SECTIONS);
  } catch (e) {
    throw refuse(issue, runId, e as Error);
  }
  text = normalizedReport(text, verdict);
  if (verdict === 'APPROVED' && run.mode === 'full') {
    // An approval vouches for every lane: one whose report cannot be read found nothing
    // anyone can check, so it may have found a blocker.
    const invalid = invalidLaneReports(issue, runId);
    if (invalid.length > 0) throw refuse(issue, runId, approveOverInvalidReportError(issue, runId, invalid));
  }

  const host = ctx.hosts.forProject(issue.project);
  // Findings verified at the head, each new / still open / fixed since the last reviewed
  // commit; only new ones nobody dismissed go on their lines (docs/review-findings.md).
  const found = await gatherFindings(host, issue, run, text);
  // The report fits MAX_REPORT_CHARS; the notes get what is left of the host's limit.
  const room = MAX_BODY - 200 - text.length;
  const notes =
    found.notes.length <= room
      ? found.notes
      : `${found.notes.slice(0, Math.max(0, room - 200))}\n\n(cut; every finding: ${path.join(runDir(issue.workspace, runId), 'findings.json')})`;
  // A review with no finding now, before or dropped is posted exactly as written.
  const anyFindings = found.tracked.length + found.dropped.length + found.problems.length > 0;
  if (anyFindings) text = `${text.trimEnd()}\n\n${notes}\n`;
  const event = EVENT[verdict];
  let via: Posted['via'] = verdict === 'FAILED' ? 'comment' : 'review';
  let id: number;
  let comments = found.comments;
  try {
    id = (await host.createReview(run.pr, { event, body: text, commitId: run.sha, comments })).id;
  } catch (e) {
    if (!SvcError.is(e, 'selfReviewRefused') || verdict === 'FAILED') throw e;
    // The host will not let its identity review its own PR: the verdict goes in a marker
    // comment, and the findings on their lines in a COMMENT review (which never counts as a verdict).
    via = 'marker';
    id = (await host.createComment(run.pr, `${verdictMarker(verdict, run.sha)}\n\n${text}`)).id;
    if (comments.length > 0) {
      const body = `Findings of review ${runId} at ${run.sha.slice(0, 7)}; its verdict is in comment #${id}.`;
      await host.createReview(run.pr, { event: 'COMMENT', body, commitId: run.sha, comments }).catch((err: unknown) => {
        log.warn(`${issue.id} ${runId}: the findings' line comments were not posted: ${(err as Error).message}`);
        comments = [];
      });
    }
  }
  writeRunFindings(issue.workspace, {
    ...found.record,
    posted: comments.length > 0 ? found.record.posted : [],
  });
  const counts = { new: 0, open: 0, fixed: 0 };
  for (const t of found.tracked) counts[t.status]++;
  if (role === 'quick') fs.copyFileSync(file, path.join(runDir(issue.workspace, runId), 'review.md'));
  appendJournal(issue.workspace, {
    at: iso(ctx.app.now()),
    kind: 'review.verdict',
    issue: issue.id,
    runId,
    sha: run.sha,
    verdict,
    via,
    id,
    pr: run.pr,
    by,
    since: found.since,
    findings: { ...counts, onLines: comments.length, dropped: found.dropped.length, malformed: found.problems.length },
    lineComments: comments.map((c) => `${c.path}:${c.startLine ? `${c.startLine}-` : ''}${c.line}`),
  });
  log.info(
    `${issue.id} ${runId}: posted ${verdict} on PR #${run.pr} at ${run.sha.slice(0, 7)} as a ${via} (#${id}, by ${by})`,
  );
  ctx.app.notify({ topic: 'reviews', id: issue.id });
  if (verdict === 'CHANGES_REQUESTED') tellWorkAgent(ctx, issue, { runId, sha: run.sha, pr: run.pr, via, body: text });
  return { issue: issue.id, runId, verdict, via, sha: run.sha, pr: run.pr, id };
}

function refuse(issue: IssueRow, runId: string, e: Error): Error {
  log.warn(`${issue.id} ${runId}: refused to post: ${e.message}`);
  return e;
}

/** The lanes of a full run whose report is there but has no readable verdict. */
function invalidLaneReports(issue: IssueRow, runId: string): { lane: string; path: string; why: string }[] {
  const out: { lane: string; path: string; why: string }[] = [];
  for (const lane of LANES) {
    const file = reportPath(issue.workspace, runId, lane);
    const text = readReviewFile(issue.workspace, file);
    if (text === null) continue; // no report: the synthesis says so in its Convoy Notes
    const v = parseVerdict(text, `${lane}.md`);
    if (!v.ok) out.push({ lane, path: file, why: v.why });
  }
  return out;
}
