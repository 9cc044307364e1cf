// The reasons `svc lane land` and `svc lane pick` (and the project checks they run) refuse with.
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
  'pickNoSuchRun',
  'pickNotAllowed',
] as const;
export type LandRefusal = (typeof LAND_REFUSALS)[number];
