// The environment a test uses to act as a conversation's agent: what the daemon gives
// that agent (its SVC_CONVERSATION and the credential its shim presents).
import { CallerCredentials } from '../../server/conversations/callerCredential';
import type { Scratch } from './scratch';

export function laneEnv(s: Scratch, conv: { id: number }): NodeJS.ProcessEnv {
  return { SVC_CONVERSATION: String(conv.id), SVC_CALLER_TOKEN: new CallerCredentials(s.svcHome).tokenFor(conv.id) };
}
