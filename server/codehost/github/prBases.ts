// Each GitHub PR's base as svc last saw it, and when it last changed, kept in the store so
// a base change seen before a daemon restart still stops earlier approvals from counting.
import type { Db } from '../../store/db';
import type { PrBases } from './githubHost';

export function storedPrBases(db: Db, project: string): PrBases {
  return {
    get: (number) =>
      db
        .prepare('SELECT base, changed_at AS changedAt FROM github_pr_bases WHERE project = ? AND number = ?')
        .get(project, number) as { base: string; changedAt: string | null } | undefined,
    set: (number, base, changedAt) =>
      void db
        .prepare(
          'INSERT INTO github_pr_bases (project, number, base, changed_at) VALUES (?, ?, ?, ?) ON CONFLICT (project, number) DO UPDATE SET base = excluded.base, changed_at = excluded.changed_at',
        )
        .run(project, number, base, changedAt),
  };
}
