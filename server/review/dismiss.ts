// `svc review dismiss <issue> <finding>`: a person says a finding is not worth fixing. The
// journal records it (`review.dismissed`), on either host; the local host also marks the
// finding's line comments resolved, as resolving the thread does on GitHub. The finding's
// identity covers the code at its location, so once that code changes it is another
// finding and is posted again (docs/review-findings.md).
import { findingMarker } from '../../shared/format/findingMarker';
import type { IssueRow } from '../issues/issueStore';
import type { ReviewCtx } from './context';
import { iso } from './context';
import { appendJournal, readJournal } from './journal';
import { alreadyDismissedError, unknownFindingError } from './reviewRefusals';
import { readRunFindings } from './runFindings';
import { runsOf } from './runs';

export interface Dismissed {
  issue: string;
  finding: string;
  location: string;
  title: string;
  resolved: number;
}

export function dismissFinding(ctx: ReviewCtx, issue: IssueRow, finding: string, by?: string): Dismissed {
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
  const host = ctx.hosts.forProject(issue.project);
  const resolved = pr !== null && host.resolveLineComments ? host.resolveLineComments(pr, findingMarker(finding)) : 0;
  ctx.app.notify({ topic: 'reviews', id: issue.id });
  return { issue: issue.id, finding, location, title: found.title, resolved };
}
