// The JSON-RPC server's own error answers (a method's refusals are its feature's), each
// message made here and nowhere else (docs/style.md §16). Reasons: shared/refusals/rpc.ts.
import { RpcErrorCode } from '../../shared/errors';
import type { SvcErrorBody } from '../../shared/errors';
import type { RpcRefusalReason } from '../../shared/refusals/rpc';

/** A JSON-RPC error answer: its code and `data`, whose `error` is also the message. */
export interface RpcRefusal {
  code: number;
  body: SvcErrorBody & { reason: RpcRefusalReason };
}

export const rpcRefusals = {
  unknownMethod: (method: string): RpcRefusal => ({
    code: -32601,
    body: { error: `unknown method '${method}'`, reason: 'unknownMethod' },
  }),
  badParams: (method: string, detail: string): RpcRefusal => ({
    code: RpcErrorCode.usage,
    body: { error: `bad params for ${method}: ${detail}`, reason: 'badParams' },
  }),
  diskFull: (method: string, why: string): RpcRefusal => ({
    code: RpcErrorCode.conflict,
    body: {
      error: `${method} refused: the disk is full (${why}); the command was not carried out, or only its first steps were, which svc records once there is space. Free space on the disk of SVC_HOME and the lanes, then run it again`,
      reason: 'diskFull',
    },
  }),
  internal: (method: string, why: string): RpcRefusal => ({
    code: RpcErrorCode.internal,
    body: { error: `internal error in ${method}: ${why} (see svc daemon log)`, reason: 'internal' },
  }),
};
