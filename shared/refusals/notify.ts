// The reasons `svc notify` refuses with. Messages: server/notify/notifyRefusals.ts.
export const NOTIFY_REFUSALS = ['unknownNotifyTarget'] as const;
export type NotifyRefusal = (typeof NOTIFY_REFUSALS)[number];
