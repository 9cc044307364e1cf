// svc pr list|show|merge|create — pull requests on the project's code host.
import { findingOf } from '../../shared/format/findingMarker';
import { prCreate, prList, prMerge, prReview, prShow } from '../../shared/protocol/pr';
import type { LineComment, PrDetail, PullRequest } from '../../shared/protocol/pr';
import { bool, JSON_FLAG, jsonText, str, UsageError } from '../cli';
import type { CommandSpec, FlagSpec } from '../cli';
import { connect } from '../client';

const PROJECT: Record<string, FlagSpec> = {
  project: {
    type: 'string',
    help: 'the project (default: the one holding the current folder, or the only one)',
    value: '<key>',
  },
};
const short = (sha: string | null) => (sha ? sha.slice(0, 7) : 'none');

function listLine(p: PullRequest): string {
  return `${p.project}#${p.number}\t${p.state}\t${p.branch} → ${p.base}\t${short(p.head)}\t${p.title}\n`;
}

/** `path:line [finding] first line (resolved) (review #id)`: the finding's id is what `svc review dismiss` takes. */
export function lineCommentText(c: LineComment): string {
  const at = c.startLine === null ? `${c.path}:${c.line}` : `${c.path}:${c.startLine}-${c.line}`;
  const finding = findingOf(c.body);
  const title = c.body.split('\n')[0].replace(/^\*\*(.*)\*\*$/, '$1');
  return `${at}${finding ? ` ${finding}` : ''} ${title}${c.resolved ? ' (resolved)' : ''} (review #${c.reviewId})`;
}

export function showText(d: PrDetail): string {
  const { pr, readiness: r } = d;
  const lines = [
    `${pr.project}#${pr.number} ${pr.state}${pr.draft ? ' (draft)' : ''}: ${pr.title}`,
    `  branch  ${pr.branch} → ${pr.base}`,
    `  head    ${short(pr.head)}`,
    `  author  ${pr.author} (the service reviews as ${d.identity}; ${d.codeHost} code host)`,
  ];
  if (pr.url) lines.push(`  url     ${pr.url}`);
  if (pr.mergeSha) lines.push(`  merged  ${short(pr.mergeSha)} at ${pr.mergedAt}`);
  lines.push('reviews:');
  if (d.reviews.length === 0) lines.push('  (none)');
  for (const v of d.reviews)
    lines.push(`  ${v.author} ${v.state} at ${short(v.commitId)}${v.submittedAt ? ` ${v.submittedAt}` : ''}`);
  const markers = r.approvals.concat(r.blocking).filter((v) => v.via === 'marker');
  for (const m of markers) lines.push(`  ${m.by} ${m.state} at ${short(m.sha)} (marker comment #${m.id})`);
  if (d.lineComments.length > 0) lines.push('line comments:');
  for (const c of d.lineComments) lines.push(`  ${lineCommentText(c)}`);
  lines.push('checks:');
  if (d.checks.length === 0) lines.push('  (none)');
  for (const c of d.checks) lines.push(`  ${c.name} ${c.state}`);
  if (r.ready) lines.push('ready to merge');
  else lines.push('not ready to merge:', ...r.reasons.map((x) => `  - ${x}`));
  if (r.notes.length) lines.push('notes:', ...r.notes.map((x) => `  - ${x}`));
  return lines.join('\n') + '\n';
}

