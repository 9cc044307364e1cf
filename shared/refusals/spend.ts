// The reasons spend caps refuse with (a tell to a lane stopped at its cap, a launch past a
// reached cap, who may set a cap). Messages: server/lanes/spendRefusals.ts.
export const SPEND_REFUSALS = ['spendHeld', 'spendAtLaunch', 'budgetNotAllowed', 'budgetTarget', 'noSuchRun'] as const;
export type SpendRefusal = (typeof SPEND_REFUSALS)[number];
