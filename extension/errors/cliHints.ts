// The daemon's sentences are written for the terminal and end with the command that
// helps (`; resume it with svc conv resume #3`, `; svc tell --force to message it anyway`,
// `(svc conv resume continues it)`). The window offers that remedy as a button or says it
// in words, so it shows the sentence without the command. Pure (no vscode).
import type { DaemonRefusal } from '../../shared/client/daemonRefusal';
import type { SvcReason } from '../../shared/refusals/reasons';

/** `s` without a trailing clause or a parenthesis that names an `svc` command. */
export function withoutCliHint(s: string): string {
  return s
    .replace(/\s*\((?:see |run |with )?svc [a-z][^)]*\)/gi, '')
    .replace(/[;:]\s*[^;:]*\bsvc [a-z][^;]*$/i, '')
    .trim();
}

/** The refusals whose remedy the window can run on the conversation they name, by reason (the daemon's union: a misspelt reason does not compile). */
const CONVERSATION_REMEDIES: Partial<Record<SvcReason, { button: string; command: string }>> = {
  notRunning: { button: 'Resume', command: 'svc.resumeConversation' },
  stillRunning: { button: 'Stop It', command: 'svc.stopConversation' },
};

/**
 * A refusal whose remedy the window can run: the daemon's sentence without its CLI hint
 * (`resume it with svc conv resume #3`), and the remedy as a button.
 */
export function refusalFix(
  e: DaemonRefusal,
): { message: string; button: string; command: string; args: unknown[] } | undefined {
  const remedy = CONVERSATION_REMEDIES[e.reason];
  const conv = /#(\d+)/.exec(e.message)?.[1];
  if (!remedy || !conv) return undefined;
  return { message: `${withoutCliHint(e.message)}.`, ...remedy, args: [Number(conv)] };
}
