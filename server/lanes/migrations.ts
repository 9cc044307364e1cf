// Lanes and the worker report store. The four launch facts (parent, run, key, role) and
// the judged row are written once: triggers refuse any UPDATE of them. No lane status,
// no run table: activity is computed on every read.
import type { Migration } from '../store/migrations';

export const laneMigrations: readonly Migration[] = [
  {
    id: 201,
    name: 'lanes',
    sql: `
      CREATE TABLE lanes (
        conv_id INTEGER PRIMARY KEY REFERENCES conversations(id),
        project TEXT NOT NULL,
        run_key TEXT NOT NULL,
        lane_key TEXT NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('builder','critic','verifier','play','orchestrator')),
        iteration INTEGER NOT NULL,
        respawn INTEGER NOT NULL DEFAULT 0,
        judged_key TEXT,
        judged_iteration INTEGER,
        git_backed INTEGER NOT NULL,
        branch TEXT,
        dir TEXT NOT NULL,
        lanes_root TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX lanes_by_run ON lanes (run_key, lane_key, role);
      CREATE TRIGGER lanes_launch_facts_write_once
        BEFORE UPDATE OF conv_id, run_key, lane_key, role, iteration, judged_key, judged_iteration ON lanes
        BEGIN SELECT RAISE(ABORT, 'lane launch facts are written once'); END;
      CREATE TRIGGER lanes_parent_write_once
        BEFORE UPDATE OF parent_id ON conversations
        WHEN EXISTS (SELECT 1 FROM lanes WHERE conv_id = OLD.id) AND OLD.parent_id IS NOT NEW.parent_id
        BEGIN SELECT RAISE(ABORT, 'a lane''s parent is written once'); END;
    `,
  },
  {
    id: 202,
    name: 'reports',
    sql: `
      CREATE TABLE reports (
        id INTEGER PRIMARY KEY,
        store_key TEXT NOT NULL,
        conv_id INTEGER NOT NULL REFERENCES conversations(id),
        seq INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('done','blocked','failed')),
        body TEXT NOT NULL,
        verdict TEXT,
        defects INTEGER,
        verdict_file TEXT,
        head_sha TEXT,
        branch TEXT,
        created_at INTEGER NOT NULL,
        UNIQUE (conv_id, seq)
      );
      CREATE INDEX reports_by_key ON reports (store_key, seq);
    `,
  },
  {
    id: 203,
    name: 'lanes reaped',
    sql: `ALTER TABLE lanes ADD COLUMN reaped_at INTEGER;`,
  },
  {
    // The shim's per-invocation key: a report retried after a dropped connection is
    // answered with the report already stored, never filed twice.
    id: 204,
    name: 'report request ids',
    sql: `
      ALTER TABLE reports ADD COLUMN request_id TEXT;
      CREATE UNIQUE INDEX reports_by_request ON reports (conv_id, request_id) WHERE request_id IS NOT NULL;
    `,
  },
  {
    // Spend caps: a lane's own cap (`--budget`, or raised by `svc lane budget`; null: the
    // role's default applies) and when it was last set, so a cap reached files one SPEND
    // report per setting; a run's raised cap; and the commit a lane started at, so the run
    // record can show each builder iteration's diff against it.
    id: 230,
    name: 'spend caps and start points',
    sql: `
      ALTER TABLE lanes ADD COLUMN budget REAL;
      ALTER TABLE lanes ADD COLUMN budget_set_at INTEGER;
      ALTER TABLE lanes ADD COLUMN start_sha TEXT;
      CREATE TABLE run_budgets (
        project TEXT NOT NULL,
        run_key TEXT NOT NULL,
        cap REAL NOT NULL,
        set_at INTEGER NOT NULL,
        PRIMARY KEY (project, run_key)
      );
    `,
  },
  {
    // Clean worktrees' git answers with what they depended on, so a restarted daemon
    // re-checks them instead of running git status in every lane (server/git/worktreeRecheck.ts).
    id: 250,
    name: 'kept worktree facts',
    sql: `
      CREATE TABLE kept_worktree_facts (
        dir TEXT PRIMARY KEY,
        head TEXT NOT NULL,
        index_digest TEXT NOT NULL,
        dirs TEXT NOT NULL,
        dirs_sig TEXT NOT NULL,
        config_sig TEXT NOT NULL
      );
    `,
  },
];
