// conversations/stoppedByDaemon and conversations/resumeStoppedByDaemon: the agents the
// daemon ended (daemonStops.ts), listed and resumed all at once. Only a person may resume
// them in bulk (authority table): the set spans every lineage.
import { SvcError } from '../../shared/errors';
import {
  conversationsResumeStoppedByDaemon,
  conversationsStoppedByDaemon,
} from '../../shared/protocol/stoppedByDaemon';
import type { App } from '../app';
import type { ConversationService } from './conversationService';

/** `startWaitMs`: how long each resumed agent is waited for, as conversations/resume waits. */
export function registerStoppedByDaemon(app: App, svc: ConversationService, startWaitMs: number): void {
  app.rpc.handle(conversationsStoppedByDaemon, () => ({
    conversations: svc.stoppedByDaemon().map((s) => ({
      conversation: svc.info(s.row),
      at: s.at,
      how: s.how,
      ask: s.ask ? { kind: s.ask.kind, title: s.ask.title } : null,
    })),
  }));

  app.rpc.handle(conversationsResumeStoppedByDaemon, async (p, ctx) => {
    const refused: { conversation: ReturnType<ConversationService['info']>; reason: string; message: string }[] = [];
    const started: { id: number; askAgain: { kind: string; title: string } | null }[] = [];
    for (const s of svc.stoppedByDaemon()) {
      try {
        svc.resume(s.row.id);
        started.push({ id: s.row.id, askAgain: s.ask ? { kind: s.ask.kind, title: s.ask.title } : null });
      } catch (e) {
        if (!SvcError.is(e)) throw e;
        const reason: string = e.reason;
        refused.push({ conversation: svc.info(svc.get(s.row.id)!), reason, message: e.message });
      }
    }
    // Started together, waited for together: ten agents take as long as the slowest one.
    const resumed = await Promise.all(
      started.map(async ({ id, askAgain }) => {
        const outcome = p.noWait ? ('notWaited' as const) : await svc.waitStarted(id, startWaitMs, ctx.signal);
        return { conversation: svc.info(svc.get(id)!), outcome, askAgain };
      }),
    );
    return { resumed, refused };
  });
}
