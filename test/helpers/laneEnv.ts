// The environment a test uses to act as a conversation's agent: what the daemon gives
// that agent (its SVC_CONVERSATION).
import type { Scratch } from './scratch';

export function laneEnv(_s: Scratch, conv: { id: number }): NodeJS.ProcessEnv {
  return { SVC_CONVERSATION: String(conv.id) };
}
