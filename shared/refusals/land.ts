// The reasons `svc lane land` (and the project checks it runs) refuses with.
// Messages: server/land/landRefusals.ts.
export const LAND_REFUSALS = [
  'landNotABuilder',
  'landNoDoneReport',
  'landNoChecksSandbox',
  'landConflict',
  'landCheckFailed',
  'landBaseMoved',
  'landInterrupted',
  'landPrNotReady',
  'landFailed',
] as const;
export type LandRefusal = (typeof LAND_REFUSALS)[number];
