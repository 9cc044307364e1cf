// Landings (`svc lane land`): one row per landing, its state moved on as it runs, so a
// daemon killed mid-landing finds it at start (recover.ts) and the run record shows it.
import type { Migration } from '../store/migrations';

export const landMigrations: readonly Migration[] = [
  {
    id: 420,
    name: 'landings',
    sql: `
      CREATE TABLE landings (
        id INTEGER PRIMARY KEY,
        project TEXT NOT NULL,
        base TEXT NOT NULL,
        lane_id INTEGER NOT NULL REFERENCES conversations(id),
        head_sha TEXT NOT NULL,
        method TEXT NOT NULL CHECK (method IN ('merge','rebase','squash')),
        state TEXT NOT NULL CHECK (state IN ('queued','running','landed','refused','failed')),
        base_sha TEXT,
        landed_sha TEXT,
        reason TEXT,
        message TEXT,
        checks TEXT NOT NULL DEFAULT '[]',
        queued_at INTEGER NOT NULL,
        ended_at INTEGER
      );
      CREATE INDEX landings_by_base ON landings (project, base, state, id);
      CREATE INDEX landings_by_lane ON landings (lane_id);
    `,
  },
  {
    // The GitHub PR a landing goes through (code_host github): a restart after a kill asks
    // it whether it merged. 425, not 421: the numbers between are left for #44's other parts.
    id: 425,
    name: 'landings_pr',
    sql: `ALTER TABLE landings ADD COLUMN pr INTEGER;`,
  },
];
