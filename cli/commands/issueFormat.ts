// `svc show <id>` as text.
import * as path from 'node:path';
import type { IssueState, JournalEntry, ReviewerInfo } from '../../shared/protocol/review';
import { reviewStall } from '../../shared/format/reviewStall';
import { textOf } from '../../shared/format/text';

const short = (sha: string | null | undefined) => (sha ? sha.slice(0, 7) : 'none');

export function journalLine(e: JournalEntry): string {
  const x = e as JournalEntry & Record<string, unknown>;
  const extra: string[] = [];
  for (const k of ['mode', 'source', 'trigger', 'verdict', 'via', 'by', 'replaces'])
    if (x[k] !== undefined) extra.push(`${k}=${textOf(x[k])}`);
  if (x.restart) extra.push(`restart=${(x.roles as string[] | undefined)?.join(',') ?? 'yes'}`);
  if (Array.isArray(x.stopped)) extra.push(`stopped=${(x.stopped as string[]).length}`);
  return `${e.at}  ${e.kind.padEnd(19)} ${e.runId ?? '-'} ${short(e.sha)}${extra.length ? `  ${extra.join(' ')}` : ''}`;
}

export function showIssueText(s: IssueState): string {
  const { issue: i, pr, run } = s;
  const out = [`${i.id}: ${i.title}`, `  branch      ${i.branch}`, `  workspace   ${i.workspace}`];
  out.push(`  work agent  ${i.agent ? `${i.agent.name} (#${i.agent.id}) ${i.agent.activity}` : 'none'}`);
  if (!pr) out.push('  PR          none (svc done opens it)');
  else {
    out.push(`  PR          #${pr.number} ${pr.state}, head ${short(pr.head)}, review ${pr.reviewState}`);
    out.push(`  merge       ${pr.ready ? 'ready' : 'not ready'}`);
    for (const r of pr.reasons) out.push(`                - ${r}`);
    for (const c of pr.checks) out.push(`  check       ${c.name}: ${c.state}`);
  }
  if (run)
    out.push(
      `  review      ${run.runId} ${run.mode} at ${short(run.sha)}: ${run.phase}${run.verdict ? ` ${run.verdict}` : ''}`,
    );
  const stall = reviewStall(s);
  if (stall) out.push(`  stalled     ${stall.why}; next: ${stall.command}`);
  if (s.reviewers.length) {
    out.push('reviewers:');
    const w = Math.max(...s.reviewers.map((r) => r.name.length));
    for (const r of s.reviewers) {
      out.push(
        `  ${r.name.padEnd(w)}  ${r.role.padEnd(12)} ${(r.alive ? 'alive' : 'not alive').padEnd(9)} ${r.activity.padEnd(15)} ${reportText(r)}`,
      );
    }
  }
  if (s.journal.length) {
    out.push('journal:');
    for (const e of s.journal) out.push(`  ${journalLine(e)}`);
  }
  return out.join('\n') + '\n';
}

/** A lane's report, or the parent's file: posted, unposted, or unposted and not postable. */
function reportText(r: ReviewerInfo): string {
  const { report } = r;
  const name = path.basename(report.path);
  if (report.posted) return `posted ${report.verdict ?? ''}`.trimEnd();
  if (!report.exists) return 'no report';
  if (r.role !== 'parent' && r.role !== 'quick') return report.verdict ?? 'invalid report';
  return report.verdict
    ? `${name} ${report.verdict}, not posted`
    : `${name} not posted, not postable: ${report.problem ?? ''}`.trimEnd();
}
