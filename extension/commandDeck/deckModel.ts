// The Command Deck as a pure function: conversation rows in, a tree of nodes out, with
// stable ids and composed context values. No vscode import, so unit tests and the bench
// run it in plain Node; deckProvider.ts turns nodes into TreeItems.
//
// Placement (spec: Command Deck, Succession, Pairing): a conversation nests under its
// parent (lanes under their launcher, successors under their source); a critic or
// verifier nests instead under the builder it judges (same run and key, judged
// iteration; the newest such builder when a --reuse respawn shares the iteration).
// Archived conversations leave the deck (a lane reaped with --keep is not archived, so it
// stays, marked `reaped`); a row whose parent left it is shown at the top.
import { isLive } from '../../shared/activity';
import type { Activity } from '../../shared/activity';
import { activityIcon, verdictIcon } from './deckIcons';
import type { DeckIcon } from './deckIcons';

export { activityIcon } from './deckIcons';
export type { DeckIcon } from './deckIcons';

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
  verdict?: { verdict: string; defects: number; by: number } | null;
  /** Git-backed lanes. */
  git?: { branch: string | null; ahead: number | null; dirty: boolean } | null;
}

export interface DeckNode {
  /** Stable across refreshes: VS Code keeps selection and expansion by it. */
  id: string;
  /** `conv`: a conversation row; `verdict`: a builder's link to its newest critic. */
  kind: 'conv' | 'verdict';
  /** The conversation a click opens (for a verdict link: the critic). */
  convId: number;
  label: string;
  description: string;
  tooltip: string;
  icon: DeckIcon;
  contextValue: string;
  children: DeckNode[];
  /** A builder's newest critic verdict, opening that critic (also its first child). */
  verdictLink?: { text: string; convId: number };
  /** The row behind a conversation node (prefills commands such as start lane). */
  row?: DeckRow;
}

/**
 * A conversation node's id: `conv:<id>`, and `conv:<id>:tree` while it has children. VS
 * Code keeps an item's collapsed state by id, and shows a row that was a leaf collapsed
 * when children appear; a new id makes a new parent start expanded, while a parent the
 * person collapsed keeps its id, and stays collapsed, as more children arrive.
 */
export const nodeId = (convId: number, parent = false) => `conv:${convId}${parent ? ':tree' : ''}`;

const JUDGES = new Set(['critic', 'verifier']);
/** Who may launch lanes (spec: Launch rules): a root, or an orchestrator lane. */
const LAUNCHERS = new Set(['root', 'successor']);

export function canLaunch(row: Pick<DeckRow, 'kind' | 'role'>): boolean {
  return LAUNCHERS.has(row.kind) || row.role === 'orchestrator';
}

/** Handoff and fork make successors; a lane's own work continues with `--reuse` instead (spec: Succession). */
export function canSucceed(row: Pick<DeckRow, 'kind' | 'role'>): boolean {
  return row.kind !== 'lane' || row.role === 'orchestrator';
}

/** `svc:conv+lane+builder+working+live+git+dirty`, matched by regex `when` clauses. */
export function deckContextValue(row: DeckRow): string {
  const parts = ['svc:conv', row.kind];
  if (row.role) parts.push(row.role);
  parts.push(row.activity);
  if (isLive(row.activity)) parts.push('live');
  if (row.git) parts.push('git');
  if (row.git?.dirty) parts.push('dirty');
  if (row.verdict) parts.push('verdict');
  if (row.reaped) parts.push('reaped');
  if (canLaunch(row)) parts.push('launcher');
  if (canSucceed(row)) parts.push('succeed');
  return parts.join('+');
}

export function verdictText(v: { verdict: string; defects: number }): string {
  return v.defects > 0 ? `${v.verdict} · ${v.defects} defect${v.defects === 1 ? '' : 's'}` : v.verdict;
}

export function describeRow(row: DeckRow): string {
  const parts = [`#${row.id}`];
  if (row.kind === 'successor' && row.parentId !== null) parts.push(`continues ← #${row.parentId}`);
  if (row.role) parts.push(row.iteration !== undefined ? `${row.role} i${row.iteration}` : row.role);
  parts.push(row.activity);
  if (row.verdict) parts.push(JUDGES.has(row.role ?? '') ? `[${verdictText(row.verdict)}]` : `verdict ${verdictText(row.verdict)}`);
  if (row.git) {
    const g = [row.git.branch ?? '(detached)'];
    if (row.git.ahead !== null) g.push(`↑${row.git.ahead}`);
    parts.push(g.join(' '));
    if (row.git.dirty) parts.push('dirty');
  }
  if (row.reaped) parts.push('reaped');
  return parts.join(' · ');
}

