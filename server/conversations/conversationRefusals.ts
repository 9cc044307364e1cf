// Every refusal of conversations, each message made here and nowhere else (docs/style.md §16). Reasons:
// shared/refusals/conversations.ts; the extension offers Resume on `notRunning` and Stop
// on `stillRunning`, matched by reason.
import { refusalsOf } from '../../shared/errors';
import type { SvcError } from '../../shared/errors';
import { CONVERSATION_REFUSALS } from '../../shared/refusals/conversations';

const { usage, notFound, refused, conflict } = refusalsOf(CONVERSATION_REFUSALS);

/** A conversation as the refusals name it: `#id (name)`. */
interface ConvRef {
  id: number;
  name: string;
}
const shown = (c: ConvRef) => `#${c.id} (${c.name})`;

// ---- Names, lookups, creating

export function badNameError(name: string, why: 'pattern' | 'digits' | 'prefix', pattern: RegExp): SvcError<'badName'> {
  const rule = {
    pattern: `must match ${pattern.source}`,
    digits: 'must not be all digits (that reads as an id)',
    prefix: "must not start with 'conv-' (that prefix is how names are referenced)",
  }[why];
  return usage('badName', `conversation name '${name}' ${rule}`);
}

/** `ref` as the caller gave it (`#3`, a name, `conv-<name>`), or an id svc looked up itself. */
export function unknownConversationError(ref: string | number): SvcError<'unknownConversation'> {
  return notFound(
    'unknownConversation',
    typeof ref === 'number'
      ? `no conversation #${ref}`
      : `no conversation '${ref}' (give #id, id, name or conv-<name>; see svc conv list)`,
  );
}

export function nameTakenError(name: string, takenBy: number): SvcError<'nameTaken'> {
  return conflict('nameTaken', `conversation name '${name}' is taken by #${takenBy}`);
}

export function noCwdError(): SvcError<'noCwd'> {
  return usage('noCwd', 'svc conv new needs --project <key> or --cwd <dir>');
}

export function badCwdError(cwd: string): SvcError<'badCwd'> {
  return usage('badCwd', `working directory ${cwd} is not a folder`);
}

export function badLinesError(raw: string | null): SvcError<'badLines'> {
  return usage('badLines', `lines must be a whole number from 1 to 100000, got '${raw}'`);
}

export function noSourceError(mode: 'handoff' | 'fork'): SvcError<'noSource'> {
  return usage(
    'noSource',
    `svc ${mode} needs <conv> (or run it inside an agent, where $SVC_CONVERSATION names the source)`,
  );
}

/** `hasToken`: the request carried a credential, of another conversation. */
export function callerNotProvenError(conv: ConvRef, hasToken: boolean): SvcError<'callerNotProven'> {
  const what = hasToken
    ? 'carries the credential of another conversation'
    : 'carries no credential ($SVC_CALLER_TOKEN)';
  return refused(
    'callerNotProven',
    `this request says it comes from conversation ${shown(conv)} ($SVC_CONVERSATION) but ${what}; an agent acts only as itself: run svc inside that agent, or as yourself without SVC_CONVERSATION`,
  );
}

// ---- Running, telling, archiving

export function alreadyRunningError(conv: ConvRef): SvcError<'alreadyRunning'> {
  return conflict('alreadyRunning', `conversation ${shown(conv)} is already running`);
}

/** `activity`: what the conversation is instead (ended, failed-to-start, …). */
export function notRunningError(conv: ConvRef, activity: string): SvcError<'notRunning'> {
  return conflict(
    'notRunning',
    `conversation ${shown(conv)} is not running (${activity}); resume it with svc conv resume #${conv.id}`,
  );
}

export function stillRunningError(conv: ConvRef): SvcError<'stillRunning'> {
  return conflict(
    'stillRunning',
    `conversation ${shown(conv)} is still running; stop it first (svc conv stop #${conv.id})`,
  );
}

/** The stop door could not ask the agent's host (`why`: the SSH refusal); the stop reaches it when svc reconnects (its EOF is queued). */
export function hostNotAskedError(conv: ConvRef, host: string, why: string): SvcError<'hostNotAsked'> {
  return refused(
    'hostNotAsked',
    `could not stop ${shown(conv)} on host ${host}: ${why}; it keeps running there under svc's relay until svc reconnects and the stop reaches it`,
  );
}

// ---- Asks: answering an agent's open request

/** The one text of this refusal (the service, the panel and svc answer say the same). */
export function noOpenAskError(conv: ConvRef): SvcError<'noOpenAsk'> {
  return conflict('noOpenAsk', `conversation ${shown(conv)} has no open request to answer`);
}
