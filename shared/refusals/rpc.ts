// The reasons the daemon's JSON-RPC server answers with before (or instead of) a method's
// own. Messages: server/rpc/rpcRefusals.ts.
export const RPC_REFUSALS = ['unknownMethod', 'badParams', 'internal', 'diskFull'] as const;
export type RpcRefusalReason = (typeof RPC_REFUSALS)[number];
