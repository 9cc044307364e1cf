// Numbered schema migrations, run in order at daemon start inside one transaction each.
// Append only: never edit a migration that has shipped; add the next number instead.
// Features own their migrations by number range: 1xx conversations, 2xx lanes,
// 3xx reviews/issues/code host.

export interface Migration {
  id: number;
  name: string;
  sql: string;
}

const all: Migration[] = [];

export function registerMigrations(...ms: Migration[]): void {
  for (const m of ms) {
    if (all.some((x) => x.id === m.id)) throw new Error(`duplicate migration ${m.id}`);
    all.push(m);
  }
}

export function migrations(): Migration[] {
  return [...all].sort((a, b) => a.id - b.id);
}

registerMigrations({
  id: 1,
  name: 'meta',
  sql: `CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);`,
});
