// What lanes need of the conversation layer (server/conversations). Kept as a narrow
// interface so lane logic reads as lane logic and tests can see the seam.
import type { Effort, SandboxMode } from '../../shared/config';
import type { PreparedStart } from '../conversations/agentGitFacts';
import type { LiveFacts } from '../conversations/liveFacts';

export interface ConvRow {
  id: number;
  name: string;
  kind: 'root' | 'lane' | 'successor' | 'agent';
  parentId: number | null;
  project: string | null;
  harness: string;
  model: string;
  cwd: string;
  createdAt: number;
  endedAt: number | null;
  archivedAt: number | null;
  spawnError: string | null;
}

export interface NewConversation {
  kind: 'lane';
  name: string;
  title: string;
  project: string;
  cwd: string;
  harness: string;
  model: string;
  effort?: Effort;
  parentId: number;
  prompt: string;
  /** Play lanes: no svc context in the environment. */
  bare?: boolean;
  /** The role's permission policy (gauntlet.roles.<role>.permissions); default: unattended. */
  permissions?: 'ask' | 'auto';
  /** The host the lane runs on over SSH; absent: this machine. */
  host?: string | null;
  /** The lane's sandbox: workspace confines its agent to its own worktree; off runs it as the person. */
  sandbox?: SandboxMode;
}

export interface ConversationsPort {
  get(id: number): ConvRow | undefined;
  /** `#id`, id, name or `conv-<name>`; throws a notFound SvcError. */
  resolve(ref: string): ConvRow;
  /** Refuses unless `token` is the credential of the `caller` conversation (unknown callers pass: the method refuses them). */
  proveCaller(caller: string, token: string | undefined): void;
  insert(c: NewConversation): ConvRow;
  /**
   * `prepared`: the agent's git facts, read by prepareStart in a folder of the same repository
   * (the checkout, while the lane's worktree is made). `workspace`: resolves once the lane's
   * folder is complete (rejects when it was not made); the agent waits for it as its harness needs.
   */
  start(id: number, opts?: { prepared?: PreparedStart; workspace?: Promise<void> }): void;
  /** Starts reading those facts now, ahead of start(). */
  prepareStart(dir: string): PreparedStart;
  waitStarted(id: number, timeoutMs: number): Promise<'alive' | 'failed' | 'ended' | 'timeout'>;
  facts(id: number): LiveFacts;
  /** The stop door; `kill` lets it SIGKILL the process group after `timeoutMs`. */
  stop(id: number, opts: { timeoutMs?: number; kill?: boolean }): Promise<{ stopped: boolean }>;
  /** Restarts a stopped conversation (its resume guards first). */
  resume(id: number): void;
  /** A notice line in the conversation's transcript (what svc did to it, and why). */
  notice(id: number, text: string): void;
  /** PIDs still alive in the agent's process group (on its host for a remote lane), with their command lines. */
  groupProcesses(id: number): Promise<{ pid: number; command: string }[]>;
  archive(id: number): void;
  recordSpawnError(id: number, message: string): void;
  addTellGuard(guard: (row: ConvRow, opts: { force: boolean }) => void): void;
  /** A gate consulted before each turn starts: a reason to hold the next message (it stays queued), or null. */
  addTurnGate(gate: (row: ConvRow) => string | null): void;
  /** Delivers a message a turn gate held back, once the gates allow it. */
  kick(id: number): void;
  /** Cancels the turn in progress (session/cancel), leaving the agent running. */
  cancelTurn(id: number): boolean;
  /** Queues a message for the conversation (delivered when it is idle), past the tell guards. */
  tell(id: number, text: string, opts?: { force?: boolean }): unknown;
  /** Subscribes to cost reports (stored already); returns an unsubscribe. */
  onUsage(fn: (id: number) => void): () => void;
  addResumeGuard(guard: (row: ConvRow) => void): void;
  /** Subscribes to `changed` (any state change of a conversation); returns an unsubscribe. */
  onChanged(fn: (id: number) => void): () => void;
}
