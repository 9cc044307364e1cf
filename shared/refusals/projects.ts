// The reasons `svc project add` refuses with. Messages: server/projects/projectRefusals.ts.
export const PROJECT_REFUSALS = [
  'badPath',
  'projectExists',
  'checkoutRegistered',
  'badDefaultBranch',
  'notACheckout',
] as const;
export type ProjectRefusal = (typeof PROJECT_REFUSALS)[number];
