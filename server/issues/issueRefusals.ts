// Every refusal of issues (ids, workspaces, work agents and `svc done`), each message made
// here and nowhere else (docs/style.md §16). Reasons: shared/refusals/issues.ts.
import { refusalsOf } from '../../shared/errors';
import type { SvcError } from '../../shared/errors';
import { ISSUE_REFUSALS } from '../../shared/refusals/issues';

const { usage, notFound, refused, conflict } = refusalsOf(ISSUE_REFUSALS);

interface ConvRef {
  id: number;
  name: string;
}

export function badIssueIdError(ref: string): SvcError<'badIssueId'> {
  return usage('badIssueId', `'${ref}' is not an issue id (they look like WEB-7)`);
}

export function unknownIssueError(id: string): SvcError<'unknownIssue'> {
  return notFound('unknownIssue', `no issue ${id} (see svc issue list)`);
}

// ---- The workspace

export function workspaceExistsError(dir: string): SvcError<'dirExists'> {
  return conflict('dirExists', `workspace ${dir} already exists; move it away or remove it with git worktree remove`);
}

export function issueBranchExistsError(branch: string, repo: string): SvcError<'branchExists'> {
  return conflict('branchExists', `branch ${branch} already exists in ${repo}; delete or rename it first`);
}

export function commitMissingError(sha: string, branch: string, repo: string): SvcError<'commitMissing'> {
  return conflict(
    'commitMissing',
    `commit ${sha.slice(0, 7)} of ${branch} is not in ${repo} even after fetching origin`,
  );
}

// ---- The work agent

export function workAgentRunningError(issue: string, agent: ConvRef): SvcError<'workAgentRunning'> {
  return conflict(
    'workAgentRunning',
    `the work agent ${agent.name} (#${agent.id}) of ${issue} is already running; stop it first (svc conv stop #${agent.id})`,
  );
}

// ---- svc done

/** `issue`: the issue the caller reviews. */
export function reviewerCannotFinishError(caller: ConvRef, issue: string | null): SvcError<'reviewerCannotFinish'> {
  return refused(
    'reviewerCannotFinish',
    `svc done: conversation #${caller.id} (${caller.name}) reviews ${issue}; only its work agent or a person finishes an issue`,
  );
}

export function notAWorkAgentError(caller: ConvRef): SvcError<'notAWorkAgent'> {
  return usage(
    'notAWorkAgent',
    `svc done: conversation #${caller.id} (${caller.name}) works on no issue; pass the issue id (svc done <id>)`,
  );
}

export function doneWhichIssueError(): SvcError<'issueRequired'> {
  return usage('issueRequired', 'svc done: which issue? run it from the work agent, or pass the id (svc done WEB-7)');
}

export function dirtyWorkspaceError(issue: { id: string; workspace: string }): SvcError<'dirtyWorkspace'> {
  return refused(
    'dirtyWorkspace',
    `the workspace ${issue.workspace} of ${issue.id} has uncommitted changes; commit them first (svc done pushes commits, not files)`,
  );
}

/** `branch`: the branch the workspace is on, null when detached. */
export function wrongBranchError(
  issue: { workspace: string; branch: string },
  branch: string | null,
): SvcError<'wrongBranch'> {
  return refused(
    'wrongBranch',
    `the workspace ${issue.workspace} is on ${branch ?? 'a detached HEAD'}, not ${issue.branch}; check out ${issue.branch} first`,
  );
}

export function nothingToReviewError(branch: string, base: string): SvcError<'nothingToReview'> {
  return refused('nothingToReview', `${branch} has no commits beyond ${base}; commit your work, then run svc done`);
}

/** The push of `svc done` was rejected because the remote branch has commits the workspace lacks. */
export function branchMovedError(issue: { id: string; workspace: string; branch: string }): SvcError<'branchMoved'> {
  return conflict(
    'branchMoved',
    `origin's ${issue.branch} has commits that the workspace ${issue.workspace} of ${issue.id} does not (the push was not a fast-forward); nothing was pushed. Bring them in, then run svc done again: cd '${issue.workspace}' && git pull --rebase origin ${issue.branch}`,
  );
}
