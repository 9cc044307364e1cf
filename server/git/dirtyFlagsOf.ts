// The DirtyFlags the daemon runs, as config.yaml's `git.dirty_flags` says at its start
// (dirtyFlags.ts); a config that cannot be read runs the default, kept: its
// watches make a repeated list cost no process (see docs/decisions/performance.md).
import type { FactsMemory } from './worktreeFacts';
import { WorktreeFacts } from './worktreeFacts';
import type { DirtyFlags, DirtyFlagsKind } from './dirtyFlags';
import { PlainDirtyFlags } from './plainDirtyFlags';

export const DEFAULT_DIRTY_FLAGS: DirtyFlagsKind = 'kept';

export function dirtyFlagsOf(kind: DirtyFlagsKind | undefined, memory: () => FactsMemory): DirtyFlags {
  return (kind ?? DEFAULT_DIRTY_FLAGS) === 'kept' ? new WorktreeFacts({ memory: memory() }) : new PlainDirtyFlags();
}
