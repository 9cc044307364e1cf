// The findings of a run as posted (docs/review-findings.md): gathered from its reports,
// verified at the reviewed head, compared with the last reviewed run, and recorded in
// `.svc/review/<runId>/findings.json` so the next run knows what was open, what was
// already on its line and what a person dismissed (journal `review.dismissed`, or a
// thread resolved on the code host).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FindingInfo, JournalEntry } from '../../shared/protocol/review';
import type { CodeHost, NewLineComment } from '../codehost/codeHost';
import { spawnGit } from '../git/gitExec';
import type { IssueRow } from '../issues/issueStore';
import { FINDING_MARKER } from '../../shared/format/findingMarker';
import {
  commentBody,
  findingsNotes,
  inDiff,
  parseDiffHunks,
  parseFindings,
  trackFindings,
  verifyFindings,
} from './findings';
import type { DiffHunks, Dropped, Finding, FindingProblem, Tracked, WrittenFinding } from './findings';
import { readJournal } from './journal';
import { LANES, reportPath, runDir } from './paths';
import { readReviewFile } from './reviewFiles';
import type { Run } from './runs';
import { runsOf } from './runs';

export interface RunFindings {
  runId: string;
  sha: string;
  findings: Finding[];
  /** Ids posted as line comments by this run. */
  posted: string[];
}

export interface Gathered {
  tracked: Tracked[];
  dropped: Dropped[];
  problems: FindingProblem[];
  since: { runId: string; sha: string } | null;
  comments: NewLineComment[];
  /** The service's part of the posted body (under Convoy Notes). */
  notes: string;
  record: RunFindings;
}

const FILE = 'findings.json';

export function readRunFindings(workspace: string, runId: string): RunFindings | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(runDir(workspace, runId), FILE), 'utf8')) as RunFindings;
  } catch {
    return null;
  }
}

export function writeRunFindings(workspace: string, r: RunFindings): void {
  const file = path.join(runDir(workspace, r.runId), FILE);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(r, null, 2) + '\n');
  fs.renameSync(`${file}.tmp`, file);
}

/** The newest run before `runId` whose verdict was posted: the last reviewed commit. */
export function lastReviewed(entries: JournalEntry[], runId: string): { runId: string; sha: string } | null {
  const runs = [...runsOf(entries).values()].filter((r) => r.runId !== runId && r.phase === 'verdict');
  const last = runs[runs.length - 1];
  return last ? { runId: last.runId, sha: last.sha } : null;
}

/** Finding ids dismissed in the journal (`svc review dismiss`). */
export function journalDismissals(entries: JournalEntry[]): Set<string> {
  const out = new Set<string>();
  for (const e of entries)
    if (e.kind === 'review.dismissed' && typeof (e as { finding?: unknown }).finding === 'string')
      out.add((e as unknown as { finding: string }).finding);
  return out;
}

/** The reports a run's findings come from: the lanes' and the posted file (synthesis or review.md). */
function reportsOf(issue: IssueRow, run: Run, postedText: string): { from: string; text: string }[] {
  const out: { from: string; text: string }[] = [];
  if (run.mode === 'full')
    for (const lane of LANES) {
      const text = readReviewFile(issue.workspace, reportPath(issue.workspace, run.runId, lane));
      if (text !== null) out.push({ from: lane, text });
    }
  out.push({ from: run.mode === 'quick' ? 'review' : 'synthesis', text: postedText });
  return out;
}

async function filesAt(cwd: string, sha: string, paths: string[]): Promise<Map<string, string | null>> {
  const out = new Map<string, string | null>();
  for (const p of new Set(paths)) {
    if (p.startsWith('/') || p.split('/').includes('..')) continue;
    const r = await spawnGit(cwd, ['show', `${sha}:${p}`], { okCodes: [128] });
    out.set(p, r.code === 0 ? r.stdout.toString('utf8') : null);
  }
  return out;
}

/** The diff base the run's reviewers were given (its `review.dispatched` entry). */
function baseOf(entries: JournalEntry[], runId: string): string | null {
  let base: string | null = null;
  for (const e of entries) {
    const b = (e as { base?: unknown }).base;
    if (e.runId === runId && typeof b === 'string') base = b;
  }
  return base;
}

