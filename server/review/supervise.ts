// Reviewers finish by writing their file and exiting (lifecycle step 2). Harness agents
// stay alive after a turn, so the daemon ends them: a lane whose turn ended with a valid
// report is stopped; the parent (or quick agent) once its verdict is posted. A reviewer
// whose turn ends without its file is told once what is missing, and stopped the second
// time. A reviewer's end re-checks rule 3 (orphaned parent) and the stall rule.
import { logger } from '../util/log';
import type { ReviewCtx } from './context';
import { readJournal } from './journal';
import { reportPath } from './paths';
import type { ReviewPipeline } from './pipeline';
import { parseVerdict } from './reportShape';
import { reviewerOf } from './reviewers';
import { latestRun } from './runs';
import type { StallWatch } from './stall';
import { readReviewFile } from './reviewFiles';

const log = logger('review');

export function supervise(ctx: ReviewCtx, pipeline: ReviewPipeline, stall: StallWatch): () => void {
  const nudged = new Set<number>();

  const stop = (id: number, why: string) => {
    log.info(`stopping reviewer #${id}: ${why}`);
    ctx.conv
      .stop(id, { timeoutMs: 30_000 })
      .catch((e) => log.warn(`stopping reviewer #${id} failed: ${(e as Error).message}`));
  };

  const onTurnEnded = (id: number) => {
    const row = ctx.conv.get(id);
    const r = row && reviewerOf(row);
    if (!row || !r || row.archivedAt !== null) return;
    const issue = ctx.issues.get(row.issueId!);
    if (!issue) return;
    const run = latestRun(readJournal(issue.workspace));
    if (!run || run.runId !== r.runId || run.phase === 'aborted')
      return stop(id, `its review ${r.runId} is no longer current`);
    const file = reportPath(issue.workspace, r.runId, r.role);
    let missing: string | undefined;
    if (r.role === 'parent' || r.role === 'quick') {
      if (run.phase === 'verdict') return stop(id, `review ${r.runId} posted its verdict`);
      missing = `Review ${r.runId} of ${issue.id} is not posted yet. Finish the steps of your brief: write ${file} (first line \`# Verdict: APPROVED | CHANGES_REQUESTED | FAILED\`), then run \`svc review post ${issue.id} --run ${r.runId}\`.`;
    } else {
      const text = readReviewFile(issue.workspace, file);
      const v = text === null ? undefined : parseVerdict(text, `${r.role}.md`);
      if (v?.ok) return stop(id, `${r.role} report written (${v.verdict})`);
      missing = v
        ? `Your report is not valid: ${v.why}. Rewrite ${file} as your brief says.`
        : `You have not written your report. Write it to ${file} now, starting with \`# Verdict: APPROVED | CHANGES_REQUESTED | FAILED\`, as your brief says.`;
    }
    if (nudged.has(id)) return stop(id, 'its turn ended twice without finishing');
    nudged.add(id);
    try {
      ctx.conv.tell(id, missing);
    } catch (e) {
      log.warn(`could not remind reviewer #${id}: ${(e as Error).message}`);
    }
  };

  const onEnded = (id: number) => {
    nudged.delete(id);
    const row = ctx.conv.get(id);
    const r = row && reviewerOf(row);
    if (!row || !r) return;
    if (r.role !== 'quick') void pipeline.synthesizeIfOrphaned(row.issueId!, r.runId);
    stall.kick();
  };

  ctx.conv.events.on('turnEnded', onTurnEnded);
  ctx.conv.events.on('ended', onEnded);
  ctx.conv.events.on('spawnError', onEnded);
  return () => {
    ctx.conv.events.off('turnEnded', onTurnEnded);
    ctx.conv.events.off('ended', onEnded);
    ctx.conv.events.off('spawnError', onEnded);
  };
}
