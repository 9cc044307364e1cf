// The Agents page's columns, apart from the table that draws them: the README's Agents
// screenshot records them (scripts/demo/screenshotUi.ts), so a column added or renamed
// makes that screenshot stale.
import type { SortKey } from '../../shared/webview/agentsMessages';

export const COLUMNS: { key: SortKey; label: string }[] = [
  { key: 'name', label: 'Agent' },
  { key: 'role', label: 'Role' },
  { key: 'alive', label: 'Alive' },
  { key: 'activity', label: 'Activity' },
  { key: 'model', label: 'Model' },
  { key: 'harness', label: 'Harness' },
  { key: 'cost', label: 'Cost' },
  { key: 'issue', label: 'Issue' },
];
