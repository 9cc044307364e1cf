// Spec rule 3: if the review parent dies after all four lanes finished, the completed
// reports are still used to post the PR review. The parent's own synthesis.md is posted
// when it is valid; otherwise the daemon writes one from the lane reports (synthesize.ts).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { IssueRow } from '../issues/issueStore';
import { logger } from '../util/log';
import type { ReviewCtx } from './context';
import { readJournal } from './journal';
import { LANES, reportPath } from './paths';
import { postVerdict } from './post';
import { checkPostable, parseVerdict, SYNTHESIS_SECTIONS } from './reportShape';
import { reviewersOf, running } from './reviewers';
import { latestRun } from './runs';
import { synthesize } from './synthesize';
import { readReviewFile } from './reviewFiles';

const log = logger('review');

function whyNotPostable(text: string): string | null {
  try {
    checkPostable(text, 'synthesis.md', SYNTHESIS_SECTIONS);
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

/** Posts when the run's parent has ended without a verdict and every lane is done; true when it posted. Call inside the issue's queue. */
export async function postIfOrphaned(ctx: ReviewCtx, issue: IssueRow, runId: string): Promise<boolean> {
  const run = latestRun(readJournal(issue.workspace));
  if (!run || run.runId !== runId || run.mode !== 'full' || run.phase !== 'dispatched') return false;
  const reviewers = reviewersOf(ctx, issue.id, runId).filter((r) => r.row.archivedAt === null);
  const parent = reviewers.filter((r) => r.role === 'parent').pop();
  if (!parent || running(ctx.conv.get(parent.row.id)!)) return false;
  const lanes = LANES.map((lane) => {
    const row = reviewers.filter((r) => r.role === lane).pop();
    const file = reportPath(issue.workspace, runId, lane);
    const text = readReviewFile(issue.workspace, file);
    // A file of a lane still running may be half written; a valid heading says it is done.
    return {
      lane,
      path: file,
      text,
      done: text !== null && (!row || !running(ctx.conv.get(row.row.id)!) || parseVerdict(text, lane).ok),
    };
  });
  if (!lanes.every((l) => l.done)) return false;
  const p = ctx.conv.get(parent.row.id)!;
  const synthesisFile = reportPath(issue.workspace, runId, 'parent');
  const own = readReviewFile(issue.workspace, synthesisFile);
  // The parent's file is posted only when `svc review post` would take it; otherwise the
  // lane reports are combined, and the parent's file is kept beside the result.
  const unpostable = own === null ? 'it wrote no synthesis.md' : whyNotPostable(own);
  if (unpostable !== null) {
    let why = `The review parent ${p.name} ended (${p.spawnError ? `failed to start: ${p.spawnError}` : (p.exitStatus ?? 'stopped')})`;
    if (own !== null) {
      const kept = path.join(path.dirname(synthesisFile), 'synthesis.unposted.md');
      fs.renameSync(synthesisFile, kept);
      why += ` and its synthesis.md could not be posted (${unpostable}; kept as ${kept})`;
    }
    fs.writeFileSync(
      synthesisFile,
      synthesize({
        issue: issue.id,
        runId,
        sha: run.sha,
        why,
        reports: lanes.map((l) => ({ lane: l.lane, path: l.path, text: l.text! })),
      }).text,
    );
  }
  log.info(`${issue.id} ${runId}: the review parent ended without posting; posting from the lane reports (rule 3)`);
  try {
    await postVerdict(ctx, issue, runId, 'daemon');
    return true;
  } catch (e) {
    log.error(`${issue.id} ${runId}: rule 3 post failed`, e);
    return false;
  }
}
