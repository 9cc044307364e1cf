// The Command Deck's row and node shapes, apart from the model that builds them so the
// convoy folding (convoys.ts) and the deck (deckModel.ts) both read them without importing
// each other. No vscode import.
import type { Activity } from '../../shared/activity';
import type { DeckIcon, VerdictBadge } from './deckIcons';

export interface DeckRow {
  id: number;
  name: string;
  title: string;
  /** root, lane, successor or agent (review and work agents). */
  kind: string;
  parentId: number | null;
  activity: Activity;
  archived?: boolean;
  model?: string;
  /** The issue of a work agent or reviewer. */
  issueId?: string | null;
  /** A reviewer's run and role, as the daemon says (ConversationInfo `review`); absent for any other conversation. */
  review?: { runId: string; role: string } | null;
  cost?: { amount: number; currency: string } | null;
  /** Lanes only. */
  role?: string;
  run?: string;
  key?: string;
  iteration?: number;
  /** `svc lane reap` removed the lane's directory (listed still: reaped with --keep). */
  reaped?: boolean;
  /** Critics and verifiers: the builder key and iteration they judge. */
  judged?: { key: string; iteration: number } | null;
  /** A critic's own verdict; for a builder its newest critic's verdict (`by` = that critic). */
  verdict?: { verdict: string; defects: number; by: number; verdictFile?: string | null } | null;
  /** Lanes on another host (config.yaml hosts.<name>), run over SSH. */
  host?: string | null;
  /** Lanes: workspace (confined to its own worktree) or off (unconfined, as the person chose). */
  sandbox?: 'workspace' | 'off';
  /** The connection to that host is down (the agent keeps running there): what svc says about it. */
  hostLost?: string;
  /** Why its agent failed to start (ConversationInfo `spawnError`): the cause and the fix in one line. */
  spawnError?: string;
  /** A lane's newest report (`svc lane report`): done, blocked or failed, shown on the row before any verdict. */
  report?: { status: string } | null;
  /** Git-backed lanes. */
  git?: { branch: string | null; ahead: number | null; dirty: boolean; headSha?: string | null } | null;
  /** Lanes: spent against the lane's and the run's caps (`state` as lanes/list says it). */
  budget?: { state: string; spent: number; cap: number | null; text: string };
  /** Lanes: the commit the worktree was created from (Compare with Base diffs the worktree against it). */
  base?: string | null;
  /** Lanes the inbox calls stalled (working, no output for its stall_after): what it says, beside the activity. */
  stalled?: string;
  /** Lanes: every patch `reap --park` left (a reap killed mid-park included), with the command that restores it. */
  parked?: { patchFile: string; paths: number | null; restoreCommand: string | null }[];
  /** Live builders: the other live builders of the project changing the same paths (the read-time overlap forecast). */
  overlaps?: { key: string; lane: string; paths: string[] }[];
  /** Live builders whose branch no longer merges cleanly into the base: the conflicting paths. */
  baseConflict?: string[];
  /** Builders with a landing queued or running (`svc lane land`): its place in its base's queue (0 running). */
  landing?: { id: number; base: string; state: 'queued' | 'running'; position: number; pr: number | null };
}

export interface DeckNode {
  /** Stable across refreshes: VS Code keeps selection and expansion by it. */
  id: string;
  /** `conv`: a conversation row; `convoy`: one review run's agents; `history`: a convoy's earlier runs. */
  kind: 'conv' | 'convoy' | 'history';
  /** The conversation a click opens (a convoy: its parent or quick reviewer). */
  convId: number;
  label: string;
  description: string;
  /** Markdown: the row's facts. */
  tooltip: string;
  icon: DeckIcon;
  contextValue: string;
  children: DeckNode[];
  /** A verdict shown as a decoration badge (defect count or ✓). */
  badge?: VerdictBadge;
  /** Starts collapsed (history); otherwise a node with children starts expanded. */
  collapsed?: boolean;
  /** A report file a click opens instead of the conversation (a reviewer's report). */
  reportFile?: string;
  /** A critic's (or verifier's) verdict file: "Open Report" opens it; a click still opens the conversation. */
  verdictFile?: string;
  /** What a screen reader says for the row: its label, description and verdict in words. */
  ariaLabel?: string;
  /** The row behind a conversation node (prefills commands such as start lane). */
  row?: DeckRow;
  /** Convoys and reviewers: the issue reviewed (review commands act on it). */
  issue?: string;
}
