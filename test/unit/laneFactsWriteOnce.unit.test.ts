// Spec, Lane: the parent, run key, lane key and role (and a judge's judged row) are written
// once at launch and never changed. The store's triggers refuse any UPDATE of them; the
// other columns (an archive time, a reap time) still change.
import * as assert from 'node:assert/strict';
import { conversationMigrations } from '../../server/conversations/migrations';
import { laneMigrations } from '../../server/lanes/migrations';
import { storeMigrations } from '../../server/store/migrations';
import { openDb } from '../../server/store/db';
import type { Db } from '../../server/store/db';

describe('lane launch facts are written once', () => {
  let db: Db;

  beforeEach(() => {
    db = openDb(':memory:', [storeMigrations, conversationMigrations, laneMigrations]);
    const conv = db.prepare(
      `INSERT INTO conversations (name, title, kind, parent_id, cwd, harness, model, first_prompt, created_at) VALUES (?, ?, ?, ?, '/w', 'script', 'm', 'p', 1)`,
    );
    conv.run('root', 'root', 'root', null);
    conv.run('other', 'other', 'root', null);
    conv.run('r-k-critic-i1', 'critic', 'lane', 1);
    db.prepare(
      `INSERT INTO lanes (conv_id, project, run_key, lane_key, role, iteration, judged_key, judged_iteration, git_backed, dir, lanes_root, created_at)
       VALUES (3, 'proj', 'r', 'k', 'critic', 1, 'k', 1, 1, '/l/r-k-critic-i1', '/l', 1)`,
    ).run();
  });
  afterEach(() => db.close());

  for (const [column, value] of [
    ['run_key', 'r2'],
    ['lane_key', 'k2'],
    ['role', 'verifier'],
    ['iteration', 2],
    ['judged_key', 'x'],
    ['judged_iteration', 2],
  ] as const) {
    it(`refuses an update of lanes.${column}`, () => {
      assert.throws(
        () => db.prepare(`UPDATE lanes SET ${column} = ? WHERE conv_id = 3`).run(value),
        /lane launch facts are written once/,
      );
    });
  }

  it("refuses a new parent for a lane's conversation, not for other conversations", () => {
    assert.throws(
      () => db.prepare('UPDATE conversations SET parent_id = 2 WHERE id = 3').run(),
      /a lane's parent is written once/,
    );
    db.prepare('UPDATE conversations SET parent_id = 1 WHERE id = 2').run();
  });

  it('lets the rest of the row change: archive and reap times', () => {
    db.prepare('UPDATE conversations SET archived_at = 5 WHERE id = 3').run();
    db.prepare('UPDATE lanes SET reaped_at = 5 WHERE conv_id = 3').run();
    assert.deepEqual(db.prepare('SELECT run_key, lane_key, role, reaped_at FROM lanes WHERE conv_id = 3').get(), {
      run_key: 'r',
      lane_key: 'k',
      role: 'critic',
      reaped_at: 5,
    });
  });
});
