// The review briefs: real instructions for real models, one Markdown template per concern
// (server/review/briefs/*.md, bundled as text). Each names the commit, the diff base, the
// file to write and the verdict format. `{{name}}` placeholders are filled here; an
// unknown placeholder is a bug and throws.
import type { ReviewLane } from '../../shared/config';
import type { ReviewerRole } from '../../shared/protocol/review';
import correctness from './briefs/correctness.md';
import laneCommon from './briefs/laneCommon.md';
import parent from './briefs/parent.md';
import performance from './briefs/performance.md';
import quick from './briefs/quick.md';
import requirements from './briefs/requirements.md';
import security from './briefs/security.md';

export interface BriefVars {
  issue: string;
  title: string;
  issueBody: string;
  project: string;
  pr: number;
  branch: string;
  sha: string;
  base: string;
  baseRef: string;
  worktree: string;
  runId: string;
  /** The file this reviewer writes. */
  report: string;
  /** Lane name → report path (the parent's brief lists them). */
  laneReports: Record<ReviewLane, string>;
  /** The last reviewed commit (the newest earlier run with a posted verdict), if any. */
  since?: { runId: string; sha: string };
  /** The request's `-m` message, if any. */
  message?: string;
}

const LANE_TEMPLATES: Record<ReviewLane, string> = { security, correctness, performance, requirements };

export function fill(template: string, vars: Record<string, string>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    if (!(name in vars)) throw new Error(`review brief placeholder {{${name}}} has no value`);
    return vars[name];
  });
}

const quote = (text: string): string =>
  text
    .split('\n')
    .map((l) => (l === '' ? '>' : `> ${l}`))
    .join('\n');

export function briefFor(role: ReviewerRole, v: BriefVars): string {
  const flat: Record<string, string> = {
    issue: v.issue,
    title: v.title,
    // Quoted: the issue's text is the brief's subject, never instructions to run (a fenced
    // `svc-script` block in it must not drive a scripted reviewer either).
    issueBody: quote(
      v.issueBody.trim() === '' ? '(The issue has no description beyond its title.)' : v.issueBody.trim(),
    ),
    project: v.project,
    pr: String(v.pr),
    branch: v.branch,
    sha: v.sha,
    shortSha: v.sha.slice(0, 7),
    base: v.base,
    baseRef: v.baseRef,
    worktree: v.worktree,
    runId: v.runId,
    report: v.report,
    laneReports: Object.entries(v.laneReports)
      .map(([lane, p]) => `  - ${lane}: \`${p}\``)
      .join('\n'),
    since: v.since
      ? `- Last reviewed: \`${v.since.sha}\` (review ${v.since.runId}). What changed since then: \`git diff ${v.since.sha} ${v.sha}\`. Start there, but judge the whole change: findings still open are listed again as still open.\n`
      : '',
    message: v.message ? `\nThe person who asked for this review wrote:\n\n${quote(v.message.trim())}\n` : '',
  };
  if (role === 'parent') return fill(parent, flat);
  if (role === 'quick') return fill(quick, flat);
  return fill(LANE_TEMPLATES[role], { ...flat, common: fill(laneCommon, flat) });
}
