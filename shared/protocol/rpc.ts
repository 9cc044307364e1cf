// Typed request/notification definitions shared by the daemon, the shim and the
// extension. Who must stay in sync: every file in shared/protocol/ and docs/protocol.md
// (a unit test fails when a method is missing from the doc).
import type { z } from 'zod';

export interface RequestDef<P extends z.ZodType, R extends z.ZodType> {
  readonly kind: 'request';
  readonly method: string;
  readonly params: P;
  readonly result: R;
}

export interface NotificationDef<P extends z.ZodType> {
  readonly kind: 'notification';
  readonly method: string;
  readonly params: P;
}

export function request<P extends z.ZodType, R extends z.ZodType>(method: string, params: P, result: R): RequestDef<P, R> {
  return { kind: 'request', method, params, result };
}

export function notification<P extends z.ZodType>(method: string, params: P): NotificationDef<P> {
  return { kind: 'notification', method, params };
}

export type ParamsOf<D> = D extends RequestDef<infer P, z.ZodType> ? z.input<P> : D extends NotificationDef<infer P> ? z.input<P> : never;
export type ResultOf<D> = D extends RequestDef<z.ZodType, infer R> ? z.output<R> : never;

/** The param an agent's shim adds to every request that names a `caller`: that
 *  conversation's credential ($SVC_CALLER_TOKEN), taken off before the method's params
 *  are checked (server/conversations/callerCredential.ts). */
export const CALLER_TOKEN_PARAM = 'callerToken';
