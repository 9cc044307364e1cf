// The reasons `svc lane report` refuses with. Messages: server/lanes/reportRefusals.ts.
export const REPORT_REFUSALS = [
  'notInsideALane',
  'badVerdictFile',
  'blockedBody',
  'verdictOnRole',
  'verdictOnBlocked',
  'verdictRequired',
  'secondVerdict',
  'noWorktree',
  'dirtyTree',
  'detachedBuilder',
  'unpushed',
] as const;
export type ReportRefusal = (typeof REPORT_REFUSALS)[number];
