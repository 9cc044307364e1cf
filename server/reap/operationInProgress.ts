// A merge, cherry-pick, revert, rebase, `git am` or bisect left half done in a worktree.
// Its state lives in the worktree's private git folder (MERGE_HEAD and MERGE_MSG, the
// rebase-merge/ folder…) and in the index's conflict stages, none of which a patch can
// carry: parking would give back the files but not the operation (a merge restored as
// plain edits has lost its second parent). Reap refuses instead, naming the operation and
// how to finish or abort it, before it changes anything.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runGit, splitNul } from '../git/gitExec';
import type { GitEnv } from '../git/gitExec';

export interface OperationInProgress {
  /** What git is in the middle of, as a user would say it. */
  what: string;
  /** The commands that end it one way or the other. */
  finish: string;
  /** The state file or folder that shows it. */
  marker: string;
}

const MARKERS: { marker: string; what: string; finish: string }[] = [
  { marker: 'rebase-merge', what: 'a rebase', finish: 'git rebase --continue, or git rebase --abort' },
  {
    marker: 'rebase-apply',
    what: 'a rebase or git am',
    finish: 'git rebase --continue / git am --continue, or --abort',
  },
  { marker: 'MERGE_HEAD', what: 'a merge', finish: 'commit it (git commit), or git merge --abort' },
  {
    marker: 'CHERRY_PICK_HEAD',
    what: 'a cherry-pick',
    finish: 'git cherry-pick --continue, or git cherry-pick --abort',
  },
  { marker: 'REVERT_HEAD', what: 'a revert', finish: 'git revert --continue, or git revert --abort' },
  {
    marker: 'sequencer',
    what: 'a cherry-pick or revert series',
    finish: 'git cherry-pick --continue (or git revert --continue), or --abort',
  },
  { marker: 'BISECT_LOG', what: 'a bisect', finish: 'git bisect reset' },
];

/**
 * The operations in progress in the worktree `top` whose private git folder is `gitDir`.
 * Conflict stages count without a marker too: a partial `git commit -- <paths>` during a
 * conflicted revert ends the operation but leaves the other paths' stages, which a patch
 * cannot carry either.
 */
export async function operationsInProgress(
  top: string,
  gitDir: string,
  git: GitEnv = {},
): Promise<OperationInProgress[]> {
  const ops = MARKERS.filter((m) => fs.existsSync(path.join(gitDir, m.marker))).map((m) => ({
    ...m,
    marker: path.join(gitDir, m.marker),
  }));
  if (ops.length) return ops;
  const unmerged = new Set(
    splitNul((await runGit(top, ['ls-files', '-u', '-z'], git)).stdout).map((e) => e.toString('utf8').split('\t')[1]),
  );
  if (!unmerged.size) return [];
  return [
    {
      what: 'a conflict resolution',
      finish: 'resolve each path and git add it (git diff --name-only --diff-filter=U lists them)',
      marker: `${path.join(gitDir, 'index')}: ${unmerged.size} ${unmerged.size === 1 ? 'path' : 'paths'} with conflict stages`,
    },
  ];
}