function tooltipOf(row: DeckRow): string {
  const lines = [`${row.title || row.name} (#${row.id}, ${row.name})`, `${row.kind}${row.role ? ` · ${row.role}` : ''} · ${row.activity}`];
  if (row.run) lines.push(`run ${row.run}${row.key ? ` · key ${row.key}` : ''}${row.iteration !== undefined ? ` · i${row.iteration}` : ''}`);
  if (row.judged) lines.push(`judges ${row.judged.key} i${row.judged.iteration}`);
  if (row.git) lines.push(`branch ${row.git.branch ?? '(detached)'}${row.git.ahead !== null ? ` · ${row.git.ahead} ahead of upstream` : ''}${row.git.dirty ? ' · uncommitted changes' : ''}`);
  if (row.reaped) lines.push('reaped (its directory is removed; kept in the deck with --keep)');
  return lines.join('\n');
}

/** The id of the row a row nests under, or null for the top level. */
function placementParent(row: DeckRow, byId: Map<number, DeckRow>, builders: Map<string, DeckRow>): number | null {
  if (JUDGES.has(row.role ?? '') && row.judged && row.run) {
    const builder = builders.get(builderKey(row.run, row.judged.key, row.judged.iteration));
    if (builder && builder.id !== row.id) return builder.id;
  }
  return row.parentId !== null && byId.has(row.parentId) ? row.parentId : null;
}

const builderKey = (run: string, key: string, iteration: number) => `${run}\u0000${key}\u0000${iteration}`;

/**
 * The deck's tree. `keepArchived` keeps archived rows (the Agents page with "archived"
 * shown; the Awareness rail's lane list); the deck itself drops them.
 */
export function buildDeck(rows: readonly DeckRow[], opts: { keepArchived?: boolean } = {}): DeckNode[] {
  const visible = opts.keepArchived ? rows : rows.filter((r) => !r.archived);
  const byId = new Map<number, DeckRow>();
  for (const r of visible) byId.set(r.id, r);
  const builders = new Map<string, DeckRow>();
  for (const r of visible) {
    if (r.role !== 'builder' || !r.run || !r.key || r.iteration === undefined) continue;
    const k = builderKey(r.run, r.key, r.iteration);
    const seen = builders.get(k);
    if (!seen || seen.id < r.id) builders.set(k, r);
  }
  const parentOf = new Map<number, number | null>();
  for (const r of visible) parentOf.set(r.id, placementParent(r, byId, builders));
  // A cycle (which ids never form, but data is data) would hide its rows: break it at the top.
  for (const r of visible) {
    let p = parentOf.get(r.id);
    for (let steps = 0; p !== null && p !== undefined; steps++) {
      if (p === r.id || steps > visible.length) {
        parentOf.set(r.id, null);
        break;
      }
      p = parentOf.get(p);
    }
  }
  const sorted = isSortedById(visible) ? visible : [...visible].sort((a, b) => a.id - b.id);
  const nodes = new Map<number, DeckNode>();
  for (const r of sorted) nodes.set(r.id, toNode(r));
  const roots: DeckNode[] = [];
  for (const r of sorted) {
    const p = parentOf.get(r.id);
    (p === null || p === undefined ? roots : nodes.get(p)!.children).push(nodes.get(r.id)!);
  }
  for (const n of nodes.values()) if (n.children.length) n.id = nodeId(n.convId, true);
  return roots;
}

function isSortedById(rows: readonly DeckRow[]): boolean {
  for (let i = 1; i < rows.length; i++) if (rows[i - 1].id > rows[i].id) return false;
  return true;
}

function toNode(r: DeckRow): DeckNode {
  const node: DeckNode = {
    id: nodeId(r.id),
    kind: 'conv',
    convId: r.id,
    label: r.title || r.name,
    description: describeRow(r),
    tooltip: tooltipOf(r),
    icon: activityIcon(r.activity),
    contextValue: deckContextValue(r),
    children: [],
    row: r,
  };
  if (r.verdict && r.role === 'builder') {
    const text = verdictText(r.verdict);
    node.verdictLink = { text: `${text} (#${r.verdict.by})`, convId: r.verdict.by };
    node.children.push({
      id: `verdict:${r.id}`,
      kind: 'verdict',
      convId: r.verdict.by,
      label: `newest verdict ${text}`,
      description: `open critic #${r.verdict.by}`,
      tooltip: `The newest critic verdict on ${r.title || r.name}: ${text}. Opens critic #${r.verdict.by}.`,
      icon: verdictIcon(r.verdict.verdict),
      contextValue: 'svc:verdictLink',
      children: [],
    });
  }
  return node;
}

/** Conversations waiting on the person: the status bar's count. */
export function needsYouCount(rows: readonly DeckRow[]): number {
  let n = 0;
  for (const r of rows) if (!r.archived && r.activity === 'needs-you') n++;
  return n;
}
