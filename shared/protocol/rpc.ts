// Typed request/notification definitions shared by the daemon, the shim and the
// extension. Who must stay in sync: every file in shared/protocol/ and docs/protocol.md
// (a unit test fails when a method is missing from the doc).
import type { z } from 'zod';

export interface RequestDef<P extends z.ZodType, R extends z.ZodType, M extends string = string> {
  readonly kind: 'request';
  readonly method: M;
  readonly params: P;
  readonly result: R;
}

export interface NotificationDef<P extends z.ZodType, M extends string = string> {
  readonly kind: 'notification';
  readonly method: M;
  readonly params: P;
}

export function request<M extends string, P extends z.ZodType, R extends z.ZodType>(
  method: M,
  params: P,
  result: R,
): RequestDef<P, R, M> {
  return { kind: 'request', method, params, result };
}

export function notification<M extends string, P extends z.ZodType>(method: M, params: P): NotificationDef<P, M> {
  return { kind: 'notification', method, params };
}

/** The params an agent's shim adds to every request: its conversation ($SVC_CONVERSATION)
 *  and that conversation's credential ($SVC_CALLER_TOKEN). The daemon takes both off before
 *  the method's params are checked and resolves the caller from them (server/authority). */
export const CALLER_CONVERSATION_PARAM = 'callerConversation';
export const CALLER_TOKEN_PARAM = 'callerToken';
