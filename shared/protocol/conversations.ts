// Conversation methods: every agent in svc is a conversation (roots, lanes, successors,
// review and work agents). Senders: the shim (`svc conv …`, `svc tell`, `svc status`,
// `svc handoff`, `svc fork`) and the extension (Command Deck, Agents page, Conversation
// panel). Who must stay in sync: server/conversations/conversationMethods.ts and
// docs/protocol.md (section "conversations").
import { z } from 'zod';
import { ACTIVITIES } from '../activity';
import { Effort } from '../config';
import { ReviewerRole } from './review';
import { request } from './rpc';

/** `#id`, id, name or `conv-<name>`. */
const ConvRef = z.string().min(1).max(200);
/** SVC_CONVERSATION of the calling agent; absent for a person. */
const Caller = z.string().max(40).optional();
const Text = z.string().min(1).max(1_000_000);
const Model = z.string().trim().min(1).max(200);
const HarnessName = z.string().min(1).max(32);

export const CONVERSATION_KINDS = ['root', 'lane', 'successor', 'agent'] as const;
export const ConversationKind = z.enum(CONVERSATION_KINDS);
export type ConversationKind = z.infer<typeof ConversationKind>;

export const Cost = z.object({ amount: z.number(), currency: z.string() });

/** The open needs-you request of a conversation (a permission, a question or a plan approval). */
export const OpenAsk = z.object({
  kind: z.enum(['permission', 'question', 'plan']),
  /** What the agent asks: a tool call title or an elicitation message. */
  title: z.string(),
  /** Permission options (`--option <id>`); empty for a question. */
  options: z.array(z.object({ id: z.string(), name: z.string(), kind: z.string() })),
  /** Question fields the agent wants filled (a `--text` answer fills the first). */
  fields: z.array(z.string()),
  openedAt: z.number(),
});
export type OpenAsk = z.infer<typeof OpenAsk>;

/** The connection to a lane's host is down since `since`; `text` says what svc does about it. */
export const HostLost = z.object({ since: z.number(), text: z.string() });
export type HostLost = z.infer<typeof HostLost>;

/** A review convoy's agent: the run it reviews in and its role there (parent, quick, or a lane such as security). */
export const ReviewSeat = z.object({ runId: z.string(), role: ReviewerRole });
export type ReviewSeat = z.infer<typeof ReviewSeat>;

/** One conversation as every reader sees it: the row plus activity computed at read time. */
export const ConversationInfo = z.object({
  id: z.number().int(),
  name: z.string(),
  title: z.string(),
  kind: ConversationKind,
  parentId: z.number().int().nullable(),
  project: z.string().nullable(),
  cwd: z.string(),
  harness: z.string(),
  model: z.string(),
  effort: z.string().nullable(),
  /** How its tool calls are approved: `ask` (needs-you requests) or `auto` (unattended). */
  permissions: z.enum(['ask', 'auto']),
  issueId: z.string().nullable(),
  activity: z.enum(ACTIVITIES),
  alive: z.boolean(),
  archived: z.boolean(),
  createdAt: z.number(),
  startedAt: z.number().nullable(),
  endedAt: z.number().nullable(),
  exitStatus: z.string().nullable(),
  spawnError: z.string().nullable(),
  cost: Cost.nullable(),
  /** Prompts waiting for the current turn to end. */
  queued: z.number().int(),
  ask: OpenAsk.nullable(),
  /** An agent on a host whose SSH connection is down: it keeps running there and svc is reconnecting. */
  hostLost: HostLost.nullable(),
  /** A reviewer's seat in its issue's review; null for every other conversation (a work agent too). */
  review: ReviewSeat.nullable(),
});
export type ConversationInfo = z.infer<typeof ConversationInfo>;

const StartFields = {
  harness: HarnessName,
  model: Model,
  effort: Effort.optional(),
  title: z.string().min(1).max(200).optional(),
  prompt: Text,
  noWait: z.boolean().optional(),
  caller: Caller,
};

export const StartOutcome = z.enum(['alive', 'failed', 'ended', 'timeout', 'notWaited']);

export const Created = z.object({ conversation: ConversationInfo, outcome: StartOutcome });
export type Created = z.infer<typeof Created>;

/** Client → daemon. Creates a root conversation and (unless noWait) waits up to 180 s for it to start. */
export const conversationsNew = request(
  'conversations/new',
  z
    .object({
      ...StartFields,
      project: z.string().min(1).max(32).optional(),
      /** Absolute working directory; default: the project's checkout. */
      cwd: z.string().min(1).max(4096).optional(),
    })
    .strict(),
  Created,
);

