// Statements prepared once per connection and SQL text: compiling a statement costs about
// as much as running a small one, and some writes run many times a second.
import type { Statement } from 'better-sqlite3';
import type { Db } from './db';

export class StatementCache {
  private readonly byConnection = new WeakMap<Db, Map<string, Statement<unknown[]>>>();

  get(conn: Db, sql: string): Statement<unknown[]> {
    let bySql = this.byConnection.get(conn);
    if (!bySql) this.byConnection.set(conn, (bySql = new Map<string, Statement<unknown[]>>()));
    let stmt = bySql.get(sql);
    if (!stmt) bySql.set(sql, (stmt = conn.prepare(sql)));
    return stmt;
  }
}
