// Findings as data (docs/review-findings.md): a report's `## Findings` section holds one
// `### [severity] path:line[-end] — title` heading per finding, its body under it. Pure:
// parsing, identity, verification against the reviewed head (through a file reader) and
// the status against earlier runs, so every rule is unit-tested.
import { createHash } from 'node:crypto';
import { findingMarker } from '../../shared/format/findingMarker';
import { section } from './synthesize';

export const SEVERITIES = ['blocker', 'should-fix', 'nit'] as const;
export type Severity = (typeof SEVERITIES)[number];

export interface Finding {
  /** Stable across commits: path + the cited lines' normalized content + title (not the line number). */
  id: string;
  severity: Severity;
  path: string;
  line: number;
  /** The last line of a range; equal to `line` for one line. */
  endLine: number;
  title: string;
  body: string;
  /** Which report it came from (`security`, `synthesis` …). */
  from: string;
}

/** A finding as written, before it was checked against the head (no identity yet). */
export type WrittenFinding = Omit<Finding, 'id'>;

export interface FindingProblem {
  from: string;
  /** The heading as written. */
  heading: string;
  why: string;
}

const HEADING = /^###[ \t]+(.*?)[ \t]*$/;
const FINDING = /^\[([a-z-]+)\][ \t]+(\S+?):(\d+)(?:-(\d+))?[ \t]+(?:—|--|-)[ \t]+(.+)$/i;

