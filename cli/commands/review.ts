// svc review request|abort|restart|wait|post|dismiss — the review pipeline's commands.
import { REVIEW_LANES } from '../../shared/config';
import {
  reviewAbort,
  reviewDismiss,
  reviewPost,
  reviewRequest,
  reviewRestart,
  reviewWait,
} from '../../shared/protocol/review';
import type { LaneResult } from '../../shared/protocol/review';
import { bool, int, JSON_FLAG, jsonText, str, UsageError } from '../cli';
import type { CommandSpec } from '../cli';
import { withDaemon } from '../client';

const short = (sha: string) => sha.slice(0, 7);

export function laneLine(l: LaneResult): string {
  const what =
    l.state === 'report'
      ? l.verdict!
      : l.state === 'invalid'
        ? `invalid report: ${l.note}`
        : l.state === 'died'
          ? `no report: ${l.name} ${l.note}`
          : 'still running';
  return `${l.lane.padEnd(12)} ${what}\t${l.path}\n`;
}

export const reviewCommands: CommandSpec[] = [
  {
    path: ['review', 'request'],
    summary: 'request a (re-)review of an issue through the single review entry point',
    usage: ['<id> [-m <message>] [--json]'],
    flags: {
      message: { type: 'string', short: 'm', help: 'a note for the reviewers', value: '<message>' },
      ...JSON_FLAG,
    },
    positionals: [{ name: 'id', required: true }],
    details: 'The review runs in the mode of roles.review.mode (quick by default, full, or none) against the PR head.',
    async run(a, io) {
      return withDaemon(io, async (client) => {
        const r = await client.request(reviewRequest, {
          issue: a.positionals[0],
          message: str(a, 'message'),
          source: 'command',
          caller: io.env.SVC_CONVERSATION,
        });
        io.out(
          bool(a, 'json')
            ? jsonText(r)
            : `Review ${r.runId} (${r.mode}) of ${r.issue} requested at ${short(r.sha)} on PR #${r.pr}\n`,
        );
        return 0;
      });
    },
  },
  {
    path: ['review', 'abort'],
    summary: 'stop every running reviewer of an issue; the work agent is left idle and not messaged',
    usage: ['<id> [--json]'],
    flags: { ...JSON_FLAG },
    positionals: [{ name: 'id', required: true }],
    async run(a, io) {
      return withDaemon(io, async (client) => {
        const r = await client.request(reviewAbort, { issue: a.positionals[0] });
        if (bool(a, 'json')) io.out(jsonText(r));
        else
          io.out(
            r.stopped.length
              ? `Aborted review ${r.runId ?? ''} of ${r.issue}; stopped ${r.stopped.join(', ')}\n`
              : `No reviewer of ${r.issue} was running\n`,
          );
        return 0;
      });
    },
  },
  {
    path: ['review', 'restart'],
    summary: 'restart the review parent and re-run lanes without a report (--role: only that lane)',
    usage: ['<id> [--role <lane>] [--model <model>] [--json]'],
    flags: {
      role: { type: 'string', help: `re-run only this lane: ${REVIEW_LANES.join(', ')}`, value: '<lane>' },
      model: { type: 'string', help: 'model for the restarted reviewers', value: '<model>' },
      ...JSON_FLAG,
    },
    positionals: [{ name: 'id', required: true }],
    async run(a, io) {
      const role = str(a, 'role');
      if (role !== undefined && !(REVIEW_LANES as readonly string[]).includes(role))
        throw new UsageError(`--role must be one of ${REVIEW_LANES.join(', ')}, got '${role}'`);
      return withDaemon(io, async (client) => {
        const r = await client.request(reviewRestart, {
          issue: a.positionals[0],
          role: role as 'security' | undefined,
          model: str(a, 'model'),
        });
        io.out(
          bool(a, 'json') ? jsonText(r) : `Restarted review ${r.runId} of ${r.issue}: ${r.restarted.join(', ')}\n`,
        );
        return 0;
      });
    },
  },
  {
    path: ['review', 'dismiss'],
    summary: 'dismiss a review finding: it is not posted again unless the code at its location changes',
    usage: ['<id> <finding> [--json]'],
    flags: { ...JSON_FLAG },
    positionals: [
      { name: 'id', required: true },
      { name: 'finding', required: true },
    ],
    details: "A finding's id (f-0123456789) is listed under Convoy Notes of the posted review and on its line comment.",
    async run(a, io) {
      return withDaemon(io, async (client) => {
        const r = await client.request(reviewDismiss, {
          issue: a.positionals[0],
          finding: a.positionals[1],
          caller: io.env.SVC_CONVERSATION,
        });
        if (bool(a, 'json')) io.out(jsonText(r));
        else
          io.out(
            `Dismissed ${r.finding} of ${r.issue} (${r.location} — ${r.title})${r.resolved ? `; resolved ${r.resolved} line comment${r.resolved === 1 ? '' : 's'}` : ''}\n`,
          );
        return 0;
      });
    },
  },
  {
    path: ['review', 'wait'],
    summary: 'review parent: wait until every lane has a report or has died without one',
    usage: ['[<id>] [--run <runId>] [--timeout <s>] [--json]'],
    flags: {
      run: { type: 'string', help: 'the review run (default: your own, or the newest)', value: '<runId>' },
      timeout: { type: 'int', help: 'give up after this many seconds (default 300)', value: '<s>' },
      ...JSON_FLAG,
    },
    positionals: [{ name: 'id' }],
    details:
      'Prints one line per lane: its verdict (or why there is none) and the report path.\nExit: 0 every lane reported · 2 a lane died without a (valid) report · 3 timeout, lanes still running · 1 usage or request error.',
    async run(a, io) {
      const issue = a.positionals[0];
      if (!issue && !io.env.SVC_CONVERSATION)
        throw new UsageError('give the issue id, or run svc review wait inside the review parent');
      const timeoutS = int(a, 'timeout');
      if (timeoutS !== undefined && timeoutS < 1) throw new UsageError('--timeout must be at least 1 second');
      return withDaemon(io, async (client) => {
        const r = await client.request(reviewWait, {
          issue,
          run: str(a, 'run'),
          timeoutS,
          caller: io.env.SVC_CONVERSATION,
        });
        if (bool(a, 'json')) io.out(jsonText(r));
        else for (const l of r.lanes) io.out(laneLine(l));
        const next = `svc review wait ${r.issue} --run ${r.runId}`;
        if (r.outcome === 'timeout') io.err(`timed out; lanes are still running\nnext: ${next}\n`);
        else if (r.outcome === 'incomplete')
          io.err(
            `review ${r.runId}: ${r.lanes
              .filter((l) => l.state !== 'report')
              .map((l) => l.lane)
              .join(', ')} without a valid report\n`,
          );
        return r.outcome === 'complete' ? 0 : r.outcome === 'incomplete' ? 2 : 3;
      });
    },
  },
  {
    path: ['review', 'post'],
    summary: 'review parent or quick agent: validate synthesis.md (review.md) and post one PR review',
    usage: ['<id> --run <runId> [--json]'],
    flags: { run: { type: 'string', help: 'the review run ($SVC_REVIEW_RUN)', value: '<runId>' }, ...JSON_FLAG },
    positionals: [{ name: 'id', required: true }],
    details:
      'The file starts with `# Verdict: APPROVED | CHANGES_REQUESTED | FAILED`, then the sections Summary, Blockers, Evidence, Convoy Notes (review.md: the first three). The review is pinned to the reviewed commit; on your own PR the verdict becomes a marker comment.',
    async run(a, io) {
      const run = str(a, 'run');
      if (!run) throw new UsageError('--run is required (the review parent has it in $SVC_REVIEW_RUN)');
      return withDaemon(io, async (client) => {
        const r = await client.request(reviewPost, { issue: a.positionals[0], run, caller: io.env.SVC_CONVERSATION });
        const what =
          r.via === 'review'
            ? `review #${r.id}`
            : r.via === 'marker'
              ? `verdict comment #${r.id} (the code host refuses reviews of your own PR)`
              : `comment review #${r.id}`;
        io.out(
          bool(a, 'json')
            ? jsonText(r)
            : `Posted ${r.verdict} for ${r.issue} on PR #${r.pr} at ${short(r.sha)}: ${what}\n`,
        );
        return 0;
      });
    },
  },
];
