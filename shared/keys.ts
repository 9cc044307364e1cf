// Key patterns of the spec's Limits table, shared by the shim, the daemon and the views.
export const RUN_KEY = /^[a-z0-9][a-z0-9-]{0,31}$/;
export const LANE_KEY = /^[a-z0-9][a-z0-9._-]{0,39}$/;

export const RUN_KEY_RULE =
  'a run key is 1–32 characters: lowercase letters, digits and -, starting with a letter or digit';
export const LANE_KEY_RULE =
  'a lane key is 1–40 characters: lowercase letters, digits, ., _ and -, starting with a letter or digit';

export const VERDICTS = ['WOWED', 'IMPRESSED', 'NOT_YET', 'PASS', 'DEFECTS'] as const;
export type Verdict = (typeof VERDICTS)[number];

export const REPORT_STATUSES = ['done', 'blocked', 'failed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** A blocked report's body starts with one of these words. */
export const BLOCKED_KINDS = ['RULING', 'SPEND', 'ONE-WAY', 'BLOCKED'] as const;
export type BlockedKind = (typeof BLOCKED_KINDS)[number];

const BLOCKED_START = new RegExp(`^\\s*(?:#+\\s*)?(${BLOCKED_KINDS.join('|')})\\b`);

/** The kind a blocked report's body starts with (after blanks and a heading's `#`s); undefined when none. */
export function blockedKindOf(body: string): BlockedKind | undefined {
  return BLOCKED_START.exec(body)?.[1] as BlockedKind | undefined;
}

/** A report svc filed (or an agent filed in the same words) because its lane reached a spend cap. */
export function isSpendReport(r: { status: string; body: string }): boolean {
  return r.status === 'blocked' && blockedKindOf(r.body) === 'SPEND';
}