/** Client → daemon. Every conversation (archived ones with `all`), oldest first, each with `parentId` so clients draw the tree. */
export const conversationsList = request(
  'conversations/list',
  z.object({ all: z.boolean().optional() }).strict(),
  z.object({ conversations: z.array(ConversationInfo) }),
);

/** Client → daemon. One conversation. */
export const conversationsShow = request('conversations/show', z.object({ conv: ConvRef }).strict(), ConversationInfo);

/**
 * Client → daemon. The conversation's output as text (prompts, agent messages, tool output).
 * Without `afterSeq`: the last `lines` lines. With it: everything after that transcript seq
 * (for `--follow`, re-asked on each `svc/changed` of topic `transcript`).
 */
export const conversationsLog = request(
  'conversations/log',
  z
    .object({
      conv: ConvRef,
      lines: z.number().int().min(1).max(100_000).optional(),
      afterSeq: z.number().int().min(0).optional(),
    })
    .strict(),
  z.object({ text: z.string(), lastSeq: z.number().int(), live: z.boolean() }),
);

/** Client → daemon. The stop door (docs/architecture.md §6); SIGKILL only with `kill`. */
export const conversationsStop = request(
  'conversations/stop',
  z
    .object({
      conv: ConvRef,
      kill: z.boolean().optional(),
      timeoutMs: z.number().int().min(100).max(600_000).optional(),
    })
    .strict(),
  z.object({ stopped: z.boolean(), conversation: ConversationInfo }),
);

/** Client → daemon. Hides a stopped conversation from the Command Deck (its transcript stays). */
export const conversationsArchive = request(
  'conversations/archive',
  z.object({ conv: ConvRef }).strict(),
  ConversationInfo,
);

/** Client → daemon. Brings an archived conversation back to the Command Deck. */
export const conversationsUnarchive = request(
  'conversations/unarchive',
  z.object({ conv: ConvRef }).strict(),
  ConversationInfo,
);

/** Client → daemon. Restarts a stopped conversation's agent (session/load, session/resume, or a fresh session told it continues). */
export const conversationsResume = request(
  'conversations/resume',
  z.object({ conv: ConvRef, noWait: z.boolean().optional() }).strict(),
  Created,
);

/** Client → daemon. Answers the open needs-you request: exactly one of allow, deny, option, text. */
export const conversationsAnswer = request(
  'conversations/answer',
  z
    .object({
      conv: ConvRef,
      allow: z.boolean().optional(),
      deny: z.boolean().optional(),
      option: z.string().min(1).max(200).optional(),
      text: z.string().max(100_000).optional(),
    })
    .strict(),
  z.object({ answered: OpenAsk, conversation: ConversationInfo }),
);

/** Client → daemon (`svc tell`, the composer). Delivered now when idle, queued in order mid-turn. */
export const conversationsTell = request(
  'conversations/tell',
  z.object({ conv: ConvRef, text: Text, force: z.boolean().optional(), caller: Caller }).strict(),
  z.object({ delivered: z.enum(['now', 'queued']), ahead: z.number().int(), conversation: ConversationInfo }),
);

export const AgentStatus = z.object({
  id: z.number().int(),
  name: z.string(),
  title: z.string(),
  kind: ConversationKind,
  parentId: z.number().int().nullable(),
  harness: z.string(),
  model: z.string(),
  effort: z.string().nullable(),
  alive: z.boolean(),
  activity: z.enum(ACTIVITIES),
  archived: z.boolean(),
  cost: Cost.nullable(),
});
export type AgentStatus = z.infer<typeof AgentStatus>;

/** Client → daemon (`svc status`, the Agents page). Every agent with alive, activity, model and cost. */
export const conversationsStatus = request(
  'conversations/status',
  z.object({ all: z.boolean().optional() }).strict(),
  z.object({ agents: z.array(AgentStatus) }),
);

const SuccessorParams = z
  .object({
    /** The source; default: the caller. */
    conv: ConvRef.optional(),
    harness: HarnessName.optional(),
    model: Model.optional(),
    effort: Effort.optional(),
    title: z.string().min(1).max(200).optional(),
    prompt: Text.optional(),
    noWait: z.boolean().optional(),
    caller: Caller,
  })
  .strict();

/** Client → daemon (`svc handoff`). A successor that continues the source's work from a handoff note. */
export const conversationsHandoff = request('conversations/handoff', SuccessorParams, Created);

/** Client → daemon (`svc fork`). A successor that starts from a copy of the source's recent transcript. */
export const conversationsFork = request('conversations/fork', SuccessorParams, Created);
