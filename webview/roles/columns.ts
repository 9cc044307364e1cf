// The Roles panel's table columns, apart from the page that draws them: the README's Roles
// screenshot records them (scripts/demo/screenshotUi.ts), so a column added or renamed
// makes that screenshot stale.

/** The review convoy's lanes. */
export const CONVOY_COLUMNS = ['Convoy lane', 'Model', 'Harness'];

/** A project's gauntlet roles. */
export const ROLE_COLUMNS = [
  'Gauntlet role',
  'Model',
  'Effort',
  'Harness',
  'Approvals',
  'Host',
  'Sandbox',
  'Budget (USD)',
];
