// Spec rule 3: if the review parent dies after all four lanes finished, the daemon
// combines the four lane reports into synthesis.md itself and posts it. Pure: the caller
// reads the reports and writes the result. The verdict is the strictest of the lanes':
// any CHANGES_REQUESTED → CHANGES_REQUESTED; else any FAILED or unreadable → FAILED;
// else APPROVED.
import type { ReviewLane } from '../../shared/config';
import type { VerdictName } from '../../shared/protocol/review';
import { MAX_REPORT_CHARS, parseVerdict } from './reportShape';

export interface LaneText {
  lane: ReviewLane;
  path: string;
  text: string;
}

export interface SynthesisInput {
  issue: string;
  runId: string;
  sha: string;
  /** Why the daemon writes it (e.g. "the review parent agent-web-1-review ended (exit 3)"). */
  why: string;
  reports: LaneText[];
}

/** The text under a `## <name>` heading, up to the next heading of the same or a higher level. */
export function section(text: string, name: string): string | undefined {
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((l) => new RegExp(`^(#{1,6})[ \\t]+${name}[ \\t]*#*[ \\t]*$`, 'i').test(l.trim()));
  if (start < 0) return undefined;
  const level = /^#+/.exec(lines[start].trim())![0].length;
  const body: string[] = [];
  for (const l of lines.slice(start + 1)) {
    const h = /^(#{1,6})[ \t]/.exec(l.trim());
    if (h && h[1].length <= level) break;
    body.push(l);
  }
  return body.join('\n').trim();
}

/** Lane headings go two levels down so they nest under the synthesis sections. */
function demote(text: string): string {
  return text.replace(/^(#{1,4})(?=[ \t])/gm, '$1##');
}

export function combinedVerdict(verdicts: (VerdictName | null)[]): VerdictName {
  if (verdicts.includes('CHANGES_REQUESTED')) return 'CHANGES_REQUESTED';
  if (verdicts.some((v) => v === null || v === 'FAILED')) return 'FAILED';
  return 'APPROVED';
}

export function synthesize(input: SynthesisInput): { verdict: VerdictName; text: string } {
  const parsed = input.reports.map((r) => {
    const v = parseVerdict(r.text, `${r.lane}.md`);
    return { ...r, verdict: v.ok ? v.verdict : null, problem: v.ok ? null : v.why };
  });
  const verdict = combinedVerdict(parsed.map((p) => p.verdict));
  const tally = parsed.map((p) => `${p.lane} ${p.verdict ?? 'unreadable'}`).join(', ');
  const blockers = parsed
    .filter((p) => p.verdict === 'CHANGES_REQUESTED' || p.verdict === 'FAILED' || p.verdict === null)
    .map(
      (p) =>
        `### ${p.lane}\n\n${p.verdict === null ? `The report is unreadable: ${p.problem}` : (section(p.text, 'Blockers') ?? 'See its report under Evidence.')}`,
    );
  const budget = Math.floor((MAX_REPORT_CHARS - 6_000) / Math.max(1, parsed.length));
  const evidence = parsed.map((p) => {
    const body = demote(p.text.trim());
    return `### ${p.lane} report\n\n${body.length > budget ? `${body.slice(0, budget)}\n\n(cut at ${budget} characters; the whole report: ${p.path})` : body}`;
  });
  const text = [
    `# Verdict: ${verdict}`,
    '',
    '## Summary',
    '',
    `Review ${input.runId} of ${input.issue} at ${input.sha.slice(0, 7)}. ${input.why} before posting, so the service combined the four lane reports (${tally}) without a synthesis pass: the verdict is the strictest lane verdict.`,
    '',
    '## Blockers',
    '',
    blockers.length ? blockers.join('\n\n') : 'None.',
    '',
    '## Evidence',
    '',
    evidence.join('\n\n'),
    '',
    '## Convoy Notes',
    '',
    ...parsed.map((p) => `- ${p.lane}: ${p.verdict ?? `unreadable (${p.problem})`} — ${p.path}`),
    `- synthesized by the service: ${input.why}`,
    '',
  ].join('\n');
  return { verdict, text };
}
