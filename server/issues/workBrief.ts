// The work agent's first message: the issue's brief and how the pipeline works from its side.
import type { IssueRow } from './issueStore';

export function workBrief(issue: IssueRow, baseRef: string): string {
  return [
    `# ${issue.id}: ${issue.title}`,
    '',
    `You are the work agent of issue ${issue.id} (project ${issue.project}). Your working directory is the issue's workspace, a git worktree on branch \`${issue.branch}\` (started from \`${baseRef}\`).`,
    '',
    '## The brief',
    '',
    issue.body.trim() === '' ? '(No description beyond the title.)' : issue.body.trim(),
    '',
    '## How to finish',
    '',
    '1. Do the work in this workspace and commit it on this branch. Leave no uncommitted changes.',
    '2. Run `svc done`. It pushes the branch, opens the pull request if there is none, and requests a review.',
    '3. Reviews arrive on the PR. If changes are requested you get the review in a message: fix every blocker, commit, and push (`git push`); each push starts a new review of the new head.',
    '',
    'The `.svc/` folder and `review.md` in this workspace belong to the review pipeline; do not edit or commit them.',
    'If your shell does not find `svc` (a login shell resets PATH), run it by its absolute path, which is in `$SVC_BIN`: `"$SVC_BIN" done`.',
  ].join('\n');
}
