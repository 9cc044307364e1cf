// `svc review dismiss <issue> <finding>`: a person says a finding is not worth fixing. The
// journal records it (`review.dismissed`), on either host, and the finding's threads are
// resolved on the host (the local host's line comments; GitHub's review threads). The finding's
// identity covers the code at its location, so once that code changes it is another
// finding and is posted again (docs/review-findings.md).
import { findingMarker } from '../../shared/format/findingMarker';
import type { IssueRow } from '../issues/issueStore';
import { logger } from '../util/log';
import type { ReviewCtx } from './context';
import { iso } from './context';
import { appendJournal, readJournal } from './journal';
import { alreadyDismissedError, unknownFindingError } from './reviewRefusals';
import { readRunFindings } from './runFindings';
import { runsOf } from './runs';

const log = logger('review');

export interface Dismissed {
  issue: string;
  finding: string;
  location: string;
  title: string;
  resolved: number;
}

export async function dismissFinding(
  ctx: ReviewCtx,
  issue: IssueRow,
  finding: string,
  by?: string,
): Promise<Dismissed> {
  const entries = readJournal(issue.workspace);
  const earlier = entries.find((e) => e.kind === 'review.dismissed' && (e as { finding?: string }).finding === finding);
  if (earlier) throw alreadyDismissedError(issue, finding, earlier.at);
  let found: { path: string; line: number; endLine: number; title: string } | undefined;
  let pr: number | null = null;
  for (const run of [...runsOf(entries).values()].reverse()) {
    const f = readRunFindings(issue.workspace, run.runId)?.findings.find((x) => x.id === finding);
    if (f) {
      found = f;
      pr = run.pr;
      break;
    }
  }
  if (!found) throw unknownFindingError(issue, finding);
  const location =
    found.line === found.endLine ? `${found.path}:${found.line}` : `${found.path}:${found.line}-${found.endLine}`;
  appendJournal(issue.workspace, {
    at: iso(ctx.app.now()),
    kind: 'review.dismissed',
    issue: issue.id,
    runId: null,
    sha: null,
    finding,
    location,
    title: found.title,
    ...(by ? { by } : {}),
  });
  ctx.app.notify({ topic: 'reviews', id: issue.id });
  // The journal is what keeps the finding off the lines; resolving its threads on the host
  // shows the person's call there too. A host that fails it leaves the dismissal standing.
  let resolved = 0;
  if (pr !== null)
    resolved = await ctx.hosts
      .forProject(issue.project)
      .resolveLineComments(pr, findingMarker(finding))
      .catch((e: unknown) => {
        log.warn(`${issue.id}: dismissed ${finding}; its threads on PR #${pr} stay open: ${(e as Error).message}`);
        return 0;
      });
  return { issue: issue.id, finding, location, title: found.title, resolved };
}
