// transcript/read (shared/protocol/transcript.ts): the Conversation panel reads the stored
// rows and folds them itself; re-asked with afterSeq on `svc/changed {topic: transcript}`.
import { TRANSCRIPT_READ_DEFAULT, transcriptRead } from '../../shared/protocol/transcript';
import type { App } from '../app';
import type { ConversationService } from './conversationService';

export function registerTranscript(app: App, svc: ConversationService): void {
  app.rpc.handle(transcriptRead, (p) => {
    const row = svc.resolve(p.conv);
    const limit = p.limit ?? TRANSCRIPT_READ_DEFAULT;
    const lastSeq = svc.transcript.lastSeq(row.id);
    if (p.afterSeq !== undefined) {
      const rows = svc.transcript.after(row.id, p.afterSeq, limit);
      return { conv: row.id, rows, lastSeq, truncated: rows.length > 0 && rows[rows.length - 1].seq < lastSeq };
    }
    const rows = svc.transcript.tail(row.id, limit);
    return { conv: row.id, rows, lastSeq, truncated: rows.length > 0 && rows[0].seq > 1 };
  });
}
