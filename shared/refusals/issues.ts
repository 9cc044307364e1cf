// The reasons issues (ids, workspaces, work agents, svc done) refuse with. Messages:
// server/issues/issueRefusals.ts.
export const ISSUE_REFUSALS = [
  'badIssueId',
  'unknownIssue',
  'dirExists',
  'branchExists',
  'commitMissing',
  'workAgentRunning',
  'reviewerCannotFinish',
  'notAWorkAgent',
  'issueRequired',
  'dirtyWorkspace',
  'wrongBranch',
  'nothingToReview',
  'branchMoved',
] as const;
export type IssueRefusal = (typeof ISSUE_REFUSALS)[number];
