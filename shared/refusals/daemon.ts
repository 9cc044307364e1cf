// The reasons of the daemon itself, and of a client that answers for the daemon. Messages:
// server/daemon/daemonRefusals.ts (the shim's: cli/shimRefusals.ts).
export const DAEMON_REFUSALS = [
  'clockFixed',
  // Said by a client: an error answer without a reason it knows, and the shim's own refusals
  'rpc',
  'liveAgents',
  'unknownProject',
  // svc install-cli / uninstall-cli: a file of svc's name that is not its launcher, a folder outside home
  'cliLinkTaken',
  'cliLinkOutsideHome',
  // svc inbox answer: no such item waiting, or an answer its kind does not take
  'noInboxItem',
  'inboxAnswerKind',
] as const;
export type DaemonRefusalReason = (typeof DAEMON_REFUSALS)[number];
