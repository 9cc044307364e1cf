// Numbered schema migrations, run in order at daemon start inside one transaction each.
// Append only: never edit a migration that has shipped; add the next number instead.
// Features own their migrations by number range: 1xx conversations, 2xx lanes,
// 3xx reviews/issues/code host, 400–419 notify. Each feature exports its list (`<feature>/migrations.ts`);
// server/daemon/features.ts names every list and hands them to openDb. Nothing registers
// itself: a store opened without a feature's list has none of its tables.

export interface Migration {
  id: number;
  name: string;
  sql: string;
}

/** The store's own table, whatever features run on it. */
export const storeMigrations: readonly Migration[] = [
  {
    id: 1,
    name: 'meta',
    sql: `CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);`,
  },
];

/** The lists as one, in id order; two migrations with one id are a programming error. */
export function inOrder(lists: readonly (readonly Migration[])[]): Migration[] {
  const seen = new Map<number, string>();
  for (const m of lists.flat()) {
    const other = seen.get(m.id);
    if (other !== undefined) throw new Error(`migrations '${other}' and '${m.name}' share id ${m.id}`);
    seen.set(m.id, m.name);
  }
  return lists.flat().sort((a, b) => a.id - b.id);
}
