// Messages of the Agents page (a webview panel listing every agent). Host:
// extension/agents/agentsPanel.ts (rows from agentsModel.ts); page: webview/agentsMain.ts.
// Who must stay in sync: those files.
import type { VerdictTone } from '../format/verdictTone';
import type { ReadyMessage } from './viewMessages';

/** The Agents table's filter and sort, kept in the page's state across a reload. */
export type SortKey = 'tree' | 'name' | 'role' | 'alive' | 'activity' | 'model' | 'harness' | 'cost' | 'issue';

export interface TableState {
  filter: string;
  liveOnly: boolean;
  archived: boolean;
  sort: SortKey;
  descending: boolean;
}

export interface AgentRowView {
  id: number;
  name: string;
  title: string;
  /** root, lane, successor or agent. */
  kind: string;
  /** `builder i2`, `critic i1`, `successor of #3`, `work agent`, `reviewer · security`, `root`. */
  role: string;
  /** Nesting in tree order (lanes under their launcher, critics under the builder they judge). */
  depth: number;
  /** Position in tree order (the default sort). */
  order: number;
  alive: boolean;
  activity: string;
  model: string;
  harness: string;
  /** Amount in `currency`; null when the harness reports none. */
  cost: number | null;
  currency: string | null;
  issue: string | null;
  /** A critic's verdict, or a builder's newest critic verdict. */
  verdict: string | null;
  /** The verdict's colour (the text above carries the defect count, so the page cannot tell it). */
  verdictTone: VerdictTone | null;
  archived: boolean;
  /** Lanes with a cap: spent against it (the iteration's spend) and its state (`near` from 80 %, `reached`, `not-enforceable`). */
  budget: { spent: number; cap: number; state: string; text: string } | null;
}

export interface AgentsState {
  type: 'state';
  /** undefined while the daemon cannot be read (see `problem`). */
  agents: AgentRowView[] | undefined;
  problem: string | null;
}

export type AgentsToView = AgentsState;
/** `keep`: a double-click or Enter (a kept tab); a click opens the preview tab. */
export type AgentsFromView =
  ReadyMessage | { type: 'openConversation'; convId: number; keep: boolean } | { type: 'newConversation' };

/** What the page keeps across a window reload (setState): its filter, switches and sort. */
export type AgentsPageState = Pick<TableState, 'filter' | 'liveOnly' | 'archived' | 'sort' | 'descending'>;
