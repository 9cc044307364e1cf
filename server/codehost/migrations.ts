// Store tables of the code hosts: the local host's PRs, reviews, comments and commit
// statuses, and the GitHub webhook deliveries already handled (replays are dropped).
// Ids 301–319 belong to the code host; issues and the review pipeline take 320 and up.
import type { Migration } from '../store/migrations';

export const codeHostMigrations: readonly Migration[] = [
  {
    id: 301,
    name: 'codehost: pull_requests',
    sql: `
      CREATE TABLE pull_requests (
        id INTEGER PRIMARY KEY,
        project TEXT NOT NULL,
        number INTEGER NOT NULL,
        title TEXT NOT NULL,
        body TEXT NOT NULL DEFAULT '',
        head_branch TEXT NOT NULL,
        base_branch TEXT NOT NULL,
        author TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('open', 'closed', 'merged')),
        draft INTEGER NOT NULL DEFAULT 0,
        -- the head last seen on the remote, so a head change is reported once with before/after
        last_head_sha TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        merged_at INTEGER,
        merge_sha TEXT,
        merged_head_sha TEXT,
        UNIQUE (project, number)
      );
      CREATE UNIQUE INDEX pull_requests_one_open_per_branch ON pull_requests (project, head_branch) WHERE state = 'open';`,
  },
  {
    id: 302,
    name: 'codehost: pr_reviews',
    sql: `
      CREATE TABLE pr_reviews (
        id INTEGER PRIMARY KEY,
        pr_id INTEGER NOT NULL REFERENCES pull_requests (id),
        author TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('APPROVED', 'CHANGES_REQUESTED', 'COMMENTED', 'DISMISSED')),
        body TEXT NOT NULL,
        commit_id TEXT NOT NULL,
        submitted_at INTEGER NOT NULL
      );
      CREATE INDEX pr_reviews_pr ON pr_reviews (pr_id, id);
      -- a review stays pinned to the commit it read and to who wrote it
      CREATE TRIGGER pr_reviews_pinned BEFORE UPDATE OF pr_id, author, commit_id, submitted_at ON pr_reviews
      BEGIN SELECT RAISE(ABORT, 'a review is pinned to its commit and author'); END;`,
  },
  {
    id: 303,
    name: 'codehost: pr_comments',
    sql: `
      CREATE TABLE pr_comments (
        id INTEGER PRIMARY KEY,
        pr_id INTEGER NOT NULL REFERENCES pull_requests (id),
        author TEXT NOT NULL,
        body TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX pr_comments_pr ON pr_comments (pr_id, id);`,
  },
  {
    id: 304,
    name: 'codehost: commit_statuses',
    sql: `
      CREATE TABLE commit_statuses (
        id INTEGER PRIMARY KEY,
        project TEXT NOT NULL,
        sha TEXT NOT NULL,
        context TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('pending', 'success', 'failure', 'error')),
        description TEXT,
        target_url TEXT,
        creator TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX commit_statuses_sha ON commit_statuses (project, sha, context, id);`,
  },
  {
    id: 305,
    name: 'codehost: webhook_deliveries',
    sql: `
      CREATE TABLE webhook_deliveries (
        delivery_id TEXT PRIMARY KEY,
        event TEXT NOT NULL,
        action TEXT,
        repo TEXT,
        received_at INTEGER NOT NULL,
        outcome TEXT NOT NULL
      );`,
  },
  {
    id: 306,
    name: 'codehost: webhook_bodies',
    // The signature covers the body but not the delivery id: a captured delivery sent again
    // under a new X-GitHub-Delivery is the same signed body, dropped by its hash.
    sql: `
      CREATE TABLE webhook_bodies (
        body_sha256 TEXT PRIMARY KEY,
        delivery_id TEXT NOT NULL,
        received_at INTEGER NOT NULL
      );`,
  },
  {
    id: 307,
    name: 'codehost: github_pr_bases',
    // The base each GitHub PR had when svc last saw it, and when it last changed: verdicts
    // given before a base change judged another diff and stop counting.
    sql: `
      CREATE TABLE github_pr_bases (
        project TEXT NOT NULL,
        number INTEGER NOT NULL,
        base TEXT NOT NULL,
        changed_at TEXT,
        PRIMARY KEY (project, number)
      );`,
  },
  {
    id: 308,
    name: 'codehost: pr_review_comments',
    // A review's comments on lines, written with it and pinned like it. `resolved` is the
    // one fact that changes: a person dismissed the finding the comment carries.
    sql: `
      CREATE TABLE pr_review_comments (
        id INTEGER PRIMARY KEY,
        review_id INTEGER NOT NULL REFERENCES pr_reviews (id),
        path TEXT NOT NULL,
        line INTEGER NOT NULL CHECK (line >= 1),
        start_line INTEGER CHECK (start_line IS NULL OR (start_line >= 1 AND start_line <= line)),
        body TEXT NOT NULL,
        resolved INTEGER NOT NULL DEFAULT 0 CHECK (resolved IN (0, 1))
      );
      CREATE INDEX pr_review_comments_review ON pr_review_comments (review_id, id);
      CREATE TRIGGER pr_review_comments_pinned BEFORE UPDATE OF review_id, path, line, start_line, body ON pr_review_comments
      BEGIN SELECT RAISE(ABORT, 'a review comment is pinned to its review and line'); END;`,
  },
];