export const prCommands: CommandSpec[] = [
  {
    path: ['pr', 'list'],
    summary: "list pull requests on the project's code host",
    usage: ['[--project <key>] [--state open|closed|merged|all] [--json]'],
    flags: {
      ...PROJECT,
      state: { type: 'string', help: 'which PRs (default open)', value: 'open|closed|merged|all' },
      ...JSON_FLAG,
    },
    async run(a, io) {
      const state = str(a, 'state');
      if (state !== undefined && !['open', 'closed', 'merged', 'all'].includes(state)) {
        throw new UsageError(`--state must be open, closed, merged or all, got '${state}'`);
      }
      const client = await connect(io.env);
      const r = await client.request(prList, {
        project: str(a, 'project'),
        cwd: io.cwd,
        state: state as 'open' | undefined,
      });
      client.close();
      if (bool(a, 'json')) io.out(jsonText(r));
      else if (r.prs.length === 0) io.out(`no ${state ?? 'open'} PRs\n`);
      else for (const p of r.prs) io.out(listLine(p));
      for (const e of r.errors) io.err(`project ${e.project}: ${e.error}\n`);
      return 0;
    },
  },
  {
    path: ['pr', 'show'],
    summary: 'show a pull request: state, head, reviews, checks and merge readiness with the reasons',
    usage: ['<number|branch> [--project <key>] [--json]'],
    flags: { ...PROJECT, ...JSON_FLAG },
    positionals: [{ name: 'number|branch', required: true }],
    async run(a, io) {
      const client = await connect(io.env);
      const d = await client.request(prShow, { project: str(a, 'project'), cwd: io.cwd, pr: a.positionals[0] });
      client.close();
      io.out(bool(a, 'json') ? jsonText(d) : showText(d));
      return 0;
    },
  },
  {
    path: ['pr', 'merge'],
    summary: 'merge a pull request into its base; refused, with the reasons, unless it is ready',
    usage: ['<number|branch> [--project <key>] [--json]'],
    flags: { ...PROJECT, ...JSON_FLAG },
    positionals: [{ name: 'number|branch', required: true }],
    details:
      "Ready means: an approval for the current head by someone other than the author (or the service's own verdict marker for that head), no reviewer requesting changes, and every check green.",
    async run(a, io) {
      const client = await connect(io.env);
      const r = await client.request(prMerge, { project: str(a, 'project'), cwd: io.cwd, pr: a.positionals[0] });
      client.close();
      io.out(
        bool(a, 'json')
          ? jsonText(r)
          : `Merged ${r.pr.project}#${r.pr.number} into ${r.pr.base} (${r.method}, ${short(r.sha)})\n`,
      );
      return 0;
    },
  },
  {
    path: ['pr', 'review'],
    summary: 'low-level: review a pull request as the service identity, pinned to a commit',
    usage: [
      '<number|branch> (--approve | --request-changes | --comment) [--body <text>] [--sha <commit>] [--project <key>] [--json]',
    ],
    flags: {
      ...PROJECT,
      approve: { type: 'boolean', help: 'approve' },
      'request-changes': { type: 'boolean', help: 'request changes (needs --body)' },
      comment: { type: 'boolean', help: 'comment without a verdict (needs --body)' },
      body: { type: 'string', help: 'the review text', value: '<text>' },
      sha: { type: 'string', help: 'the commit reviewed (default: the head now)', value: '<commit>' },
      ...JSON_FLAG,
    },
    positionals: [{ name: 'number|branch', required: true }],
    details:
      "Low-level command for people and scripts; the review pipeline posts its own reviews. The code host refuses an approval or a change request on the identity's own PR, as GitHub does.",
    async run(a, io) {
      const events = (['approve', 'request-changes', 'comment'] as const).filter((f) => bool(a, f));
      if (events.length !== 1) throw new UsageError('give exactly one of --approve, --request-changes, --comment');
      const event = ({ approve: 'APPROVE', 'request-changes': 'REQUEST_CHANGES', comment: 'COMMENT' } as const)[
        events[0]
      ];
      const client = await connect(io.env);
      const r = await client.request(prReview, {
        project: str(a, 'project'),
        cwd: io.cwd,
        pr: a.positionals[0],
        event,
        body: str(a, 'body'),
        sha: str(a, 'sha'),
      });
      client.close();
      io.out(
        bool(a, 'json')
          ? jsonText(r)
          : `Reviewed ${r.pr.project}#${r.pr.number}: ${r.review.state} at ${short(r.review.commitId)} as ${r.review.author}\n`,
      );
      return 0;
    },
  },
  {
    path: ['pr', 'create'],
    summary: 'low-level: open a pull request for a pushed branch (svc done does this for you)',
    usage: ['--project <key> --branch <b> --title <t> [--body <text>] [--base <b>] [--json]'],
    flags: {
      project: { type: 'string', help: 'the project', value: '<key>' },
      branch: { type: 'string', help: 'the head branch, already pushed to the remote', value: '<b>' },
      title: { type: 'string', help: 'the PR title', value: '<t>' },
      body: { type: 'string', help: 'the PR description', value: '<text>' },
      base: { type: 'string', help: "the branch to merge into (default: the project's default branch)", value: '<b>' },
      ...JSON_FLAG,
    },
    details: 'Low-level command for tests and scripts; the review pipeline opens PRs itself.',
    async run(a, io) {
      for (const f of ['project', 'branch', 'title']) {
        if (!str(a, f)) throw new UsageError(`--${f} is required`);
      }
      const client = await connect(io.env);
      const pr = await client.request(prCreate, {
        project: str(a, 'project')!,
        branch: str(a, 'branch')!,
        title: str(a, 'title')!,
        body: str(a, 'body'),
        base: str(a, 'base'),
      });
      client.close();
      io.out(
        bool(a, 'json')
          ? jsonText(pr)
          : `Opened ${pr.project}#${pr.number}: ${pr.branch} → ${pr.base} at ${short(pr.head)}\n`,
      );
      return 0;
    },
  },
];
