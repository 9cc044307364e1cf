// Conversations and their transcripts. No activity is stored: it is computed on every
// read from the row plus the live harness facts held in memory (shared/activity.ts).
import type { Migration } from '../store/migrations';

export const conversationMigrations: readonly Migration[] = [
  {
    id: 101,
    name: 'conversations',
    sql: `
      CREATE TABLE conversations (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL UNIQUE,
        title TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('root','lane','successor','agent')),
        parent_id INTEGER REFERENCES conversations(id),
        project TEXT,
        cwd TEXT NOT NULL,
        harness TEXT NOT NULL,
        model TEXT NOT NULL,
        effort TEXT,
        issue_id TEXT,
        bare INTEGER NOT NULL DEFAULT 0,
        extra_env TEXT,
        first_prompt TEXT NOT NULL,
        session_id TEXT,
        created_at INTEGER NOT NULL,
        started_at INTEGER,
        ended_at INTEGER,
        exit_status TEXT,
        spawn_error TEXT,
        archived_at INTEGER,
        cost_amount REAL,
        cost_currency TEXT,
        context_used INTEGER,
        context_size INTEGER
      );
      CREATE INDEX conversations_by_parent ON conversations (parent_id);
      CREATE INDEX conversations_by_issue ON conversations (issue_id);
    `,
  },
  {
    id: 102,
    name: 'transcript',
    sql: `
      CREATE TABLE transcript (
        conv_id INTEGER NOT NULL REFERENCES conversations(id),
        seq INTEGER NOT NULL,
        at INTEGER NOT NULL,
        kind TEXT NOT NULL,
        payload TEXT NOT NULL,
        PRIMARY KEY (conv_id, seq)
      ) WITHOUT ROWID;
    `,
  },
  {
    // A role's permission policy (gauntlet.roles.<role>.permissions), fixed at launch.
    id: 103,
    name: 'conversation permissions',
    sql: `ALTER TABLE conversations ADD COLUMN permissions TEXT;`,
  },
  {
    // The host (config.yaml hosts.<name>) its agent runs on over SSH; null: this machine. Fixed at launch.
    id: 109,
    name: 'conversation host',
    sql: `ALTER TABLE conversations ADD COLUMN host TEXT;`,
  },
  {
    // A lane's sandbox (workspace or off), fixed at launch; null: not a lane (runs as the person).
    id: 112,
    name: 'conversation sandbox',
    sql: `ALTER TABLE conversations ADD COLUMN sandbox TEXT;`,
  },
  {
    // The conversations the daemon ended by stopping (or left to its successor by crashing),
    // for `svc conv resume --all-stopped-by-daemon`; `ask` is the request the stop withdrew
    // (daemonStops.ts). In the range 460–479 given to this change.
    id: 460,
    name: 'conversations stopped by the daemon',
    sql: `
      CREATE TABLE daemon_stopped (
        conv_id INTEGER PRIMARY KEY REFERENCES conversations(id),
        at INTEGER NOT NULL,
        how TEXT NOT NULL CHECK (how IN ('stopped','restarted')),
        ask TEXT
      );
    `,
  },
];
