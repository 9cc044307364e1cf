// The Command Deck as a pure function: conversation rows in, a tree of nodes out, with
// stable ids and composed context values. No vscode import, so unit tests and the bench
// run it in plain Node; deckProvider.ts turns nodes into TreeItems.
//
// Placement (spec: Command Deck, Succession, Pairing): a conversation nests under its
// parent (lanes under their launcher, successors under their source); a critic or
// verifier nests instead under the builder it judges (same run and key, judged
// iteration; the newest such builder when a --reuse respawn shares the iteration).
// Archived conversations leave the deck; a row whose parent left it is shown at the top.
import { isLive } from '../../shared/activity';
import type { Activity } from '../../shared/activity';

export interface DeckRow {
  id: number;
  name: string;
  title: string;
  /** root, lane, successor or agent (review and work agents). */
  kind: string;
  parentId: number | null;
  activity: Activity;
  archived?: boolean;
  /** Lanes only. */
  role?: string;
  run?: string;
  key?: string;
  iteration?: number;
  /** Critics and verifiers: the builder key and iteration they judge. */
  judged?: { key: string; iteration: number } | null;
  /** A critic's own verdict; for a builder its newest critic's verdict (`by` = that critic). */
  verdict?: { verdict: string; defects: number; by: number } | null;
  /** Git-backed lanes. */
  git?: { branch: string | null; ahead: number | null; dirty: boolean } | null;
}

export interface DeckIcon {
  /** A codicon id, with `~spin` where it animates. */
  id: string;
  /** A theme colour id, never a literal colour. */
  color?: string;
}

export interface DeckNode {
  /** Stable across refreshes: VS Code keeps selection and expansion by it. */
  id: string;
  convId: number;
  label: string;
  description: string;
  tooltip: string;
  icon: DeckIcon;
  contextValue: string;
  children: DeckNode[];
  /** A builder's newest critic verdict, opening that critic. */
  verdictLink?: { text: string; convId: number };
}

export const nodeId = (convId: number) => `conv:${convId}`;

const ACTIVITY_ICONS: Record<Activity, DeckIcon> = {
  'needs-you': { id: 'bell-dot', color: 'list.warningForeground' },
  working: { id: 'sync~spin' },
  idle: { id: 'circle-large-outline' },
  starting: { id: 'loading~spin' },
  stopped: { id: 'circle-slash', color: 'disabledForeground' },
  'failed-to-start': { id: 'error', color: 'list.errorForeground' },
};

export function activityIcon(a: Activity): DeckIcon {
  return ACTIVITY_ICONS[a];
}

const JUDGES = new Set(['critic', 'verifier']);

/** `svc:conv+lane+builder+working+live+git+dirty`, matched by regex `when` clauses. */
export function deckContextValue(row: DeckRow): string {
  const parts = ['svc:conv', row.kind];
  if (row.role) parts.push(row.role);
  parts.push(row.activity);
  if (isLive(row.activity)) parts.push('live');
  if (row.git) parts.push('git');
  if (row.git?.dirty) parts.push('dirty');
  if (row.verdict) parts.push('verdict');
  return parts.join('+');
}

export function verdictText(v: { verdict: string; defects: number }): string {
  return v.defects > 0 ? `${v.verdict} · ${v.defects} defect${v.defects === 1 ? '' : 's'}` : v.verdict;
}

export function describeRow(row: DeckRow): string {
  const parts = [`#${row.id}`];
  if (row.kind === 'successor' && row.parentId !== null) parts.push(`continues ← #${row.parentId}`);
  if (row.role) parts.push(row.iteration !== undefined ? `${row.role} iter ${row.iteration}` : row.role);
  parts.push(row.activity);
  if (row.verdict) parts.push(JUDGES.has(row.role ?? '') ? `[${verdictText(row.verdict)}]` : `verdict ${verdictText(row.verdict)} ← #${row.verdict.by}`);
  if (row.git) {
    const g = [row.git.branch ?? '(detached)'];
    if (row.git.ahead) g.push(`↑${row.git.ahead}`);
    if (row.git.dirty) g.push('dirty');
    parts.push(g.join(' '));
  }
  return parts.join(' · ');
}

function tooltipOf(row: DeckRow): string {
  const lines = [`${row.title || row.name} (#${row.id}, ${row.name})`, `${row.kind}${row.role ? ` · ${row.role}` : ''} · ${row.activity}`];
  if (row.run) lines.push(`run ${row.run}${row.key ? ` · key ${row.key}` : ''}`);
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

export function buildDeck(rows: readonly DeckRow[]): DeckNode[] {
  const visible = rows.filter((r) => !r.archived);
  const byId = new Map(visible.map((r) => [r.id, r]));
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
    const seen = new Set<number>([r.id]);
    for (let p = parentOf.get(r.id); p !== null && p !== undefined; p = parentOf.get(p)) {
      if (seen.has(p)) {
        parentOf.set(r.id, null);
        break;
      }
      seen.add(p);
    }
  }
  const nodes = new Map<number, DeckNode>();
  const sorted = [...visible].sort((a, b) => a.id - b.id);
  for (const r of sorted) nodes.set(r.id, toNode(r));
  const roots: DeckNode[] = [];
  for (const r of sorted) {
    const p = parentOf.get(r.id);
    (p === null || p === undefined ? roots : nodes.get(p)!.children).push(nodes.get(r.id)!);
  }
  return roots;
}

function toNode(r: DeckRow): DeckNode {
  const node: DeckNode = {
    id: nodeId(r.id),
    convId: r.id,
    label: r.title || r.name,
    description: describeRow(r),
    tooltip: tooltipOf(r),
    icon: activityIcon(r.activity),
    contextValue: deckContextValue(r),
    children: [],
  };
  if (r.verdict && r.role === 'builder') node.verdictLink = { text: `${verdictText(r.verdict)} (#${r.verdict.by})`, convId: r.verdict.by };
  return node;
}

/** Conversations waiting on the person: the status bar's count. */
export function needsYouCount(rows: readonly DeckRow[]): number {
  let n = 0;
  for (const r of rows) if (!r.archived && r.activity === 'needs-you') n++;
  return n;
}
