// The one interface `svc lane list` and the Command Deck read lanes' git facts through:
// branch, head, ahead and the dirty flag of each worktree of a repository. Two
// implementations answer it: plainDirtyFlags.ts (a `git status` per worktree, in parallel:
// the reference) and worktreeFacts.ts (the kept one, the default: answers kept under inotify
// watches and, across a restart, re-checked from the store). `git.dirty_flags` in
// config.yaml picks one at the daemon's start (dirtyFlagsOf.ts); the property test
// (test/unit/dirtyFlagsProperty.unit.test.ts) holds both to `git status`.
import type { GitFacts } from './git';

/** A worktree whose facts git did not give in time; `unavailable` says why, for the reader. */
export interface FactsUnavailable {
  unavailable: string;
}

export function factsUnavailable(f: GitFacts | FactsUnavailable | undefined): f is FactsUnavailable {
  return f !== undefined && 'unavailable' in f;
}

export interface DirtyFlags {
  /**
   * Facts for each worktree dir of `repo`; a dir that is not a worktree of it is absent, one
   * whose git did not answer in time is FactsUnavailable (all of them, when the listing did not).
   */
  ofRepo(repo: string, dirs: string[]): Promise<Map<string, GitFacts | FactsUnavailable>>;
  /** Forgets a worktree (it was reaped or archived). */
  forget(dir: string): void;
  close(): void;
}

/** `git.dirty_flags`: which implementation the daemon runs. */
export const DIRTY_FLAGS_KINDS = ['plain', 'kept'] as const;
export type DirtyFlagsKind = (typeof DIRTY_FLAGS_KINDS)[number];
