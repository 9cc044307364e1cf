// svc issue new|list|show|start, svc done, svc show — issues and their derived review state.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { issuesDone, issuesList, issuesNew, issuesShow, issuesStart } from '../../shared/protocol/issues';
import type { IssueInfo } from '../../shared/protocol/issues';
import { reviewShow } from '../../shared/protocol/review';
import { EFFORTS } from '../../shared/config';
import { bool, int, JSON_FLAG, jsonText, str, UsageError } from '../cli';
import type { CommandSpec } from '../cli';
import { withDaemon } from '../client';
import { showIssueText } from './issueFormat';

const short = (sha: string | null) => (sha ? sha.slice(0, 7) : 'none');

function issueText(i: IssueInfo): string {
  const lines = [
    `${i.id}: ${i.title}`,
    `  project    ${i.project}`,
    `  branch     ${i.branch}`,
    `  workspace  ${i.workspace}`,
    `  work agent ${i.agent ? `${i.agent.name} (#${i.agent.id}) ${i.agent.activity}` : 'none (svc issue start ' + i.id + ' --harness <h> --model <m>)'}`,
  ];
  if (i.body.trim())
    lines.push(
      '',
      ...i.body
        .trimEnd()
        .split('\n')
        .map((l) => `  ${l}`),
    );
  return lines.join('\n') + '\n';
}

export const issueCommands: CommandSpec[] = [
  {
    path: ['issue', 'new'],
    summary: 'create an issue: an id <PROJECT>-<n> and a workspace worktree on branch issue/<id>',
    usage: ['--project <key> --title <t> [--body <text> | --body-file <f>] [--json]'],
    flags: {
      project: { type: 'string', help: 'the project', value: '<key>' },
      title: { type: 'string', help: 'the title', value: '<t>' },
      body: {
        type: 'string',
        help: 'the description (the brief; its acceptance criteria guide the requirements reviewer)',
        value: '<text>',
      },
      'body-file': { type: 'string', help: 'read the description from a file (- for stdin)', value: '<f>' },
      ...JSON_FLAG,
    },
    async run(a, io) {
      const project = str(a, 'project');
      const title = str(a, 'title');
      if (!project) throw new UsageError('--project is required');
      if (!title) throw new UsageError('--title is required');
      if (str(a, 'body') !== undefined && str(a, 'body-file') !== undefined)
        throw new UsageError('give --body or --body-file, not both');
      let body = str(a, 'body');
      const file = str(a, 'body-file');
      if (file === '-') body = await io.stdin();
      else if (file !== undefined) {
        try {
          body = fs.readFileSync(path.resolve(io.cwd, file), 'utf8');
        } catch (e) {
          throw new UsageError(`cannot read --body-file ${file}: ${(e as Error).message}`);
        }
      }
      return withDaemon(io, async (client) => {
        const i = await client.request(issuesNew, { project, title, body });
        io.out(
          bool(a, 'json') ? jsonText(i) : `Issue ${i.id}: ${i.title}\n  workspace ${i.workspace} on ${i.branch}\n`,
        );
        return 0;
      });
    },
  },
  {
    path: ['issue', 'list'],
    summary: 'list issues with their work agents',
    usage: ['[--project <key>] [--json]'],
    flags: { project: { type: 'string', help: 'only this project', value: '<key>' }, ...JSON_FLAG },
    async run(a, io) {
      return withDaemon(io, async (client) => {
        const { issues } = await client.request(issuesList, { project: str(a, 'project') });
        if (bool(a, 'json')) io.out(jsonText(issues));
        else if (issues.length === 0) io.out('no issues\n');
        else
          for (const i of issues)
            io.out(`${i.id}\t${i.agent ? `${i.agent.name} ${i.agent.activity}` : 'no work agent'}\t${i.title}\n`);
        return 0;
      });
    },
  },
  {
    path: ['issue', 'show'],
    summary: 'show an issue: title, description, branch, workspace, work agent',
    usage: ['<id> [--json]'],
    flags: { ...JSON_FLAG },
    positionals: [{ name: 'id', required: true }],
    async run(a, io) {
      return withDaemon(io, async (client) => {
        const i = await client.request(issuesShow, { issue: a.positionals[0] });
        io.out(bool(a, 'json') ? jsonText(i) : issueText(i));
        return 0;
      });
    },
  },
  {
    path: ['issue', 'start'],
    summary: "start the issue's work agent agent-<id> in its workspace",
    usage: ['<id> --harness <h> --model <m> [--effort <e>] [--no-wait] [--json]'],
    flags: {
      harness: { type: 'string', help: 'harness of the work agent', value: '<h>' },
      model: { type: 'string', help: 'model of the work agent', value: '<m>' },
      effort: { type: 'string', help: 'low, medium or high', value: '<e>', choices: EFFORTS },
      'no-wait': { type: 'boolean', help: 'return at once instead of waiting for the agent to start' },
      ...JSON_FLAG,
    },
    positionals: [{ name: 'id', required: true }],
    async run(a, io) {
      const harness = str(a, 'harness');
      const model = str(a, 'model');
      if (!harness) throw new UsageError('--harness is required');
      if (!model) throw new UsageError('--model is required');
      const effort = str(a, 'effort');
      if (effort !== undefined && !['low', 'medium', 'high'].includes(effort))
        throw new UsageError(`--effort must be low, medium or high, got '${effort}'`);
      return withDaemon(io, async (client) => {
        const r = await client.request(issuesStart, {
          issue: a.positionals[0],
          harness,
          model,
          effort: effort as 'low' | undefined,
          noWait: bool(a, 'no-wait'),
        });
        if (bool(a, 'json')) io.out(jsonText(r));
        else
          io.out(
            `Work agent ${r.issue.agent!.name} (#${r.issue.agent!.id}) of ${r.issue.id}: ${r.outcome === 'notWaited' ? 'starting' : r.outcome} in ${r.issue.workspace}\n`,
          );
        return r.outcome === 'failed' ? 1 : 0;
      });
    },
  },
  {
    path: ['done'],
    summary: 'the work is complete: push the issue branch, open the PR if there is none, request a review',
    usage: ['[<id>] [--json]'],
    flags: { ...JSON_FLAG },
    positionals: [{ name: 'id' }],
    details: 'Run by the work agent (its $SVC_CONVERSATION names the issue), or by a person with the issue id.',
    async run(a, io) {
      const issue = a.positionals[0];
      if (!issue && !io.env.SVC_CONVERSATION)
        throw new UsageError('give the issue id, or run svc done inside the work agent');
      return withDaemon(io, async (client) => {
        const r = await client.request(issuesDone, { issue, caller: io.env.SVC_CONVERSATION });
        if (bool(a, 'json')) io.out(jsonText(r));
        else {
          io.out(
            `Pushed ${r.issue.branch} at ${short(r.sha)}; ${r.opened ? 'opened' : 'updated'} PR #${r.pr.number}\n`,
          );
          io.out(
            r.reused
              ? `Review ${r.runId} (${r.mode}) of this head is already under way\n`
              : `Review ${r.runId} (${r.mode}) requested\n`,
          );
        }
        return 0;
      });
    },
  },
  {
    path: ['show'],
    summary: "an issue's derived state: PR review state, merge readiness, reviewers, pipeline journal",
    usage: ['<id> [--lines <n>] [--json]'],
    flags: { lines: { type: 'int', help: 'journal entries to show (default 10)', value: '<n>' }, ...JSON_FLAG },
    positionals: [{ name: 'id', required: true }],
    async run(a, io) {
      const lines = int(a, 'lines');
      if (lines !== undefined && lines < 1) throw new UsageError('--lines must be at least 1');
      return withDaemon(io, async (client) => {
        const s = await client.request(reviewShow, { issue: a.positionals[0], lines });
        io.out(bool(a, 'json') ? jsonText(s) : showIssueText(s));
        return 0;
      });
    },
  },
];
