// The Command Deck as a pure function: conversation rows in, a tree of nodes out, with
// stable ids and composed context values. No vscode import, so unit tests and the bench
// run it in plain Node; deckProvider.ts turns nodes into TreeItems.
//
// Placement (docs/spec.md: Succession, Critic and verifier rules; pairing is rule 4): a conversation nests under its
// parent (lanes under their launcher, successors under their source); a critic or
// verifier nests instead under the builder it judges (same run and key, judged
// iteration; the newest such builder when a --reuse respawn shares the iteration).
// Archived conversations leave the deck (a lane reaped with --keep is not archived, so it
// stays, marked `reaped`); a row whose parent left it is shown at the top.
//
// Verdicts are badges, not text: a judged builder and its critic carry the verdict's icon
// and a decoration badge (defect count or ✓). A review convoy's agents fold into one
// convoy row per run (convoys.ts), earlier runs under it as collapsed history.
import { isLive } from '../../shared/activity';
import type { Activity } from '../../shared/activity';
import { foldConvoys } from './convoys';
import type { ConvoyFacts } from './convoys';
import { activityIcon, verdictBadge, verdictIcon } from './deckIcons';
import type { DeckIcon } from './deckIcons';
import type { DeckNode, DeckRow } from './deckTypes';
import { mdCode, mdText } from './markdown';

export { activityIcon } from './deckIcons';
export type { DeckIcon } from './deckIcons';
export type { DeckNode, DeckRow } from './deckTypes';

/**
 * A conversation node's id: `conv:<id>`, and `conv:<id>:tree` while it has children. VS
 * Code keeps an item's collapsed state by id, and shows a row that was a leaf collapsed
 * when children appear; a new id makes a new parent start expanded, while a parent the
 * person collapsed keeps its id, and stays collapsed, as more children arrive.
 */
export const nodeId = (convId: number, parent = false) => `conv:${convId}${parent ? ':tree' : ''}`;

const JUDGES = new Set(['critic', 'verifier']);
/** Who may launch lanes (docs/spec.md: Launch rules): a root, or an orchestrator lane. */
const LAUNCHERS = new Set(['root', 'successor']);

export function canLaunch(row: Pick<DeckRow, 'kind' | 'role'>): boolean {
  return LAUNCHERS.has(row.kind) || row.role === 'orchestrator';
}

/** Handoff and fork make successors; a lane's own work continues with `--reuse` instead (docs/spec.md: Succession). */
export function canSucceed(row: Pick<DeckRow, 'kind' | 'role'>): boolean {
  return row.kind !== 'lane' || row.role === 'orchestrator';
}

/** A critic's or verifier's own verdict file (a builder's verdict is its critic's): what "Open Report" opens. */
export function ownVerdictFile(row: Pick<DeckRow, 'id' | 'verdict'>): string | undefined {
  return row.verdict?.verdictFile && row.verdict.by === row.id ? row.verdict.verdictFile : undefined;
}

/** `svc:conv+lane+builder+working+live+git+dirty+base`, matched by regex `when` clauses. */
export function deckContextValue(row: DeckRow): string {
  const parts = ['svc:conv', row.kind];
  if (row.role) parts.push(row.role);
  parts.push(row.activity);
  if (isLive(row.activity)) parts.push('live');
  if (row.archived) parts.push('archived');
  if (row.git) parts.push('git');
  if (row.git?.dirty) parts.push('dirty');
  // A builder's worktree with the commit it started from: Compare with Base has something to show.
  if (row.role === 'builder' && row.git && row.base) parts.push('base');
  if (row.verdict) parts.push('verdict');
  if (ownVerdictFile(row)) parts.push('report');
  if (row.reaped) parts.push('reaped');
  if (row.stalled) parts.push('stalled');
  if (canLaunch(row)) parts.push('launcher');
  if (canSucceed(row)) parts.push('succeed');
  return parts.join('+');
}

export function verdictText(v: { verdict: string; defects: number }): string {
  return v.defects > 0 ? `${v.verdict} · ${v.defects} defect${v.defects === 1 ? '' : 's'}` : v.verdict;
}

