// The reasons reap refuses with. All of REAP_REFUSALS are kind 'refused' and mean the same
// thing to the user: nothing was archived, removed or cleaned. Messages:
// server/reap/reapErrors.ts.
export const REAP_REFUSALS = [
  'harnessAlive',
  'outsideLanesRoot',
  'processesInside',
  'dirty',
  'parkVerifyFailed',
  'parkChanged',
  'parkUnsupported',
  'unreadableWork',
  'playHasGit',
  'playUnreadable',
  'notAWorktree',
  'worktreeRemoveFailed',
  'nestedGit',
  'operationInProgress',
  'unstorablePaths',
  'parkTooLarge',
  'noRoomToPark',
  'laneMirrorFailed',
] as const;
export type ReapRefusal = (typeof REAP_REFUSALS)[number];

/** Reap's other errors: a bad patch path (usage), and parked work whose cleaning failed (internal). */
export const REAP_ERRORS = ['patchInsideWorktree', 'patchExists', 'parkCleanFailed'] as const;
export type ReapError = (typeof REAP_ERRORS)[number];
