// The inbox as text: `svc inbox`, the Inbox view's tooltips and the outbound notifications
// say an item the same way.
import type { InboxItem } from '../protocol/inbox';
import { ageText } from './duration';

/** Where an item is: `lane b-x-builder-i1 · run b · proj · on host h`, or the conversation. */
export function inboxWhere(i: InboxItem): string {
  const parts = [
    i.lane ? `lane ${i.lane}` : i.conversation ? `#${i.conversation.id} ${i.conversation.name}` : undefined,
    i.run ? `run ${i.run}` : undefined,
    i.project ?? undefined,
    i.host ? `on ${i.host}` : undefined,
  ];
  return parts.filter((p) => p !== undefined).join(' · ');
}

/** One item: its id, kind and age, where it is, what waits, its choices and lines, the command. */
export function inboxItemLines(i: InboxItem, now: number): string[] {
  const out = [`${i.id}  ${i.kind} · ${ageText(now - i.since)} · ${inboxWhere(i)}`, `  ${i.title}`];
  if (i.choices.length) out.push(`  choices: ${i.choices.map((c) => `${c.id} (${c.name})`).join(', ')}`);
  for (const l of i.lines) out.push(`  ${l}`);
  out.push(`  → ${i.command}`);
  return out;
}

export function inboxText(items: InboxItem[], now: number): string {
  if (!items.length) return 'Nothing waits on you.\n';
  const head = `${items.length} item${items.length === 1 ? '' : 's'} wait${items.length === 1 ? 's' : ''} on you, oldest first:`;
  return [head, ...items.flatMap((i) => ['', ...inboxItemLines(i, now)])].join('\n') + '\n';
}
