// Codicons for activities and verdicts, with theme colour ids (never literal colours).
// Shared by the Command Deck, the Reviews tree and the Awareness rail's lane list.
import type { Activity } from '../../shared/activity';

export interface DeckIcon {
  /** A codicon id, with `~spin` where it animates. */
  id: string;
  /** A theme colour id, never a literal colour. */
  color?: string;
}

const ACTIVITY_ICONS: Record<Activity, DeckIcon> = {
  'needs-you': { id: 'bell-dot', color: 'list.warningForeground' },
  working: { id: 'sync~spin' },
  idle: { id: 'circle-large-outline' },
  starting: { id: 'loading~spin' },
  stopped: { id: 'circle-slash', color: 'disabledForeground' },
  'failed-to-start': { id: 'error', color: 'list.errorForeground' },
};

export function activityIcon(a: Activity): DeckIcon {
  return ACTIVITY_ICONS[a];
}

/** Lane verdicts (WOWED … DEFECTS) and review verdicts (APPROVED, CHANGES_REQUESTED, FAILED). */
export function verdictIcon(verdict: string): DeckIcon {
  switch (verdict) {
    case 'WOWED':
    case 'IMPRESSED':
    case 'PASS':
    case 'APPROVED':
      return { id: 'pass', color: 'testing.iconPassed' };
    case 'NOT_YET':
    case 'CHANGES_REQUESTED':
      return { id: 'warning', color: 'list.warningForeground' };
    default:
      return { id: 'error', color: 'testing.iconFailed' };
  }
}
