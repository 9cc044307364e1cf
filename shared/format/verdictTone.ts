// Which of svc's three verdict colours a verdict takes: lane verdicts (WOWED … DEFECTS) and
// review verdicts (APPROVED, CHANGES_REQUESTED, FAILED). The trees colour icons and badges
// by it, the pages their verdict pills, so PASS looks the same everywhere. Pure.

export type VerdictTone = 'pass' | 'notYet' | 'fail';

const PASSING = new Set(['WOWED', 'IMPRESSED', 'PASS', 'APPROVED']);
const MORE_WORK = new Set(['NOT_YET', 'CHANGES_REQUESTED']);

export function verdictTone(verdict: string): VerdictTone {
  return PASSING.has(verdict) ? 'pass' : MORE_WORK.has(verdict) ? 'notYet' : 'fail';
}

/** The theme colour ids (package.json contributes.colors); a page reads each as `--vscode-svc-verdict.<tone>`
 * (VS Code turns only the first dot of a colour id into a dash; in CSS the dot is escaped). */
export const VERDICT_COLORS: Record<VerdictTone, string> = {
  pass: 'svc.verdict.pass',
  notYet: 'svc.verdict.notYet',
  fail: 'svc.verdict.fail',
};
