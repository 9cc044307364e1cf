// Store tables of notify (ids 400–419): the outbox of events for the targets of config.yaml
// `notify:`. One row per (target, inbox item as it began to wait); the unique key is what
// makes each event enqueued once, across restarts. Rows are kept after delivery (the
// dedupe needs them) and pruned once old and their item no longer waits (outbox.ts).
import type { Migration } from '../store/migrations';

export const notifyMigrations: readonly Migration[] = [
  {
    id: 400,
    name: 'notify_outbox',
    sql: `
    CREATE TABLE notify_outbox (
      id INTEGER PRIMARY KEY,
      target TEXT NOT NULL,
      -- the inbox item's id and when it began to wait: ask-12@1764670000000
      event_key TEXT NOT NULL,
      kind TEXT NOT NULL,
      -- the inbox item as noticed (JSON); the target's body is built from it at each attempt
      item TEXT NOT NULL,
      -- pending (not yet acknowledged), sent (the target answered 2xx), given-up
      state TEXT NOT NULL CHECK (state IN ('pending', 'sent', 'given-up')),
      attempts INTEGER NOT NULL DEFAULT 0,
      next_at INTEGER NOT NULL,
      last_error TEXT,
      created_at INTEGER NOT NULL,
      done_at INTEGER,
      UNIQUE (target, event_key)
    );
    CREATE INDEX notify_outbox_due ON notify_outbox (state, next_at);`,
  },
];
