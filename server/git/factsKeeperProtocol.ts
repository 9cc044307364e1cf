// What the daemon and the facts keeper (factsKeeper.ts, a process of its own) say to each
// other over the keeper's socket: one JSON object a line each way, every request with an id
// its answer repeats. Private to svc's own two processes, so not part of docs/protocol.md;
// KEEPER_PROTOCOL changes with any change here, and a daemon that meets another version
// asks that keeper to quit and starts its own.
import type { GitFacts } from './git';

export const KEEPER_PROTOCOL = 1;

export type KeeperRequest =
  | { id: number; op: 'hello' }
  /** Watch `dir` (a worktree) and its repository's git dir `commonDir`; answers the watch's generation. */
  | { id: number; op: 'watch'; dir: string; commonDir: string }
  /** Keep `facts`, read after `watch` answered `gen`, unless anything changed since. */
  | { id: number; op: 'keep'; dir: string; gen: number; facts: GitFacts; context: string }
  /** The kept facts of those `dirs` nothing changed in since they were read. */
  | { id: number; op: 'recall'; dirs: string[]; context: string }
  | { id: number; op: 'forget'; dir: string }
  | { id: number; op: 'quit' };

export type KeeperAnswer =
  | { id: number; protocol: number; pid: number }
  | { id: number; gen: number }
  | { id: number; unwatched: string }
  | { id: number; kept: boolean }
  | { id: number; facts: Record<string, GitFacts> }
  | { id: number; done: true }
  | { id: number; error: string };

/** The keeper's socket beside the daemon's (`<dir>/svc.sock` → `<dir>/svc-facts.sock`). */
export function keeperSocketOf(daemonSocket: string): string {
  return daemonSocket.replace(/(\.sock)?$/, '-facts.sock');
}
