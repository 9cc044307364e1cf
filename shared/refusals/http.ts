// The reasons the daemon's HTTP server answers with before (or instead of) a route's own.
// Messages: server/http/httpRefusals.ts.
export const HTTP_REFUSALS = [
  'badHost',
  'unauthorized',
  'noRoute',
  'methodNotAllowed',
  'badPath',
  'bodyTooLarge',
  'busy',
  'badJson',
  'internal',
] as const;
export type HttpRefusalReason = (typeof HTTP_REFUSALS)[number];
