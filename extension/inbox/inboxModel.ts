// The Inbox view as pure functions: the daemon's inbox items (inbox/list, the same list
// `svc inbox` prints) in, tree nodes out, with stable ids and composed context values the
// row menus match; and what the badge, the status bar item and a new item's notification
// say. No vscode import, so the unit tier runs it in plain Node; inboxProvider.ts turns
// nodes into TreeItems.
import type { InboxItem, InboxKind } from '../../shared/protocol/inbox';
import { ageText } from '../../shared/format/duration';
import { inboxWhere } from '../../shared/format/inboxText';
import type { DeckIcon } from '../commandDeck/deckIcons';
import { mdCode, mdText } from '../commandDeck/markdown';

export interface InboxNode {
  /** `inbox:<item id>`: the item's own id (`ask-12`, `spend-14`), stable while it waits. */
  id: string;
  kind: InboxKind;
  /** The conversation it concerns: the row commands (answer, open, resume …) act on it. */
  convId?: number;
  label: string;
  description: string;
  /** Markdown: the item's lines and the exact command that acts on it. */
  tooltip: string;
  icon: DeckIcon;
  /** `svc:inbox+needs-you+conv+lane`, matched by regex `when` clauses. */
  contextValue: string;
  children: InboxNode[];
  item: InboxItem;
}

const ICONS: Record<InboxKind, DeckIcon> = {
  'needs-you': { id: 'bell-dot', color: 'list.warningForeground' },
  blocked: { id: 'debug-pause', color: 'list.warningForeground' },
  spend: { id: 'credit-card', color: 'list.warningForeground' },
  'failed-start': { id: 'error', color: 'list.errorForeground' },
  stalled: { id: 'watch', color: 'list.warningForeground' },
  'changes-requested': { id: 'request-changes', color: 'list.warningForeground' },
};

export function inboxContextValue(item: InboxItem): string {
  const parts = ['svc:inbox', item.kind];
  if (item.conversation) parts.push('conv');
  if (item.lane) parts.push('lane');
  return parts.join('+');
}

function tooltipOf(item: InboxItem, now: number): string {
  const lines = [`**${mdText(item.title)}**`, ''];
  for (const l of item.lines) lines.push(`- ${mdText(l)}`);
  if (item.choices.length) lines.push(`- choices: ${item.choices.map((c) => mdText(c.name)).join(', ')}`);
  lines.push(`- where: ${mdText(inboxWhere(item) || 'this machine')}`);
  lines.push(`- waiting for ${ageText(Math.max(0, now - item.since))}`);
  lines.push('', `In a terminal: ${mdCode(item.command)}`);
  return lines.join('\n');
}

/** The Inbox tree: one row per item, oldest first (the daemon's order). */
export function inboxNodes(items: readonly InboxItem[], now: number): InboxNode[] {
  return items.map((item) => {
    const node: InboxNode = {
      id: `inbox:${item.id}`,
      kind: item.kind,
      label: item.title,
      description: [inboxWhere(item), ageText(Math.max(0, now - item.since))].filter(Boolean).join(' · '),
      tooltip: tooltipOf(item, now),
      icon: ICONS[item.kind],
      contextValue: inboxContextValue(item),
      children: [],
      item,
    };
    if (item.conversation) node.convId = item.conversation.id;
    return node;
  });
}

/** The view's badge (the count on the activity-bar icon): every item, undefined when none. */
export function inboxBadge(n: number): { value: number; tooltip: string } | undefined {
  return n > 0
    ? { value: n, tooltip: `${n} svc item${n === 1 ? '' : 's'} wait${n === 1 ? 's' : ''} on you` }
    : undefined;
}

/** The status bar item: `$(inbox) 2`, shown while the inbox can be read. */
export function inboxStatus(items: readonly InboxItem[]): { text: string; tooltip: string } {
  const n = items.length;
  if (!n) return { text: '$(inbox) 0', tooltip: 'svc: nothing waits on you. Click to open the Inbox.' };
  const byKind = new Map<InboxKind, number>();
  for (const i of items) byKind.set(i.kind, (byKind.get(i.kind) ?? 0) + 1);
  const kinds = [...byKind].map(([k, c]) => `${c} ${k}`).join(', ');
  return {
    text: `$(inbox) ${n}`,
    tooltip: `svc: ${n} item${n === 1 ? '' : 's'} wait on you (${kinds}). Click to open the Inbox.`,
  };
}

/** An item as seen once: the same id with a new `since` (a second ask of one conversation) is a new item. */
export const itemKey = (i: Pick<InboxItem, 'id' | 'since'>) => `${i.id}@${i.since}`;

/**
 * The items a notification announces: those not in the previous read, whose kind the
 * person has not muted. The first read (`seen` undefined) announces nothing: what waited
 * before the window opened is in the badge and the status bar, not a burst of toasts.
 */
export function newItems(
  seen: ReadonlySet<string> | undefined,
  items: readonly InboxItem[],
  muted: readonly string[],
): InboxItem[] {
  if (!seen) return [];
  return items.filter((i) => !seen.has(itemKey(i)) && !muted.includes(i.kind));
}

/** A notification's buttons, by what each does; the first ones are the item's own answer. */
export type NoticeAction =
  | { label: string; run: 'option'; option: string }
  | { label: string; run: 'command'; command: string }
  | { label: string; run: 'openInbox' };

/** At most this many of a request's choices become buttons; more go to the Answer… pick. */
const CHOICE_BUTTONS = 3;

/** What a new item's notification says and offers (spend holds have their own notice: budgetCommand.ts). */
export function noticeOf(item: InboxItem): { message: string; actions: NoticeAction[] } {
  const where = item.lane ?? item.conversation?.name ?? item.run ?? '';
  const message = `svc: ${where ? `${where}: ` : ''}${item.title}`;
  const actions: NoticeAction[] = [];
  const conv = item.conversation !== null;
  switch (item.kind) {
    case 'needs-you':
      if (item.choices.length && item.choices.length <= CHOICE_BUTTONS)
        for (const c of item.choices) actions.push({ label: c.name, run: 'option', option: c.id });
      else actions.push({ label: 'Answer…', run: 'command', command: 'svc.answerConversation' });
      break;
    case 'blocked':
      actions.push({ label: 'Tell…', run: 'command', command: 'svc.tellConversation' });
      break;
    case 'spend':
      actions.push({ label: 'Raise Spend Cap…', run: 'command', command: 'svc.raiseBudget' });
      break;
    case 'failed-start':
      actions.push({ label: 'Resume', run: 'command', command: 'svc.resumeConversation' });
      if (item.lane) actions.push({ label: 'Reap…', run: 'command', command: 'svc.reapLane' });
      break;
    case 'stalled':
      actions.push({ label: 'Open', run: 'command', command: 'svc.openConversation' });
      actions.push({ label: 'Stop', run: 'command', command: 'svc.stopConversation' });
      break;
    case 'changes-requested':
      if (conv) actions.push({ label: 'Resume Work Agent', run: 'command', command: 'svc.resumeConversation' });
      break;
  }
  actions.push({ label: 'Open Inbox', run: 'openInbox' });
  return { message, actions };
}
