// The agents the daemon itself ended (stopped with it, or left by a crash and settled at
// the next start), and resuming them all at once. Senders: the shim
// (`svc conv resume --all-stopped-by-daemon`) and the extension (the Command Deck's title
// bar offers "Resume All Stopped by the Daemon" while there are any). Who must stay in sync:
// server/conversations/stoppedByDaemonMethods.ts and docs/protocol.md ("conversations").
import { z } from 'zod';
import { ConversationInfo, Created } from './conversations';
import { request } from './rpc';

const Ask = z.object({ kind: z.string(), title: z.string() });

export const StoppedByDaemon = z.object({
  conversation: ConversationInfo,
  /** When the daemon ended it (epoch ms). */
  at: z.number(),
  /** `stopped`: a stop of the daemon ended it; `restarted`: the daemon had gone away (a crash). */
  how: z.enum(['stopped', 'restarted']),
  /** The needs-you request the stop withdrew, which the resume brings back; null: none was open. */
  ask: Ask.nullable(),
});
export type StoppedByDaemon = z.infer<typeof StoppedByDaemon>;

/** Client → daemon. The agents the daemon ended and nobody has resumed or archived since, oldest first. */
export const conversationsStoppedByDaemon = request(
  'conversations/stoppedByDaemon',
  z.object({}).strict(),
  z.object({ conversations: z.array(StoppedByDaemon) }),
);

/**
 * Client → daemon. Resumes every agent the daemon ended, as `conversations/resume` resumes
 * one; a resume that is refused (a reaped lane) is listed with its refusal and the rest go on.
 */
export const conversationsResumeStoppedByDaemon = request(
  'conversations/resumeStoppedByDaemon',
  z.object({ noWait: z.boolean().optional() }).strict(),
  z.object({
    /** Each agent resumed; `askAgain`: the request the stop withdrew, which it was handed again. */
    resumed: z.array(Created.extend({ askAgain: Ask.nullable() })),
    refused: z.array(z.object({ conversation: ConversationInfo, reason: z.string(), message: z.string() })),
  }),
);