/**
 * A row's description: the facts its label does not already say, activity and report first
 * (the rest is in the tooltip too). The verdict is a badge
 * and the icon, so it is not repeated here; a role and iteration the title already names
 * (lane titles often do) are left out too.
 */
export function describeRow(row: DeckRow): string {
  // Activity and report state lead, right after the short id: at the default sidebar width a
  // long title leaves room for little else, and these are what a glance at the deck is for.
  const parts = [`#${row.id}`, row.archived ? `${row.activity} (archived)` : row.activity];
  if (row.stalled) parts.push('stalled');
  // A report without a verdict yet must not look like no report at all.
  if (row.report) parts.push(`reported ${row.report.status}`);
  const label = (row.title || row.name).toLowerCase();
  if (row.kind === 'successor' && row.parentId !== null) parts.push(`continues ← #${row.parentId}`);
  if (row.role) {
    const role = row.iteration !== undefined ? `${row.role} i${row.iteration}` : row.role;
    if (!label.includes(role.toLowerCase())) parts.push(role);
  }
  if (row.host) parts.push(row.hostLost ? `on ${row.host} (connection lost, reconnecting)` : `on ${row.host}`);
  if (row.git) {
    const g = [row.git.branch ?? '(detached)'];
    if (row.git.ahead !== null) g.push(`↑${row.git.ahead}`);
    if (!label.includes(g[0].toLowerCase())) parts.push(g.join(' '));
    else if (row.git.ahead !== null) parts.push(`↑${row.git.ahead}`);
    if (row.git.dirty) parts.push('dirty');
  }
  if (row.reaped) parts.push('reaped');
  const spend = spendText(row.budget);
  if (spend) parts.push(spend);
  if (row.parked?.length) parts.push(row.parked.length === 1 ? 'parked patch' : `${row.parked.length} parked patches`);
  // The overlap forecast marks the row: a sibling on the same paths, a branch that conflicts with its base.
  if (row.overlaps?.length) parts.push(`overlaps ${row.overlaps.map((o) => o.key).join(', ')}`);
  if (row.baseConflict) parts.push('conflicts with base');
  if (row.landing) parts.push(landingText(row.landing));
  return parts.join(' · ');
}

/** A landing in a row's description: `landing #3 running`, `landing #4 queued, next`, `landing #5 queued, 2 ahead`. */
function landingText(l: NonNullable<DeckRow['landing']>): string {
  if (l.state === 'running') return `landing #${l.id} running`;
  return `landing #${l.id} queued, ${l.position <= 1 ? 'next' : `${l.position} ahead`}`;
}

/** Spend in a row's description only when it needs eyes: 80 % of a cap or more, a cap reached, or a cap that cannot hold. */
export function spendText(b: DeckRow['budget']): string | null {
  if (!b) return null;
  if (b.state === 'reached') return 'spend cap reached';
  if (b.state === 'not-enforceable') return 'spend cap not enforceable';
  if (b.state === 'near')
    return b.cap !== null && b.spent < b.cap
      ? `spent ${Math.floor((b.spent / b.cap) * 100)}% of its cap`
      : 'run spend near its cap';
  return null;
}

