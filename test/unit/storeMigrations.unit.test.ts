// The store runs the migrations its opener names, and only those: no feature's tables
// appear because a module was imported (the daemon names every feature's list in
// server/daemon/features.ts; every integration test's daemon opens its store with it).
import * as assert from 'node:assert/strict';
import { codeHostMigrations } from '../../server/codehost/migrations';
import { conversationMigrations } from '../../server/conversations/migrations';
import { issueMigrations } from '../../server/issues/migrations';
import { laneMigrations } from '../../server/lanes/migrations';
import { openDb } from '../../server/store/db';
import type { Db } from '../../server/store/db';
import { inOrder, storeMigrations } from '../../server/store/migrations';

function tables(db: Db): string[] {
  return db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .pluck()
    .all() as string[];
}

describe('store migrations are named by whoever opens the store', () => {
  it('a store opened with the store list alone has no feature table, though every feature module is loaded', () => {
    const db = openDb(':memory:', [storeMigrations]);
    try {
      assert.deepEqual(tables(db), ['meta', 'schema_migrations']);
    } finally {
      db.close();
    }
  });

  it('the lists run in id order, whatever order they are named in', () => {
    const db = openDb(':memory:', [
      issueMigrations,
      codeHostMigrations,
      laneMigrations,
      conversationMigrations,
      storeMigrations,
    ]);
    try {
      const ids = db.prepare('SELECT id FROM schema_migrations ORDER BY rowid').pluck().all() as number[];
      const all = [storeMigrations, conversationMigrations, laneMigrations, codeHostMigrations, issueMigrations]
        .flat()
        .map((m) => m.id);
      assert.deepEqual(
        ids,
        [...all].sort((a, b) => a - b),
      );
      for (const t of ['meta', 'conversations', 'lanes', 'pull_requests', 'issues'])
        assert.ok(tables(db).includes(t), `table ${t}`);
    } finally {
      db.close();
    }
  });

  it('two migrations with one id are refused before any runs', () => {
    const twin = { id: 101, name: 'twin', sql: 'CREATE TABLE twin (x)' };
    assert.throws(() => inOrder([conversationMigrations, [twin]]), {
      message: "migrations 'conversations' and 'twin' share id 101",
    });
    assert.throws(() => openDb(':memory:', [storeMigrations, conversationMigrations, [twin]]), {
      message: "migrations 'conversations' and 'twin' share id 101",
    });
  });
});
