// Codicons for activities and verdicts, with theme colour ids (never literal colours).
// Shared by the Command Deck, the Reviews tree and the Awareness rail's lane list.
import type { Activity } from '../../shared/activity';
import { VERDICT_COLORS, verdictTone } from '../../shared/format/verdictTone';
import type { VerdictTone } from '../../shared/format/verdictTone';

export { VERDICT_COLORS } from '../../shared/format/verdictTone';

export interface DeckIcon {
  /** A codicon id, with `~spin` where it animates. */
  id: string;
  /** A theme colour id, never a literal colour. */
  color?: string;
}

const ACTIVITY_ICONS: Record<Activity, DeckIcon> = {
  'needs-you': { id: 'bell-dot', color: 'list.warningForeground' },
  working: { id: 'sync~spin', color: 'charts.blue' },
  idle: { id: 'circle-large-outline', color: 'charts.green' },
  starting: { id: 'loading~spin', color: 'charts.blue' },
  stopped: { id: 'circle-slash', color: 'disabledForeground' },
  'failed-to-start': { id: 'error', color: 'list.errorForeground' },
};

export function activityIcon(a: Activity): DeckIcon {
  return ACTIVITY_ICONS[a];
}

/** Lane verdicts (WOWED … DEFECTS) and review verdicts (APPROVED, CHANGES_REQUESTED, FAILED). */
export function verdictIcon(verdict: string): DeckIcon {
  // svc's own colours, with high-contrast values: the generic warning and testing colours lost
  // NOT_YET's orange in both high-contrast themes and gave PASS a pale green on white.
  const tone = verdictTone(verdict);
  return { id: VERDICT_CODICONS[tone], color: VERDICT_COLORS[tone] };
}

const VERDICT_CODICONS: Record<VerdictTone, string> = { pass: 'pass', notYet: 'warning', fail: 'error' };

/** A verdict as a badge: the defect count (or ✓ when there are none), in the verdict's colour. */
export interface VerdictBadge {
  /** At most two characters (VS Code's limit for a decoration badge). */
  text: string;
  /** A theme colour id. */
  color: string;
  /** Shown on hover: the verdict in words. */
  tooltip: string;
}

export function verdictBadge(v: { verdict: string; defects?: number }): VerdictBadge {
  const icon = verdictIcon(v.verdict);
  const defects = v.defects ?? 0;
  const text =
    defects > 99 ? '99' : defects > 0 ? String(defects) : icon.id === 'pass' ? '✓' : icon.id === 'warning' ? '!' : '✗';
  const words = v.verdict.replace(/_/g, ' ');
  return {
    text,
    color: icon.color!,
    tooltip: defects > 0 ? `${words}: ${defects} defect${defects === 1 ? '' : 's'}` : words,
  };
}
