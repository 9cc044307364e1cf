// The reasons lanes on other hosts (ssh, svc's helper there) refuse with. Messages:
// server/hosts/hostRefusals.ts.
export const HOST_REFUSALS = [
  'unknownHost',
  'sshMissing',
  'sshFailed',
  'hostKeyUnknown',
  'hostKeyChanged',
  'loginRefused',
  'hostUnreachable',
  'controlDirUnsafe',
  'probeFailed',
  'hostProbeFailed',
  'hostNoNode',
  'hostCopyFailed',
  'hostFetchFailed',
  'hostOpFailed',
  // Said by svc's helper on the host
  'lanesRootMissing',
  'lanesRootOutsideHome',
  'outsideLanesRoot',
  'reuseDirGone',
  'branchExists',
  'startNotOnOrigin',
] as const;
export type HostRefusal = (typeof HOST_REFUSALS)[number];
