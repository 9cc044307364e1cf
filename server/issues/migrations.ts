// Store tables of issues (ids 350–399 belong to issues and the review pipeline). No review
// status is stored: runs, verdicts and the rest live in each workspace's pipeline journal
// and on the code host.
import type { Migration } from '../store/migrations';

export const issueMigrations: readonly Migration[] = [
  {
    id: 350,
    name: 'issues',
    sql: `
    CREATE TABLE issues (
      id TEXT PRIMARY KEY,
      project TEXT NOT NULL,
      number INTEGER NOT NULL,
      title TEXT NOT NULL,
      body TEXT NOT NULL DEFAULT '',
      branch TEXT NOT NULL,
      workspace TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      UNIQUE (project, number)
    );
    CREATE UNIQUE INDEX issues_by_branch ON issues (project, branch);
    -- an issue's identity, branch and workspace are written once
    CREATE TRIGGER issues_write_once BEFORE UPDATE OF id, project, number, branch, workspace ON issues
    BEGIN SELECT RAISE(ABORT, 'an issue keeps its id, branch and workspace'); END;`,
  },
];
