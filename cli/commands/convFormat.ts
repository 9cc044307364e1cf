// Text forms of conversations for the shim: the Command Deck tree (`svc conv list`),
// `svc conv show`, `svc status`, and the result line of commands that start one.
import { jsonText } from '../cli';
import type { AgentStatus, ConversationInfo, Created } from '../../shared/protocol/conversations';
import type { LaneRecord } from '../../shared/protocol/lanes';
import { table } from './table';
import { textOf } from '../../shared/format/text';
import { formatCost } from '../../shared/format/money';
import { activityText } from './laneFormat';

function label(c: ConversationInfo): string {
  const parts = [`#${c.id} ${c.name}`, activityText(c), `${c.harness}/${c.model}`];
  if (c.kind === 'lane') parts.push('lane');
  if (c.kind === 'successor' && c.parentId !== null) parts.push(`continues ← #${c.parentId}`);
  if (c.title) parts.push(c.title);
  return parts.join('  ');
}

/** The lane facts the tree places by: a critic or verifier nests under the builder it judges. */
export type LanePlacement = Pick<LaneRecord, 'id' | 'role' | 'run' | 'key' | 'iteration' | 'judged'>;

/**
 * The conversation a row nests under, as the Command Deck places it: a critic or verifier
 * under the builder it judges (same run and key, the judged iteration; the newest such
 * builder when a respawn shares the iteration), anything else under its parent.
 */
function placedUnder(
  c: ConversationInfo,
  lanes: ReadonlyMap<number, LanePlacement>,
  builders: ReadonlyMap<string, number>,
): number | null {
  const l = lanes.get(c.id);
  if (l && (l.role === 'critic' || l.role === 'verifier') && l.judged) {
    const b = builders.get(`${l.run}\0${l.judged.key}\0${l.judged.iteration}`);
    if (b !== undefined && b !== c.id) return b;
  }
  return c.parentId;
}

/** Roots, then each conversation's children (lanes, successors, agents) indented under it; critics under their builder. */
export function deckTree(list: ConversationInfo[], laneList: readonly LanePlacement[] = []): string {
  const byId = new Map(list.map((c) => [c.id, c]));
  const lanes = new Map(laneList.map((l) => [l.id, l]));
  const builders = new Map<string, number>();
  for (const l of laneList) {
    if (l.role !== 'builder' || !byId.has(l.id)) continue;
    const k = `${l.run}\0${l.key}\0${l.iteration}`;
    if ((builders.get(k) ?? -1) < l.id) builders.set(k, l.id);
  }
  const children = new Map<number, ConversationInfo[]>();
  const roots: ConversationInfo[] = [];
  for (const c of list) {
    const parent = placedUnder(c, lanes, builders);
    if (parent !== null && byId.has(parent)) {
      const arr = children.get(parent) ?? [];
      arr.push(c);
      children.set(parent, arr);
    } else roots.push(c);
  }
  const lines: string[] = [];
  const walk = (c: ConversationInfo, depth: number, seen: Set<number>) => {
    if (seen.has(c.id)) return;
    seen.add(c.id);
    lines.push(`${'  '.repeat(depth)}${label(c)}`);
    for (const k of children.get(c.id) ?? []) walk(k, depth + 1, seen);
  };
  const seen = new Set<number>();
  for (const r of roots) walk(r, 0, seen);
  return lines.length
    ? lines.join('\n') + '\n'
    : 'no conversations (start one with: svc conv new --project <key> --harness <h> --model <m> --prompt <text>)\n';
}

const when = (ms: number | null) => (ms === null ? '-' : new Date(ms).toISOString());

