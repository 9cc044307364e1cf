// The reasons the daemon refuses a caller that may not do what it asked (kind 'refused':
// exit 1 from the shim, 409 over HTTP). Messages: server/authority/authorityRefusals.ts.
export const AUTHORITY_REFUSALS = ['personOnly', 'notInLineage', 'notOwnRole', 'callerMismatch'] as const;
export type AuthorityRefusal = (typeof AUTHORITY_REFUSALS)[number];
