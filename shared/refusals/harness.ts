// The reasons a harness refuses with: an answer that does not fit the agent's open request,
// and a profile that does not exist or cannot run. Messages: server/harness/harnessRefusals.ts.
export const HARNESS_REFUSALS = ['badAnswer', 'askNotReady', 'unknownHarness', 'harnessWithoutCommand'] as const;
export type HarnessRefusal = (typeof HARNESS_REFUSALS)[number];