export function showText(c: ConversationInfo): string {
  const rows: [string, string][] = [
    ['title', c.title],
    ['kind', c.kind + (c.kind === 'successor' && c.parentId !== null ? ` (continues ← #${c.parentId})` : '')],
    ['activity', activityText(c)],
    ['alive', String(c.alive)],
    ['harness', c.harness],
    ['model', c.model],
    ['effort', c.effort ?? '-'],
    ['project', c.project ?? '-'],
    ['cwd', c.cwd],
    ['parent', c.parentId === null ? '-' : `#${c.parentId}`],
    ['created', when(c.createdAt)],
    ['started', when(c.startedAt)],
    ['ended', c.endedAt === null ? '-' : `${when(c.endedAt)}${c.exitStatus ? ` (${c.exitStatus})` : ''}`],
    ['cost', c.cost ? formatCost(c.cost.amount, c.cost.currency) : '-'],
    ['queued', String(c.queued)],
  ];
  if (c.issueId) rows.push(['issue', c.issueId]);
  if (c.spawnError) rows.push(['spawn error', c.spawnError]);
  if (c.hostLost) rows.push(['host', `${c.hostLost.text} (since ${when(c.hostLost.since)})`]);
  if (c.ask) {
    const opts = c.ask.options.length
      ? ` — options: ${c.ask.options.map((o) => `${o.id} (${o.kind})`).join(', ')}`
      : c.ask.fields.length
        ? ` — fields: ${c.ask.fields.join(', ')}`
        : '';
    rows.push(['needs you', `${c.ask.kind}: ${c.ask.title}${opts}`]);
  }
  const width = Math.max(...rows.map(([k]) => k.length)) + 1;
  return [`#${c.id} ${c.name}`, ...rows.map(([k, v]) => `  ${(k + ':').padEnd(width)} ${v}`)].join('\n') + '\n';
}

export function statusTable(agents: AgentStatus[]): string {
  if (agents.length === 0) return 'no agents\n';
  const head = ['ID', 'NAME', 'KIND', 'ACTIVITY', 'ALIVE', 'HARNESS', 'MODEL', 'COST'];
  const rows = agents.map((a) => [
    `#${a.id}`,
    a.name,
    a.kind,
    a.archived ? `${a.activity} (archived)` : a.activity,
    a.alive ? 'yes' : 'no',
    a.harness,
    a.model,
    a.cost ? formatCost(a.cost.amount, a.cost.currency) : '-',
  ]);
  return table(head, rows);
}

/** Prints the result of a command that starts a conversation; returns the exit code. */
export function reportCreated(r: Created, json: boolean, io: { out(t: string): void; err(t: string): void }): number {
  const c = r.conversation;
  if (json) io.out(jsonText(r));
  else io.out(`Conversation #${c.id} (${c.name}) in ${c.cwd}\n`);
  switch (r.outcome) {
    case 'alive':
    case 'notWaited':
      return 0;
    case 'failed':
      io.err(`${c.spawnError ?? 'failed to start'}\n`);
      return 1;
    case 'ended':
      io.err(`conversation #${c.id} (${c.name}) ended before it started${c.exitStatus ? ` (${c.exitStatus})` : ''}\n`);
      return 1;
    default:
      io.err(
        `conversation #${c.id} (${c.name}) has not started after 180 s (${c.activity}); see svc conv show #${c.id}\n`,
      );
      return 1;
  }
}

/** `svc conv resume --all-stopped-by-daemon`: each agent resumed on stdout, each refused or failed on stderr. */
export function resumedAll(
  r: {
    resumed: (Created & { askAgain: { kind: string; title: string } | null })[];
    refused: { conversation: ConversationInfo; message: string }[];
  },
  json: boolean,
  io: { out(t: string): void; err(t: string): void },
): number {
  if (json) io.out(jsonText(r));
  else if (!r.resumed.length && !r.refused.length) io.out('No agent is stopped by the daemon: nothing to resume\n');
  let code = 0;
  for (const c of r.resumed) {
    const info = c.conversation;
    const asks = c.askAgain
      ? `; handed its turn again to ask again: ${c.askAgain.kind} "${textOf(c.askAgain.title)}"`
      : '';
    if (!json) io.out(`Resumed #${info.id} (${info.name}) in ${info.cwd}${asks}\n`);
    if (c.outcome === 'failed' || c.outcome === 'ended' || c.outcome === 'timeout') {
      code = 1;
      io.err(`#${info.id} (${info.name}) did not start: ${info.spawnError ?? info.exitStatus ?? info.activity}\n`);
    }
  }
  for (const f of r.refused) {
    code = 1;
    io.err(`not resumed #${f.conversation.id} (${f.conversation.name}): ${f.message}\n`);
  }
  return code;
}
