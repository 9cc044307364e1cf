// Issue methods: the review pipeline's unit of work (docs/architecture.md §8). Senders: the shim
// (`svc issue …`, `svc done`) and the extension. Who must stay in sync:
// server/issues/issueMethods.ts, cli/commands/issue.ts and docs/protocol.md
// (section "issues").
import { z } from 'zod';
import { ACTIVITIES } from '../activity';
import { Effort, ProjectKey } from '../config';
import { PullRequestInfo } from './pr';
import { request } from './rpc';

/** `WEB-7` or `web-7` (the id is stored upper-case; agent names use it lower-cased). */
export const IssueRef = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9-]{0,31}-\d{1,9}$/, 'an issue id looks like WEB-7');
/** SVC_CONVERSATION of the calling agent; absent for a person. */
const Caller = z.string().max(40).optional();

export const AgentBrief = z.object({
  id: z.number().int(),
  name: z.string(),
  alive: z.boolean(),
  activity: z.enum(ACTIVITIES),
});
export type AgentBrief = z.infer<typeof AgentBrief>;

export const IssueInfo = z.object({
  /** `<PROJECT>-<n>`, upper-case. */
  id: z.string(),
  project: z.string(),
  number: z.number().int(),
  title: z.string(),
  body: z.string(),
  /** `issue/<id-lower>`. */
  branch: z.string(),
  /** The issue's workspace: a worktree on `branch` under the project's lanes root. */
  workspace: z.string(),
  createdAt: z.number(),
  /** The work agent `agent-<id-lower>`, if one was started. */
  agent: AgentBrief.nullable(),
});
export type IssueInfo = z.infer<typeof IssueInfo>;

/** Client → daemon. Creates an issue: id, workspace worktree on branch `issue/<id-lower>`. */
export const issuesNew = request(
  'issues/new',
  z
    .object({
      project: ProjectKey,
      title: z.string().trim().min(1).max(200),
      body: z.string().max(1_000_000).optional(),
    })
    .strict(),
  IssueInfo,
);

/** Client → daemon. Issues, oldest first; of one project when given. */
export const issuesList = request(
  'issues/list',
  z.object({ project: ProjectKey.optional() }).strict(),
  z.object({ issues: z.array(IssueInfo) }),
);

/** Client → daemon. One issue. */
export const issuesShow = request('issues/show', z.object({ issue: IssueRef }).strict(), IssueInfo);

/** Client → daemon. Starts the work agent `agent-<id-lower>` in the issue's workspace (waits up to 180 s unless noWait). */
export const issuesStart = request(
  'issues/start',
  z
    .object({
      issue: IssueRef,
      harness: z.string().min(1).max(32),
      model: z.string().trim().min(1).max(200),
      effort: Effort.optional(),
      noWait: z.boolean().optional(),
    })
    .strict(),
  z.object({ issue: IssueInfo, outcome: z.enum(['alive', 'failed', 'ended', 'timeout', 'notWaited']) }),
);

/**
 * Client → daemon (`svc done`). From the work agent (`caller`) or a person (`issue`): pushes
 * the branch, opens the PR if none is open, and requests a review (the pipeline's entry point).
 */
export const issuesDone = request(
  'issues/done',
  z.object({ issue: IssueRef.optional(), caller: Caller }).strict(),
  z.object({
    issue: IssueInfo,
    pr: PullRequestInfo,
    opened: z.boolean(),
    /** The review run requested, or the run already under way at this head. */
    runId: z.string(),
    mode: z.enum(['quick', 'full', 'none']),
    sha: z.string(),
    reused: z.boolean(),
  }),
);
