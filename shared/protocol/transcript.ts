// Transcript reading for the Conversation panel: the stored rows themselves (prompts, ACP
// session updates — message chunks, tool calls and their updates, plans — asks, answers,
// lifecycle marks), so the panel can show messages as Markdown and tool calls with their
// output, which the text of conversations/log flattens. Sender: the extension.
// Who must stay in sync: server/conversations/transcriptMethods.ts,
// extension/conversations/transcriptItems.ts and docs/protocol.md (section "transcript").
import { z } from 'zod';
import { request } from './rpc';

export const TranscriptRowInfo = z.object({
  seq: z.number().int(),
  at: z.number(),
  /** `prompt`, an ACP `sessionUpdate` kind, `permission`, `elicitation`, `answer`, `withdrawn`, `turn_end`, `lifecycle`, `notice`. */
  kind: z.string(),
  payload: z.unknown(),
});
export type TranscriptRowInfo = z.infer<typeof TranscriptRowInfo>;

export const TRANSCRIPT_READ_DEFAULT = 2000;

/**
 * Client → daemon. Without `afterSeq`: the newest `limit` rows (oldest first). With it: the
 * rows after that seq, at most `limit` (re-asked on `svc/changed {topic: transcript, id}`).
 */
export const transcriptRead = request(
  'transcript/read',
  z
    .object({
      conv: z.string().min(1).max(200),
      afterSeq: z.number().int().min(0).optional(),
      limit: z.number().int().min(1).max(20_000).optional(),
    })
    .strict(),
  z.object({
    conv: z.number().int(),
    rows: z.array(TranscriptRowInfo),
    /** The newest seq of the transcript (0 when empty). */
    lastSeq: z.number().int(),
    /** Without afterSeq: older rows were left out. With it: more rows follow the last one returned. */
    truncated: z.boolean(),
  }),
);
