// The reasons the review pipeline refuses with. Messages: server/review/reviewRefusals.ts.
export const REVIEW_REFUSALS = [
  'noReviewModel',
  'noReviewHarness',
  'reportTooLarge',
  'badVerdictHeading',
  'approveOverInvalidReport',
  'badReportSections',
  'noPr',
  'headMissing',
  'dispatchFailed',
  'noReview',
  'noAiReview',
  'alreadyPosted',
  'notFull',
  'unknownRun',
  'notAReviewer',
  'issueRequired',
  'runAborted',
  'runSuperseded',
  'noReport',
] as const;
export type ReviewRefusal = (typeof REVIEW_REFUSALS)[number];
