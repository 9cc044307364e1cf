// What the flow pre-selects from the selected Command Deck row.
import { ROLES } from '../../../shared/config';
import { canLaunch } from '../../commandDeck/deckModel';
import type { DeckRow } from '../../commandDeck/deckModel';
import type { Role } from './flowTypes';

/** Roles a launcher may start (docs/spec.md: Launch rules): a root anything, an orchestrator lane builders, verifiers and plays. */
export function rolesFor(launcher: DeckRow): Role[] {
  return launcher.role === 'orchestrator' ? ['builder', 'verifier', 'play'] : [...ROLES];
}

export function defaultLauncher(selected: DeckRow | undefined, rows: readonly DeckRow[]): DeckRow | undefined {
  if (!selected) return undefined;
  if (canLaunch(selected)) return selected;
  const parent = rows.find((r) => r.id === selected.parentId);
  return parent && canLaunch(parent) ? parent : undefined;
}

export function defaultRole(selected: DeckRow | undefined): Role {
  if (selected?.role === 'builder') return 'critic';
  return 'builder';
}
