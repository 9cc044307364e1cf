// What each kind of target receives for one event, built from the inbox item (pure, so
// every format is unit-tested). A payload carries what the person needs to decide — the
// kind, the lane or conversation, its run, project and host, the age, the item's title
// and first lines, the exact `svc` command that acts on it — and nothing else: the item
// holds no tokens, and report bodies reach it only as their first lines (inboxItems.ts).
// The target's secret is added by deliver.ts, as a header, never here.
import type { NotifyTarget } from '../../shared/config';
import { ageText } from '../../shared/format/duration';
import type { InboxItem } from '../../shared/protocol/inbox';
import { SVC_VERSION } from '../../shared/version';

/** One event as a target is told of it: an inbox item, or `svc notify test`'s check. */
export interface Notice {
  /** Stable across attempts and restarts (outbox.ts eventKey): a receiver dedupes on it. */
  eventId: string;
  kind: InboxItem['kind'] | 'test';
  item: Omit<InboxItem, 'id' | 'kind'> & { id: string };
}

export interface Payload {
  contentType: string;
  headers: Record<string, string>;
  body: string;
}

/** The notice `svc notify test` sends: says the target works, acts on nothing. */
export function testNotice(now: number): Notice {
  return {
    eventId: `test@${now}`,
    kind: 'test',
    item: {
      id: 'test',
      since: now,
      conversation: null,
      lane: null,
      run: null,
      project: null,
      host: null,
      title: 'svc notify test: this target receives svc inbox items',
      lines: [],
      choices: [],
      command: 'svc inbox',
    },
  };
}

/** Where an item is, in a few words: `lane r-a-builder-i1 · run r · proj`. */
export function whereText(n: Notice): string {
  const i = n.item;
  const parts: string[] = [];
  if (i.lane !== null) parts.push(`lane ${i.lane}`);
  else if (i.conversation !== null) parts.push(`#${i.conversation.id} ${i.conversation.name}`);
  if (i.run !== null) parts.push(`run ${i.run}`);
  if (i.project !== null) parts.push(i.project);
  if (i.host !== null) parts.push(`on ${i.host}`);
  return parts.join(' · ');
}

const common = (n: Notice): Record<string, string> => ({
  'User-Agent': `svc/${SVC_VERSION}`,
  'X-Svc-Event': headerSafe(n.eventId),
});

/** A generic JSON webhook: the item's fields, named as `svc inbox --json` names them. */
export function webhookPayload(n: Notice, now: number): Payload {
  const i = n.item;
  const body = {
    source: 'svc',
    event: n.eventId,
    kind: n.kind,
    item: i.id,
    title: i.title,
    lines: i.lines,
    conversation: i.conversation,
    lane: i.lane,
    run: i.run,
    project: i.project,
    host: i.host,
    since: new Date(i.since).toISOString(),
    age: ageText(Math.max(0, now - i.since)),
    choices: i.choices,
    command: i.command,
  };
  return { contentType: 'application/json', headers: common(n), body: JSON.stringify(body) };
}

/** An ntfy-style topic: the text as the message, a title and tags as headers (ASCII only, as headers must be). */
export function ntfyPayload(n: Notice, now: number): Payload {
  const i = n.item;
  const where = whereText(n);
  const lines = [
    i.title,
    ...i.lines,
    ...(i.choices.length ? [`choices: ${i.choices.map((c) => c.id).join(', ')}`] : []),
    `-> ${i.command}`,
  ];
  return {
    contentType: 'text/plain; charset=utf-8',
    headers: {
      ...common(n),
      Title: headerSafe(`svc ${n.kind}${where ? `: ${where}` : ''} (${ageText(Math.max(0, now - i.since))})`),
      Tags: headerSafe(`svc,${n.kind}`),
      Priority: n.kind === 'needs-you' ? '4' : '3',
    },
    body: lines.join('\n'),
  };
}

/** A Slack-compatible incoming webhook: one `text` in Slack's markup, with its three characters escaped. */
export function slackPayload(n: Notice, now: number): Payload {
  const i = n.item;
  const where = whereText(n);
  const head = `*svc ${n.kind}*${where ? ` · ${slackEscape(where)}` : ''} · ${ageText(Math.max(0, now - i.since))}`;
  const lines = [
    head,
    slackEscape(i.title),
    ...i.lines.map((l) => `> ${slackEscape(l)}`),
    ...(i.choices.length ? [`choices: ${slackEscape(i.choices.map((c) => c.id).join(', '))}`] : []),
    `\`${slackEscape(i.command.replace(/`/g, "'"))}\``,
  ];
  return { contentType: 'application/json', headers: common(n), body: JSON.stringify({ text: lines.join('\n') }) };
}

export function payloadFor(target: Pick<NotifyTarget, 'kind'>, n: Notice, now: number): Payload {
  switch (target.kind) {
    case 'webhook':
      return webhookPayload(n, now);
    case 'ntfy':
      return ntfyPayload(n, now);
    case 'slack':
      return slackPayload(n, now);
  }
}

/** Slack's markup gives &, < and > meaning; everything else is text. */
export const slackEscape = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A header value of printable ASCII, at most 250 characters (agent text may hold anything). */
export function headerSafe(s: string): string {
  const ascii = s
    .normalize('NFKD')
    .replace(/[^\x20-\x7e]/g, (c) => (/\s/.test(c) ? ' ' : c === '·' ? '-' : ''))
    .trim();
  return ascii.length > 250 ? `${ascii.slice(0, 249)}~` : ascii;
}

/** The notice of an inbox item as the outbox holds it. */
export function noticeOf(eventId: string, item: InboxItem): Notice {
  return { eventId, kind: item.kind, item };
}
