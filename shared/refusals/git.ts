// The reasons the git runner and ref checks refuse with. Messages: server/git/gitRefusals.ts.
export const GIT_REFUSALS = ['badRef', 'gitFailed', 'plantedLink'] as const;
export type GitRefusal = (typeof GIT_REFUSALS)[number];