/** The PR diff's hunks for the findings' files, or null when it cannot be read (nothing is held back then). */
async function diffHunks(cwd: string, base: string | null, sha: string, tracked: Tracked[]): Promise<DiffHunks | null> {
  if (base === null) return null;
  const paths = [...new Set(tracked.map((t) => t.finding.path))];
  const r = await spawnGit(cwd, ['diff', '-U3', '--no-color', '--no-ext-diff', base, sha, '--', ...paths], {
    okCodes: [128],
  });
  return r.code === 0 ? parseDiffHunks(r.stdout.toString('utf8')) : null;
}

/** Everything the post needs about the run's findings; nothing is written here. */
export async function gatherFindings(host: CodeHost, issue: IssueRow, run: Run, postedText: string): Promise<Gathered> {
  const written: WrittenFinding[] = [];
  const problems: FindingProblem[] = [];
  for (const r of reportsOf(issue, run, postedText)) {
    const p = parseFindings(r.text, r.from);
    written.push(...p.findings);
    problems.push(...p.problems);
  }
  const files = await filesAt(
    issue.workspace,
    run.sha,
    written.map((f) => f.path),
  );
  const { kept, dropped } = verifyFindings(written, (p) => files.get(p) ?? null);
  const entries = readJournal(issue.workspace);
  const since = lastReviewed(entries, run.runId);
  const before = since ? (readRunFindings(issue.workspace, since.runId)?.findings ?? []) : [];
  const everPosted = new Set<string>();
  for (const r of runsOf(entries).values())
    if (r.runId !== run.runId)
      for (const id of readRunFindings(issue.workspace, r.runId)?.posted ?? []) everPosted.add(id);
  const dismissed = journalDismissals(entries);
  if (run.pr !== null)
    for (const c of await host.listLineComments(run.pr)) {
      const m = FINDING_MARKER.exec(c.body);
      if (m && c.resolved) dismissed.add(m[1]);
    }
  const tracked = trackFindings(kept, before, dismissed, everPosted);
  // A host takes comments only on lines of the PR's diff (GitHub refuses the whole review
  // otherwise): a finding elsewhere is listed in the body, and goes on its line once a later
  // change brings its lines into the diff.
  const toPost = tracked.filter((t) => t.post);
  if (toPost.length > 0) {
    const hunks = await diffHunks(issue.workspace, baseOf(entries, run.runId), run.sha, toPost);
    for (const t of toPost)
      if (hunks !== null && !inDiff(t.finding, hunks)) {
        t.post = false;
        t.offDiff = true;
      }
  }
  const comments = tracked
    .filter((t) => t.post)
    .map((t) => ({
      path: t.finding.path,
      line: t.finding.endLine,
      ...(t.finding.endLine > t.finding.line ? { startLine: t.finding.line } : {}),
      body: commentBody(t.finding),
    }));
  return {
    tracked,
    dropped,
    problems,
    since,
    comments,
    notes: findingsNotes({ tracked, dropped, problems, since }),
    record: {
      runId: run.runId,
      sha: run.sha,
      findings: kept,
      posted: tracked.filter((t) => t.post).map((t) => t.finding.id),
    },
  };
}

/** The newest posted run's findings with their status, for `svc show` and the Reviews view. */
export function postedFindings(workspace: string, entries: JournalEntry[]): FindingInfo[] | undefined {
  const runs = [...runsOf(entries).values()].filter((r) => r.phase === 'verdict').reverse();
  for (const run of runs) {
    const found = findingsOfRun(workspace, entries, run.runId);
    if (found) return found;
  }
  return undefined;
}

/** One posted run's findings with their status against the run before it; undefined when it kept none. */
export function findingsOfRun(workspace: string, entries: JournalEntry[], runId: string): FindingInfo[] | undefined {
  const record = readRunFindings(workspace, runId);
  if (!record) return undefined;
  const since = lastReviewed(entries, runId);
  const before = since ? (readRunFindings(workspace, since.runId)?.findings ?? []) : [];
  const onLines = new Set<string>();
  for (const r of runsOf(entries).values())
    for (const id of readRunFindings(workspace, r.runId)?.posted ?? []) onLines.add(id);
  const tracked = trackFindings(record.findings, before, journalDismissals(entries), new Set());
  return tracked.map((t) => ({
    id: t.finding.id,
    severity: t.finding.severity,
    location:
      t.finding.line === t.finding.endLine
        ? `${t.finding.path}:${t.finding.line}`
        : `${t.finding.path}:${t.finding.line}-${t.finding.endLine}`,
    title: t.finding.title,
    status: t.status,
    dismissed: t.dismissed,
    onLine: onLines.has(t.finding.id),
  }));
}
