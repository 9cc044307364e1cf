// Domain errors. The daemon throws these; the RPC and HTTP layers turn them into
// typed wire errors; the shim and the extension print `message` as is. Each domain lists
// its reasons in shared/refusals/<domain>.ts and makes its messages in one refusals file
// (server/<domain>/<domain>Refusals.ts, reap's reapErrors.ts), through `refusalsOf`: a
// reason outside the domain's list does not compile, and each message has one home.
import type { SvcReason } from './refusals/reasons';

/** Wire form of every refusal, on JSON-RPC (`ResponseError.data`) and HTTP (body). */
export interface SvcErrorBody {
  error: string;
  reason: SvcReason;
}

export type ErrorKind =
  | 'usage' // bad params, bad flags, wrong shape
  | 'notFound'
  | 'refused' // a rule of the spec said no
  | 'conflict' // state does not allow it right now
  | 'internal';

export class SvcError<R extends SvcReason = SvcReason> extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly reason: R,
    message: string,
  ) {
    super(message);
    this.name = 'SvcError';
  }

  /** Whether `e` is a daemon error (of `reason`, when given: a reason no list holds does not compile). */
  static is<R extends SvcReason = SvcReason>(e: unknown, reason?: R): e is SvcError<R> {
    return e instanceof SvcError && (reason === undefined || e.reason === reason);
  }

  toBody(): SvcErrorBody {
    return { error: this.message, reason: this.reason };
  }
}

/**
 * The error constructors of one domain, each taking only a reason of `reasons` (the
 * domain's list in shared/refusals/; only its type is used). Called once, at the top of
 * the domain's refusals file; the lint forbids it (and `new SvcError`) anywhere else.
 */
export function refusalsOf<R extends SvcReason>(_reasons: readonly R[]) {
  const of =
    (kind: ErrorKind) =>
    <K extends R>(reason: K, message: string): SvcError<K> =>
      new SvcError(kind, reason, message);
  return {
    usage: of('usage'),
    notFound: of('notFound'),
    refused: of('refused'),
    conflict: of('conflict'),
    internal: of('internal'),
  };
}

/** JSON-RPC error codes used by the daemon (application range). */
export const RpcErrorCode = {
  usage: -32602, // same as JSON-RPC invalid params
  notFound: -32004,
  refused: -32003,
  conflict: -32009,
  internal: -32603,
} as const satisfies Record<ErrorKind, number>;

export const HttpStatus: Record<ErrorKind, number> = {
  usage: 400,
  notFound: 404,
  refused: 409,
  conflict: 409,
  internal: 500,
};

export function kindFromRpcCode(code: number): ErrorKind {
  for (const [kind, c] of Object.entries(RpcErrorCode)) if (c === code) return kind as ErrorKind;
  return 'internal';
}

export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
