// The store's second connection at synchronous=NORMAL (server/store/unsyncedWriter.ts):
// transcript rows and a conversation's start facts are written there, without waiting for
// the disk, while the store's own connection stays FULL. What must hold: the other
// connection reads them at once; a daemon killed with SIGKILL right after loses none of
// them and keeps the transcript in the order it was appended; a write asked for while the
// store's connection is inside a transaction commits with that transaction instead of
// waiting for its lock. Real SQLite files in a scratch folder, a real child killed -9.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ConversationStore } from '../../server/conversations/conversationStore';
import { conversationMigrations } from '../../server/conversations/migrations';
import { TranscriptStore } from '../../server/conversations/transcriptStore';
import { openDb } from '../../server/store/db';
import type { Db } from '../../server/store/db';
import { storeMigrations } from '../../server/store/migrations';
import { UnsyncedWriter } from '../../server/store/unsyncedWriter';

const REPO = path.resolve(__dirname, '..', '..');
const FULL = 2;
const NORMAL = 1;

/** A conversation row as the registry inserts it (a FULL commit). */
function insertConversation(store: ConversationStore, name: string): number {
  return store.insert({
    name,
    title: name,
    kind: 'root',
    parentId: null,
    project: null,
    cwd: '/tmp',
    harness: 'script',
    model: 'm',
    effort: null,
    issueId: null,
    bare: false,
    extraEnv: null,
    permissions: null,
    host: null,
    sandbox: null,
    firstPrompt: 'go',
    createdAt: 1,
  }).id;
}

