// The inbox: every item waiting on the person, across projects and hosts, computed when
// read (nothing about it is stored). Senders: the shim (`svc inbox`) and the extension
// (the Inbox view, its badge, status bar item and notifications). Who must stay in sync:
// server/inbox/inboxMethods.ts, cli/commands/inbox.ts and docs/protocol.md ("inbox").
import { z } from 'zod';
import { request } from './rpc';

export const INBOX_KINDS = ['needs-you', 'blocked', 'spend', 'failed-start', 'stalled', 'changes-requested'] as const;
export const InboxKind = z.enum(INBOX_KINDS);
export type InboxKind = z.infer<typeof InboxKind>;

export const InboxItem = z.object({
  /** What `svc inbox answer` takes: `ask-12`, `spend-14`, `blocked-14`, `failed-14`, `stalled-14`, `review-web-7`. */
  id: z.string(),
  kind: InboxKind,
  /** When the item began to wait on the person (epoch ms); the list is oldest first. */
  since: z.number(),
  /** The conversation it concerns (the lane's own, or the work agent). */
  conversation: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  /** The lane's name, for a lane's item. */
  lane: z.string().nullable(),
  /** The gauntlet run (`<run>`) or review run (`r3`) it belongs to. */
  run: z.string().nullable(),
  project: z.string().nullable(),
  /** The host (config.yaml hosts.<name>) its agent runs on; null: this machine. */
  host: z.string().nullable(),
  /** One line: what waits (the ask's title, the report's first word and line, the stall). */
  title: z.string(),
  /** A few more lines: a report body's first lines, a stall's measure; never a whole body. */
  lines: z.array(z.string()),
  /** A needs-you request's answers (`--option <id>`); a question's fields take `--text`. */
  choices: z.array(z.object({ id: z.string(), name: z.string() })),
  /** The exact command that acts on it. */
  command: z.string(),
});
export type InboxItem = z.infer<typeof InboxItem>;

export const InboxListParams = z
  .object({
    /** Wait until an item newer than this cursor (a `cursor` of an earlier read) is waiting. */
    after: z
      .string()
      .regex(/^\d{1,15}$/, 'a cursor is the number an earlier `svc inbox` printed')
      .optional(),
    /** With `after`: how long to wait before answering with what there is (default 300 s). */
    timeoutS: z.number().int().min(0).max(86_400).optional(),
  })
  .strict();

export const InboxListResult = z.object({
  items: z.array(InboxItem),
  /** The daemon's clock at the read: ages are measured from it. */
  now: z.number(),
  /** Pass as `after` to wait for what comes next. */
  cursor: z.string(),
  /** With `after`: `new` (an item newer than the cursor is waiting) or `timeout`. */
  outcome: z.enum(['read', 'new', 'timeout']),
});
export type InboxListResult = z.infer<typeof InboxListResult>;

/** Client → daemon (`svc inbox`, the Inbox view). Every waiting item, oldest first; with `after`, waits for a newer one. */
export const inboxList = request('inbox/list', InboxListParams, InboxListResult);
