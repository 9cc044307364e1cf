// Domain errors. The daemon throws these; the RPC and HTTP layers turn them into
// typed wire errors; the shim and the extension print `message` as is. Keep each
// spec refusal message produced in exactly one place (the throwing site).

/** Wire form of every refusal, on JSON-RPC (`ResponseError.data`) and HTTP (body). */
export interface SvcErrorBody {
  error: string;
  reason: string;
}

export type ErrorKind =
  | 'usage' // bad params, bad flags, wrong shape
  | 'notFound'
  | 'refused' // a rule of the spec said no
  | 'conflict' // state does not allow it right now
  | 'internal';

export class SvcError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = 'SvcError';
  }

  static is(e: unknown, reason?: string): e is SvcError {
    return e instanceof SvcError && (reason === undefined || e.reason === reason);
  }

  toBody(): SvcErrorBody {
    return { error: this.message, reason: this.reason };
  }
}

export function usageError(reason: string, message: string): SvcError {
  return new SvcError('usage', reason, message);
}
export function notFound(reason: string, message: string): SvcError {
  return new SvcError('notFound', reason, message);
}
export function refused(reason: string, message: string): SvcError {
  return new SvcError('refused', reason, message);
}
export function conflict(reason: string, message: string): SvcError {
  return new SvcError('conflict', reason, message);
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
