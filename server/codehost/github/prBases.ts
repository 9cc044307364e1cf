// Each GitHub PR's base as svc last saw it, and when it last changed, kept in the store so
// a base change seen before a daemon restart still stops earlier approvals from counting
// (in memory for a host made without a store).
import type { Db } from '../../store/db';

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

/** The base each PR had when last seen, and when it last changed (an ISO time from GitHub). */
export interface PrBases {
  get(number: number): { base: string; changedAt: string | null } | undefined;
  set(number: number, base: string, changedAt: string | null): void;
}

export function memoryBases(): PrBases {
  const kept = new Map<number, { base: string; changedAt: string | null }>();
  return { get: (n) => kept.get(n), set: (n, base, changedAt) => void kept.set(n, { base, changedAt }) };
}
