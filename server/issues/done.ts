// `svc done`: from the work agent (its conversation names the issue) or a person
// (`svc done <id>`). Pushes the issue branch, opens the PR if none is open, and requests a
// review through the pipeline's single entry point (step 1). Refuses a dirty workspace or
// a branch with nothing beyond the base: a PR carries commits, not files.
import type { PullRequest } from '../../shared/protocol/pr';
import type { App } from '../app';
import type { CodeHosts } from '../codehost/codeHosts';
import type { ConversationService } from '../conversations/conversationService';
import { git, GitError, gitFacts } from '../git/git';
import { logger } from '../util/log';
import {
  branchMovedError,
  dirtyWorkspaceError,
  doneWhichIssueError,
  notAWorkAgentError,
  nothingToReviewError,
  reviewerCannotFinishError,
  wrongBranchError,
} from './issueRefusals';
import type { IssueRow, IssueStore } from './issueStore';
import type { ReviewPort } from './reviewPort';
import { baseRef } from './workspace';

const log = logger('issues');

/** What `svc done` works with: the conversations, the issues, their code hosts and the review pipeline. */
export interface DoneDeps {
  conv: ConversationService;
  issues: IssueStore;
  hosts: CodeHosts;
  review: ReviewPort;
}

export async function finishIssue(
  app: App,
  { conv, issues, hosts, review }: DoneDeps,
  p: { issue?: string; caller?: string },
): Promise<{
  row: IssueRow;
  pr: PullRequest;
  opened: boolean;
  runId: string;
  mode: 'quick' | 'full' | 'none';
  sha: string;
  reused: boolean;
}> {
  let ref = p.issue;
  let by: string | undefined;
  if (p.caller) {
    const caller = conv.resolve(p.caller);
    by = caller.name;
    // Reviewers read a detached checkout of the commit; the work is never theirs to push.
    if (review.isReviewer(caller)) throw reviewerCannotFinishError(caller, caller.issueId);
    if (!ref) {
      if (!caller.issueId) throw notAWorkAgentError(caller);
      ref = caller.issueId;
    }
  }
  if (!ref) throw doneWhichIssueError();
  const issue = issues.resolve(ref);
  const project = app.config.project(issue.project);

  review.preflight(issue);
  const facts = await gitFacts(issue.workspace);
  if (facts.dirty) throw dirtyWorkspaceError(issue);
  if (facts.branch !== issue.branch) throw wrongBranchError(issue, facts.branch);
  const base = await baseRef(project);
  const ahead = Number((await git(issue.workspace, ['rev-list', '--count', `${base}..HEAD`])).trim());
  if (ahead === 0) throw nothingToReviewError(issue.branch, base);

  await pushBranch(issue);
  const host = hosts.forProject(issue.project);
  let pr = await host.getPullRequest({ branch: issue.branch });
  let opened = false;
  if (!pr || pr.state !== 'open') {
    pr = await host.createPullRequest({
      branch: issue.branch,
      title: `${issue.id}: ${issue.title}`,
      body: `${issue.body.trim()}\n\n(issue ${issue.id}, opened by svc done)`.trim(),
    });
    opened = true;
    log.info(`${issue.id}: opened PR #${pr.number}`);
  }
  const r = await review.request(issue.id, { source: 'done', by, dedupe: true });
  return {
    row: issue,
    pr: (await host.getPullRequest(pr.number)) ?? pr,
    opened,
    runId: r.runId,
    mode: r.mode,
    sha: r.sha,
    reused: r.reused,
  };
}

/** Pushes the issue branch; a remote branch that moved is the person's to merge, not an internal error. */
async function pushBranch(issue: IssueRow): Promise<void> {
  try {
    await git(issue.workspace, ['push', '--quiet', 'origin', `HEAD:refs/heads/${issue.branch}`]);
  } catch (e) {
    if (e instanceof GitError && /\[rejected\].*\((non-fast-forward|fetch first)\)|\bnon-fast-forward\b/.test(e.stderr))
      throw branchMovedError(issue);
    throw e;
  }
}
