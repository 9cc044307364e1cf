// The shape of review files (of synthesis.md and the reports, in docs/spec.md: Review convoy agents and files). Every file starts with a
// heading `Verdict: APPROVED | CHANGES_REQUESTED | FAILED` (a plain `Verdict: X` line is
// accepted too and posted as the heading); synthesis.md then has the
// sections Summary, Blockers, Evidence, Convoy Notes in that order (review.md, the
// quick-mode pass, the first three). Pure, so every refusal is unit-tested.
import { VERDICTS } from '../../shared/protocol/review';
import type { VerdictName } from '../../shared/protocol/review';
import {
  badVerdictHeadingError,
  reportTooLargeError,
  sectionMissingError,
  sectionOutOfOrderError,
} from './reviewRefusals';

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

const VERDICT_LINE = /^Verdict:[ \t]*(.*)$/i;
const FIRST_LINE_CHOICES = VERDICTS.map((v) => `\`# Verdict: ${v}\``)
  .join(', ')
  .replace(/, ([^,]*)$/, ' or $1');

/** The first non-blank line: its index among the file's lines and its text, trimmed. */
function firstLine(text: string): { index: number; line: string } | undefined {
  const lines = text.split(/\r?\n/);
  const index = lines.findIndex((l) => l.trim() !== '');
  return index < 0 ? undefined : { index, line: lines[index].trim() };
}

/** The verdict of the file's first line — `Verdict: <X>`, as a heading (`# Verdict: X`) or
 *  a plain line, as models write it either way — or what to change when there is none. */
export function parseVerdict(text: string, file: string): VerdictParse {
  const first = firstLine(text);
  if (first === undefined) return { ok: false, why: `${file} is empty; its first line must be ${FIRST_LINE_CHOICES}` };
  const h = HEADING.exec(first.line);
  const m = VERDICT_LINE.exec(h ? h[2] : first.line);
  if (!m) {
    return {
      ok: false,
      why: `${file} must start with its verdict line; its first line is '${clip(first.line)}': put ${FIRST_LINE_CHOICES} first`,
    };
  }
  const word = m[1].trim();
  if (!(VERDICTS as readonly string[]).includes(word)) {
    const known = VERDICTS.find((v) => v === word.toUpperCase().replace(/[ -]/g, '_'));
    const fix = known ? `\`# Verdict: ${known}\` (verdicts are written in capitals)` : FIRST_LINE_CHOICES;
    return { ok: false, why: `unknown verdict '${clip(word)}' in ${file}: change its first line to ${fix}` };
  }
  return { ok: true, verdict: word as VerdictName };
}

/** The file as posted: its verdict line written the one way, `# Verdict: <X>`. */
export function normalizedReport(text: string, verdict: VerdictName): string {
  const first = firstLine(text);
  if (first === undefined) return text;
  const lines = text.split(/\r?\n/);
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  lines[first.index] = `# Verdict: ${verdict}`;
  return lines.slice(first.index).join(eol);
}

/** Validates a file to be posted; returns its verdict or throws a usage refusal saying what to change. */
export function checkPostable(text: string, file: string, sections: string[]): VerdictName {
  if (text.length > MAX_REPORT_CHARS) throw reportTooLargeError(file, text.length, MAX_REPORT_CHARS);
  const v = parseVerdict(text, file);
  if (!v.ok) throw badVerdictHeadingError(v.why);
  const seen = headings(normalizedReport(text, v.verdict))
    .slice(1)
    .map((h) => h.trim().toLowerCase());
  const order = `the sections after the verdict line are ${sections.join(', ')}, in this order`;
  let from = 0;
  for (const [i, s] of sections.entries()) {
    const at = seen.indexOf(s.toLowerCase(), from);
    if (at < 0) {
      if (seen.includes(s.toLowerCase())) throw sectionOutOfOrderError(file, s, order);
      const where = i === 0 ? 'right after the verdict line' : `after the \`## ${sections[i - 1]}\` section`;
      throw sectionMissingError(file, s, where, order);
    }
    from = at + 1;
  }
  return v.verdict;
}

function clip(s: string): string {
  return s.length > 80 ? `${s.slice(0, 80)}…` : s;
}