describe('unsynced writes: start facts and transcript rows on the NORMAL connection', () => {
  const dir = path.join(REPO, '.scratch', `unit-unsynced-${process.pid}`);
  const file = path.join(dir, 'svc.db');
  let db: Db;
  let writer: UnsyncedWriter;
  let store: ConversationStore;

  beforeEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    db = openDb(file, [storeMigrations, conversationMigrations]);
    writer = new UnsyncedWriter(db);
    store = new ConversationStore(db, writer);
  });
  afterEach(() => {
    writer.close();
    if (db.open) db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('writes on its own NORMAL connection, never switching the store below FULL, and the store reads it at once', () => {
    const id = insertConversation(store, 'a');
    assert.notEqual(writer.connection(), db, 'a file store gets a connection of its own');
    assert.equal(writer.connection().pragma('synchronous', { simple: true }), NORMAL);
    store.updateUnsynced(id, { sessionId: 's-1', startedAt: 42 });
    assert.equal(db.pragma('synchronous', { simple: true }), FULL, 'the store connection was switched');
    const row = store.get(id)!;
    assert.deepEqual([row.sessionId, row.startedAt], ['s-1', 42]);
    // A FULL update after it keeps it and adds its own columns.
    store.update(id, { endedAt: 50, exitStatus: 'connection closed' });
    store.updateUnsynced(id, { exitStatus: 'exit 0' });
    const ended = store.get(id)!;
    assert.deepEqual([ended.sessionId, ended.startedAt, ended.endedAt, ended.exitStatus], ['s-1', 42, 50, 'exit 0']);
  });

  it("commits with the store's transaction when asked inside one (no wait on its lock), and rolls back with it", () => {
    const id = insertConversation(store, 'a');
    const t0 = Date.now();
    db.transaction(() => {
      store.updateUnsynced(id, { sessionId: 'inside', startedAt: 1 });
      assert.equal(store.get(id)!.sessionId, 'inside');
    })();
    assert.ok(Date.now() - t0 < 1000, `the write waited ${Date.now() - t0} ms for a lock`);
    assert.equal(store.get(id)!.sessionId, 'inside');
    assert.throws(() =>
      db.transaction(() => {
        store.updateUnsynced(id, { sessionId: 'rolled back' });
        throw new Error('the caller gives up');
      })(),
    );
    assert.equal(store.get(id)!.sessionId, 'inside');
  });

  it('an in-memory store writes through its one connection', () => {
    const mem = openDb(':memory:', [storeMigrations, conversationMigrations]);
    const memWriter = new UnsyncedWriter(mem);
    try {
      assert.equal(memWriter.connection(), mem);
      const memStore = new ConversationStore(mem, memWriter);
      const id = insertConversation(memStore, 'm');
      memStore.updateUnsynced(id, { sessionId: 'mem' });
      assert.equal(memStore.get(id)!.sessionId, 'mem');
    } finally {
      memWriter.close();
      mem.close();
    }
  });

  it('a process killed with SIGKILL right after the writes loses none of them, and the transcript keeps its order', () => {
    db.close();
    writer.close();
    // The daemon's sequence at a start, then an end: the row (FULL), the start facts and
    // the transcript rows (NORMAL, one shared connection), the end (FULL), its exact words
    // (NORMAL) and a last row; then the process dies without closing anything.
    const child = `
      const { openDb } = require(${JSON.stringify(path.join(REPO, 'server/store/db.ts'))});
      const { storeMigrations } = require(${JSON.stringify(path.join(REPO, 'server/store/migrations.ts'))});
      const { conversationMigrations } = require(${JSON.stringify(path.join(REPO, 'server/conversations/migrations.ts'))});
      const { UnsyncedWriter } = require(${JSON.stringify(path.join(REPO, 'server/store/unsyncedWriter.ts'))});
      const { ConversationStore } = require(${JSON.stringify(path.join(REPO, 'server/conversations/conversationStore.ts'))});
      const { TranscriptStore } = require(${JSON.stringify(path.join(REPO, 'server/conversations/transcriptStore.ts'))});
      const db = openDb(${JSON.stringify(file)}, [storeMigrations, conversationMigrations]);
      const writer = new UnsyncedWriter(db);
      const store = new ConversationStore(db, writer);
      const transcript = new TranscriptStore(db, () => 7, () => undefined, writer);
      const id = store.insert({ name: 'k', title: 'k', kind: 'root', parentId: null, project: null, cwd: '/tmp',
        harness: 'script', model: 'm', effort: null, issueId: null, bare: false, extraEnv: null, permissions: null,
        host: null, sandbox: null, firstPrompt: 'go', createdAt: 1 }).id;
      transcript.append(id, 'lifecycle', { text: 'spawn' });
      store.updateUnsynced(id, { sessionId: 'sess-k', startedAt: 2 });
      for (const text of ['started', 'prompt', 'chunk 1', 'chunk 2']) transcript.append(id, 'lifecycle', { text });
      transcript.flush();
      store.update(id, { endedAt: 3, exitStatus: 'connection closed' });
      store.updateUnsynced(id, { exitStatus: 'exit 0' });
      transcript.append(id, 'lifecycle', { text: 'ended' });
      transcript.flush();
      process.kill(process.pid, 'SIGKILL');
    `;
    const r = spawnSync(process.execPath, ['--require', 'tsx/cjs', '-e', child], { cwd: REPO, encoding: 'utf8' });
    assert.equal(r.signal, 'SIGKILL', `the child did not die by SIGKILL: ${r.stderr}`);
    db = openDb(file, [storeMigrations, conversationMigrations]);
    writer = new UnsyncedWriter(db);
    store = new ConversationStore(db, writer);
    const row = store.byName('k')!;
    assert.deepEqual([row.sessionId, row.startedAt, row.endedAt, row.exitStatus], ['sess-k', 2, 3, 'exit 0']);
    const transcript = new TranscriptStore(
      db,
      () => 0,
      () => undefined,
      writer,
    );
    assert.deepEqual(
      transcript.after(row.id, 0).map((t) => [t.seq, (t.payload as { text: string }).text]),
      [
        [1, 'spawn'],
        [2, 'started'],
        [3, 'prompt'],
        [4, 'chunk 1'],
        [5, 'chunk 2'],
        [6, 'ended'],
      ],
    );
  });
});
