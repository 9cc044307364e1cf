// The reasons `svc run export` refuses with. Messages: server/runRecord/runRecordRefusals.ts.
export const RUN_RECORD_REFUSALS = ['runNotFound', 'runInSeveralProjects'] as const;
export type RunRecordRefusal = (typeof RUN_RECORD_REFUSALS)[number];
