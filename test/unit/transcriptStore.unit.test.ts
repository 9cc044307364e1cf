// Transcript rows are written on a connection of their own at synchronous=NORMAL, so the
// store's connection stays at FULL for every state change and nothing switches per flush
// (server/conversations/transcriptStore.ts says why this is still durable). Real SQLite
// files in a scratch folder.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TranscriptStore } from '../../server/conversations/transcriptStore';
import { conversationMigrations } from '../../server/conversations/migrations';
import { openDb } from '../../server/store/db';
import type { Db } from '../../server/store/db';
import { storeMigrations } from '../../server/store/migrations';

const REPO = path.resolve(__dirname, '..', '..');
const FULL = 2;

describe('transcript store: its own NORMAL connection beside the FULL store', () => {
  const dir = path.join(REPO, '.scratch', `unit-transcript-${process.pid}`);
  const file = path.join(dir, 'svc.db');
  let db: Db;
  let store: TranscriptStore;
  let flushed: number[][];

  const convRow = (name: string): number =>
    Number(
      db
        .prepare(
          `INSERT INTO conversations (name, title, kind, cwd, harness, model, first_prompt, created_at) VALUES (?, 't', 'root', '/tmp', 'script', 'm', 'go', 0)`,
        )
        .run(name).lastInsertRowid,
    );

  beforeEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    db = openDb(file, [storeMigrations, conversationMigrations]);
    flushed = [];
    store = new TranscriptStore(
      db,
      () => 7,
      (ids) => flushed.push([...ids]),
    );
  });
  afterEach(() => {
    store.close();
    if (db.open) db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('writes the rows without ever setting the store connection below FULL; they read back, and after a reopen', () => {
    const a = convRow('a');
    assert.equal(db.pragma('synchronous', { simple: true }), FULL);
    assert.equal(store.append(a, 'lifecycle', { text: 'one' }), 1);
    assert.equal(store.append(a, 'lifecycle', { text: 'two' }), 2);
    store.flush();
    assert.equal(db.pragma('synchronous', { simple: true }), FULL, 'the store connection was switched');
    assert.deepEqual(flushed, [[a]]);
    assert.deepEqual(
      store.after(a, 0, 10).map((r) => [r.seq, r.at, r.kind, r.payload]),
      [
        [1, 7, 'lifecycle', { text: 'one' }],
        [2, 7, 'lifecycle', { text: 'two' }],
      ],
    );
    store.close();
    db.close();
    const again = openDb(file, [storeMigrations, conversationMigrations]);
    try {
      assert.deepEqual(again.prepare('SELECT seq, kind, payload FROM transcript ORDER BY seq').raw().all(), [
        [1, 'lifecycle', '{"text":"one"}'],
        [2, 'lifecycle', '{"text":"two"}'],
      ]);
    } finally {
      again.close();
    }
  });

  it("writes through the store's connection when that is inside a transaction (no wait on its own lock)", () => {
    const a = convRow('a');
    store.append(a, 'lifecycle', { text: 'inside' });
    const t0 = Date.now();
    db.transaction(() => {
      db.prepare('UPDATE conversations SET title = ? WHERE id = ?').run('renamed', a);
      store.flush();
    })();
    assert.ok(Date.now() - t0 < 1000, `the flush waited ${Date.now() - t0} ms for a lock`);
    assert.equal(db.pragma('synchronous', { simple: true }), FULL);
    assert.deepEqual(
      store.after(a, 0, 10).map((r) => r.payload),
      [{ text: 'inside' }],
    );
  });

  it('keeps writing through the store once its own connection is closed', () => {
    const a = convRow('a');
    store.close();
    store.append(a, 'lifecycle', { text: 'late' });
    store.flush();
    assert.deepEqual(
      store.after(a, 0, 10).map((r) => r.payload),
      [{ text: 'late' }],
    );
  });
});
