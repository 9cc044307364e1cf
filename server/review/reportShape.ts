// The shape of review files (spec: Shape of synthesis.md). Every file starts with a
// heading `Verdict: APPROVED | CHANGES_REQUESTED | FAILED`; synthesis.md then has the
// sections Summary, Blockers, Evidence, Convoy Notes in that order (review.md, the
// quick-mode pass, the first three). Pure, so every refusal is unit-tested.
import { VERDICTS } from '../../shared/protocol/review';
import type { VerdictName } from '../../shared/protocol/review';
import { usageError } from '../../shared/errors';

/** A posted body must fit a PR review (65,536 characters on GitHub) with room for the marker. */
export const MAX_REPORT_CHARS = 60_000;

export const SYNTHESIS_SECTIONS = ['Summary', 'Blockers', 'Evidence', 'Convoy Notes'];
export const QUICK_SECTIONS = ['Summary', 'Blockers', 'Evidence'];

const HEADING = /^(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$/;
const FENCE = /^[ \t]*(`{3,}|~{3,})/;

/** Markdown headings outside fenced blocks, in order. */
export function headings(text: string): string[] {
  const out: string[] = [];
  let fence: string | null = null;
  for (const line of text.split(/\r?\n/)) {
    const f = FENCE.exec(line);
    if (f) {
      if (fence === null) fence = f[1][0];
      else if (f[1][0] === fence) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const h = HEADING.exec(line);
    if (h) out.push(h[2]);
  }
  return out;
}

export type VerdictParse = { ok: true; verdict: VerdictName } | { ok: false; why: string };

/** The verdict of the file's first line (a `Verdict:` heading), or why there is none. */
export function parseVerdict(text: string, file: string): VerdictParse {
  const first = text.split(/\r?\n/).find((l) => l.trim() !== '');
  if (first === undefined) return { ok: false, why: `${file} is empty; it must start with a heading \`# Verdict: ${VERDICTS.join(' | ')}\`` };
  const h = HEADING.exec(first.trim());
  const m = h ? /^Verdict:[ \t]*(.*)$/i.exec(h[2]) : null;
  if (!m) return { ok: false, why: `${file} must start with a heading \`# Verdict: ${VERDICTS.join(' | ')}\`; its first line is '${clip(first.trim())}'` };
  const word = m[1].trim();
  if (!(VERDICTS as readonly string[]).includes(word)) return { ok: false, why: `unknown verdict '${clip(word)}' in ${file} (one of ${VERDICTS.join(', ')})` };
  return { ok: true, verdict: word as VerdictName };
}

/** Validates a file to be posted; returns its verdict or throws a usage refusal saying what is wrong. */
export function checkPostable(text: string, file: string, sections: string[]): VerdictName {
  if (text.length > MAX_REPORT_CHARS) throw usageError('reportTooLarge', `${file} has ${text.length} characters; the limit is ${MAX_REPORT_CHARS} (a PR review body holds 65,536)`);
  const v = parseVerdict(text, file);
  if (!v.ok) throw usageError('badVerdictHeading', v.why);
  const seen = headings(text)
    .slice(1)
    .map((h) => h.trim().toLowerCase());
  let from = 0;
  for (const s of sections) {
    const at = seen.indexOf(s.toLowerCase(), from);
    if (at < 0) {
      const anywhere = seen.includes(s.toLowerCase());
      throw usageError(
        'badReportSections',
        `${file} ${anywhere ? `has its \`${s}\` section out of order` : `has no \`${s}\` section`} (after the Verdict heading: ${sections.join(', ')}, in this order)`,
      );
    }
    from = at + 1;
  }
  return v.verdict;
}

function clip(s: string): string {
  return s.length > 80 ? `${s.slice(0, 80)}…` : s;
}