/** The row's facts as Markdown (branch, head, ahead, dirty, verdict, model, cost …), each value escaped. */
export function tooltipOf(row: DeckRow): string {
  const lines = [`**${mdText(row.title || row.name)}**`, ''];
  const fact = (name: string, value: string) => lines.push(`- ${name}: ${value}`);
  fact('conversation', `#${row.id} ${mdCode(row.name)}`);
  fact(
    'kind',
    mdText(`${row.kind}${row.role ? ` · ${row.role}${row.iteration !== undefined ? ` i${row.iteration}` : ''}` : ''}`),
  );
  fact('activity', mdText(row.archived ? `${row.activity} (archived)` : row.activity));
  if (row.stalled) fact('stalled', mdText(row.stalled.replace(/^stalled: /, '')));
  if (row.run) fact('run', mdText(`${row.run}${row.key ? ` · key ${row.key}` : ''}`));
  if (row.host) fact('host', `${mdCode(row.host)} (over SSH)${row.hostLost ? `: ${mdText(row.hostLost)}` : ''}`);
  if (row.sandbox)
    fact(
      'sandbox',
      row.sandbox === 'workspace'
        ? 'workspace: it can change only its own worktree'
        : 'off: unconfined, it runs as you',
    );
  if (row.judged) fact('judges', mdText(`${row.judged.key} i${row.judged.iteration}`));
  if (row.verdict)
    fact(
      'verdict',
      `${mdText(verdictText(row.verdict))}${JUDGES.has(row.role ?? '') || row.verdict.by === row.id ? '' : ` (critic #${row.verdict.by})`}`,
    );
  if (row.report) fact('reported', mdText(row.report.status));
  // A judge's report is its verdict file; a builder's is its own report (in its conversation,
  // which the row opens), so its critic's file is named as the critic's.
  if (row.verdict?.verdictFile)
    fact(ownVerdictFile(row) ? 'report' : "critic's verdict file", mdCode(row.verdict.verdictFile));
  if (row.git) {
    fact('branch', row.git.branch ? mdCode(row.git.branch) : 'detached');
    if (row.git.headSha) fact('head', mdCode(row.git.headSha.slice(0, 12)));
    if (row.git.ahead !== null)
      fact('ahead', `${row.git.ahead} commit${row.git.ahead === 1 ? '' : 's'} ahead of upstream`);
    fact('dirty', row.git.dirty ? 'yes, uncommitted changes' : 'no');
  }
  if (row.model) fact('model', mdCode(row.model));
  if (row.cost) fact('cost', mdText(`${row.cost.amount.toFixed(2)} ${row.cost.currency}`));
  if (row.budget && row.budget.state !== 'none') fact('budget', mdText(row.budget.text));
  if (row.issueId) fact('issue', mdText(row.issueId));
  if (row.reaped) fact('reaped', 'its directory is removed; kept in the deck with --keep');
  for (const p of row.parked ?? []) {
    const n = p.paths === null ? '' : ` (${p.paths} ${p.paths === 1 ? 'path' : 'paths'})`;
    fact('parked', `${mdCode(p.patchFile)}${n}${p.restoreCommand ? `, restore with ${mdCode(p.restoreCommand)}` : ''}`);
  }
  for (const o of row.overlaps ?? [])
    fact('overlaps', `${mdText(o.key)} (${mdCode(o.lane)}) on ${o.paths.map((x) => mdCode(x)).join(', ')}`);
  if (row.baseConflict) fact('conflicts with base', row.baseConflict.map((x) => mdCode(x)).join(', '));
  if (row.landing) {
    const l = row.landing;
    const where = l.state === 'running' ? 'running' : `${l.position} ahead of it in the queue`;
    fact('landing', mdText(`#${l.id} on ${l.base}, ${where}${l.pr === null ? '' : ` (PR #${l.pr})`}`));
  }
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

export interface DeckOptions {
  /** Keep archived rows (the Agents page; the Awareness rail's lane list; the deck's "Show Archived"). */
  keepArchived?: boolean;
  /** Only rows that are live, or lead to one (the deck's "Live Only"). */
  liveOnly?: boolean;
  /** Fold review agents into one convoy row per run (the deck); verdicts and reports come from `reviews`. */
  convoys?: boolean;
  reviews?: readonly ConvoyFacts[];
}

/** The deck's tree. The deck drops archived rows unless asked to keep them. */
export function buildDeck(rows: readonly DeckRow[], opts: DeckOptions = {}): DeckNode[] {
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
  const { folded, anchors }: ReturnType<typeof foldConvoys> = opts.convoys
    ? foldConvoys(sorted, parentOf, nodes, opts.reviews ?? [])
    : { folded: new Set(), anchors: new Map() };
  const roots: DeckNode[] = [];
  const place = (p: number | null | undefined, n: DeckNode) =>
    (p === null || p === undefined ? roots : nodes.get(p)!.children).push(n);
  for (const r of sorted) {
    const convoy = anchors.get(r.id);
    if (convoy) place(convoy.parent, convoy.node);
    if (!folded.has(r.id)) place(parentOf.get(r.id), nodes.get(r.id)!);
  }
  for (const [id, n] of nodes) if (n.children.length && !folded.has(id)) n.id = nodeId(n.convId, true);
  const shown = opts.liveOnly ? keepLive(roots) : roots;
  return opts.convoys ? pinNeedsYou(shown) : shown;
}

/**
 * Conversations waiting on the person come first: a tree holding a needs-you row moves to
 * the top of its level, at every level, so the row sits near the top of the deck instead
 * of below the fold of a tall tree. Otherwise the order is kept (by id). Stable.
 */
function pinNeedsYou(nodes: DeckNode[]): DeckNode[] {
  const waiting = new Map<DeckNode, boolean>();
  const holds = (n: DeckNode): boolean => {
    let w = waiting.get(n);
    if (w === undefined) {
      w =
        (n.kind === 'conv' && n.row?.activity === 'needs-you' && !n.row.archived) ||
        n.children.map(holds).some(Boolean);
      waiting.set(n, w);
    }
    return w;
  };
  const sortLevel = (level: DeckNode[]): DeckNode[] => {
    for (const n of level) if (n.children.length) n.children = sortLevel(n.children);
    if (!level.some(holds)) return level;
    return [...level.filter(holds), ...level.filter((n) => !holds(n))];
  };
  return sortLevel(nodes);
}

/** What a screen reader says for a row: the label, the description and the verdict in words (a badge or an icon says nothing to it). */
export function ariaLabelOf(label: string, description: string, row: DeckRow): string {
  const parts = [label, description];
  if (row.verdict)
    parts.push(
      `verdict ${verdictText(row.verdict).replace(/_/g, ' ')}${row.verdict.by === row.id || JUDGES.has(row.role ?? '') ? '' : ` by critic #${row.verdict.by}`}`,
    );
  else if (row.role === 'builder' && !row.report) parts.push('no report yet');
  return parts.join(', ');
}

/** Rows that are live, and the rows above them (so a live lane keeps its place under a stopped launcher). */
function keepLive(nodes: DeckNode[]): DeckNode[] {
  const out: DeckNode[] = [];
  for (const n of nodes) {
    const children = keepLive(n.children);
    const live = n.kind === 'conv' ? isLive(n.row!.activity) : n.contextValue.includes('+live');
    if (live || children.length) out.push({ ...n, children });
  }
  return out;
}

function isSortedById(rows: readonly DeckRow[]): boolean {
  for (let i = 1; i < rows.length; i++) if (rows[i - 1].id > rows[i].id) return false;
  return true;
}

/** Activities that say more than a verdict: the person must act, or the agent is at work (its badge still shows the verdict). */
const OVER_VERDICT = new Set<Activity>(['needs-you', 'failed-to-start', 'working', 'starting']);

/** A judged builder and its critic show the verdict's icon, unless their activity says more. */
function iconOf(r: DeckRow): DeckIcon {
  if (r.verdict && !OVER_VERDICT.has(r.activity) && (r.role === 'builder' || JUDGES.has(r.role ?? '')))
    return verdictIcon(r.verdict.verdict);
  return activityIcon(r.activity);
}

function toNode(r: DeckRow): DeckNode {
  const node: DeckNode = {
    id: nodeId(r.id),
    kind: 'conv',
    convId: r.id,
    label: r.title || r.name,
    description: describeRow(r),
    tooltip: tooltipOf(r),
    icon: iconOf(r),
    contextValue: deckContextValue(r),
    children: [],
    row: r,
  };
  node.ariaLabel = ariaLabelOf(node.label, node.description, r);
  if (r.verdict && (r.role === 'builder' || JUDGES.has(r.role ?? ''))) node.badge = verdictBadge(r.verdict);
  const verdictFile = ownVerdictFile(r);
  if (verdictFile) node.verdictFile = verdictFile;
  return node;
}

/** Conversations waiting on the person: the status bar's count. */
export function needsYouCount(rows: readonly DeckRow[]): number {
  let n = 0;
  for (const r of rows) if (!r.archived && r.activity === 'needs-you') n++;
  return n;
}