/** The findings of one report's `## Findings` section, and each heading that is not one. */
export function parseFindings(text: string, from: string): { findings: WrittenFinding[]; problems: FindingProblem[] } {
  const body = section(text, 'Findings');
  const findings: WrittenFinding[] = [];
  const problems: FindingProblem[] = [];
  if (body === undefined || /^none\.?$/i.test(body.trim())) return { findings, problems };
  let current: { heading: string; lines: string[] } | undefined;
  const blocks: { heading: string; lines: string[] }[] = [];
  for (const l of body.split(/\r?\n/)) {
    const h = HEADING.exec(l);
    if (h) blocks.push((current = { heading: h[1], lines: [] }));
    else if (current) current.lines.push(l);
    else if (l.trim() !== '')
      problems.push({ from, heading: l.trim(), why: 'text before the first `### [severity] path:line — title`' });
  }
  for (const b of blocks) {
    const m = FINDING.exec(b.heading);
    if (!m) {
      problems.push({
        from,
        heading: b.heading,
        why: 'a finding heading is `### [blocker|should-fix|nit] path:line — title` (or path:start-end)',
      });
      continue;
    }
    const severity = m[1].toLowerCase();
    if (!(SEVERITIES as readonly string[]).includes(severity)) {
      problems.push({ from, heading: b.heading, why: `unknown severity '${m[1]}': use blocker, should-fix or nit` });
      continue;
    }
    const line = Number(m[3]);
    const endLine = m[4] ? Number(m[4]) : line;
    if (line < 1 || endLine < line) {
      problems.push({
        from,
        heading: b.heading,
        why: `the line range ${m[3]}-${m[4] ?? m[3]} is not start ≤ end, from 1`,
      });
      continue;
    }
    findings.push({
      severity: severity as Severity,
      path: m[2].replace(/^\.\//, ''),
      line,
      endLine,
      title: m[5].trim(),
      body: b.lines.join('\n').trim(),
      from,
    });
  }
  return { findings, problems };
}

/** Whitespace does not make another finding: each line trimmed, runs of blanks as one. */
export function normalizedLines(lines: readonly string[]): string {
  return lines.map((l) => l.trim().replace(/\s+/g, ' ')).join('\n');
}

export function findingId(path: string, cited: readonly string[], title: string): string {
  const h = createHash('sha256').update(`${path}\n${normalizedLines(cited)}\n${title.trim().toLowerCase()}`);
  return `f-${h.digest('hex').slice(0, 10)}`;
}

export interface Dropped {
  finding: WrittenFinding;
  why: string;
}

/**
 * Keeps the findings whose location exists at the reviewed head and gives each its
 * identity; `read` answers a file's text at the head, or null when it is not there. Two
 * reports citing the same problem make one finding (the first, its severity the strictest).
 */
export function verifyFindings(
  written: readonly WrittenFinding[],
  read: (path: string) => string | null,
): { kept: Finding[]; dropped: Dropped[] } {
  const kept = new Map<string, Finding>();
  const dropped: Dropped[] = [];
  for (const f of written) {
    if (f.path.startsWith('/') || f.path.split('/').includes('..')) {
      dropped.push({ finding: f, why: `${f.path} is not a path inside the repository` });
      continue;
    }
    const text = read(f.path);
    if (text === null) {
      dropped.push({ finding: f, why: `${f.path} does not exist at the reviewed head` });
      continue;
    }
    const lines = text.split(/\r?\n/);
    if (lines[lines.length - 1] === '') lines.pop();
    if (f.endLine > lines.length) {
      const cited = f.line === f.endLine ? `line ${f.line}` : `lines ${f.line}-${f.endLine}`;
      const n = `${lines.length} line${lines.length === 1 ? '' : 's'}`;
      dropped.push({ finding: f, why: `${f.path} has ${n} at the reviewed head, not ${cited}` });
      continue;
    }
    const id = findingId(f.path, lines.slice(f.line - 1, f.endLine), f.title);
    const seen = kept.get(id);
    if (seen) {
      if (SEVERITIES.indexOf(f.severity) < SEVERITIES.indexOf(seen.severity)) seen.severity = f.severity;
      continue;
    }
    kept.set(id, { ...f, id });
  }
  return { kept: [...kept.values()], dropped };
}

export type FindingStatus = 'new' | 'open' | 'fixed';

export interface Tracked {
  finding: Finding;
  status: FindingStatus;
  /** Dismissed by a person: listed, never posted on a line again while its code is the same. */
  dismissed: boolean;
  /** Posted as a line comment by this run. */
  post: boolean;
  /** Its lines are outside the PR's diff, where a host takes no comment: listed in the body only. */
  offDiff?: boolean;
}

/** Per file, the new-side line ranges of the diff's hunks (context lines included), as a host takes comments on them. */
export type DiffHunks = ReadonlyMap<string, readonly { start: number; end: number }[]>;

/** `git diff -U3` output → each file's hunks on the new side. */
export function parseDiffHunks(diff: string): Map<string, { start: number; end: number }[]> {
  const out = new Map<string, { start: number; end: number }[]>();
  let file: string | null = null;
  for (const l of diff.split('\n')) {
    if (l.startsWith('+++ ')) {
      file = l === '+++ /dev/null' ? null : l.slice(4).replace(/^b\//, '');
      continue;
    }
    const h = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/.exec(l);
    if (h && file !== null) {
      const start = Number(h[1]);
      const count = h[2] === undefined ? 1 : Number(h[2]);
      if (count === 0) continue;
      const list = out.get(file) ?? [];
      list.push({ start, end: start + count - 1 });
      out.set(file, list);
    }
  }
  return out;
}

/** A finding can go on its line when all its lines are in one hunk of the diff (GitHub refuses the review otherwise). */
export function inDiff(f: Pick<Finding, 'path' | 'line' | 'endLine'>, hunks: DiffHunks): boolean {
  return (hunks.get(f.path) ?? []).some((h) => h.start <= f.line && f.endLine <= h.end);
}

/**
 * Each finding of this run against the previous reviewed run's: `new` (not found there),
 * `open` (found there too, so already on its line: not posted again), and the previous
 * ones gone now, `fixed`. A dismissed one is never posted.
 */
export function trackFindings(
  now: readonly Finding[],
  before: readonly Finding[],
  dismissed: ReadonlySet<string>,
  everPosted: ReadonlySet<string>,
): Tracked[] {
  const prev = new Set(before.map((f) => f.id));
  const ids = new Set(now.map((f) => f.id));
  const out: Tracked[] = now.map((f) => {
    const status: FindingStatus = prev.has(f.id) ? 'open' : 'new';
    const isDismissed = dismissed.has(f.id);
    return { finding: f, status, dismissed: isDismissed, post: !isDismissed && !everPosted.has(f.id) };
  });
  for (const f of before)
    if (!ids.has(f.id)) out.push({ finding: f, status: 'fixed', dismissed: dismissed.has(f.id), post: false });
  return out;
}

const STATUS_WORDS: Record<FindingStatus, string> = { new: 'new', open: 'still open', fixed: 'fixed since' };

function where(f: WrittenFinding): string {
  return f.line === f.endLine ? `${f.path}:${f.line}` : `${f.path}:${f.line}-${f.endLine}`;
}

/** The service's part of the posted body, under Convoy Notes: each finding's status, what was dropped and why. */
export function findingsNotes(o: {
  tracked: readonly Tracked[];
  dropped: readonly Dropped[];
  problems: readonly FindingProblem[];
  since: { sha: string; runId: string } | null;
}): string {
  const lines: string[] = ['### Findings', ''];
  lines.push(
    o.since
      ? `Compared with review ${o.since.runId} at ${o.since.sha.slice(0, 7)}.`
      : 'No earlier reviewed commit: every finding is new.',
  );
  lines.push('');
  if (o.tracked.length === 0) lines.push('- none');
  for (const t of o.tracked) {
    const f = t.finding;
    const extra = t.dismissed
      ? ' (dismissed)'
      : t.post
        ? ' (on its line)'
        : t.offDiff
          ? ' (outside the diff: listed here only)'
          : '';
    lines.push(`- ${f.id} ${STATUS_WORDS[t.status]}${extra}: [${f.severity}] ${where(f)} — ${f.title}`);
  }
  if (o.dropped.length > 0) {
    lines.push('', '### Dropped findings', '');
    for (const d of o.dropped)
      lines.push(`- ${d.finding.from}: [${d.finding.severity}] ${where(d.finding)} — ${d.finding.title}: ${d.why}`);
  }
  if (o.problems.length > 0) {
    lines.push('', '### Malformed findings', '');
    for (const p of o.problems) lines.push(`- ${p.from}: \`${p.heading}\`: ${p.why}`);
  }
  return lines.join('\n');
}

/** The comment on a finding's line; its id stays in it so a thread resolved on the host dismisses it. */
export function commentBody(f: Finding): string {
  return `**[${f.severity}] ${f.title}**\n\n${f.body || '(no detail)'}\n\n${findingMarker(f.id)}`;
}
