// svc.db truncated to 0 bytes while the daemon is stopped: the next daemon refuses to
// start on the empty store (the home shows it had one) and names the newest backup and
// the commands that restore it; running them brings every conversation back.
import * as assert from 'node:assert/strict';
import { execSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { laneWorld, ok } from '../helpers/lanes';
import { eventually, makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';

describe('store: an emptied svc.db is refused, and a backup restores it', function () {
  this.timeout(120_000);
  let s: Scratch;

  before(async () => {
    s = makeScratch('storeHistory');
    await laneWorld(s);
  });
  after(async () => s.dispose());

  const db = () => path.join(s.svcHome, 'svc.db');
  const backups = () => path.join(s.svcHome, 'backups');

  it('keeps an online backup of the store, 0600, that SQLite reads as a whole store', async () => {
    const list = () => (fs.existsSync(backups()) ? fs.readdirSync(backups()).filter((n) => n.endsWith('.db')) : []);
    await eventually(() => list().length > 0, 15_000, 'a backup');
    const names = list();
    assert.match(names[0], /^svc-\d{8}T\d{6}Z\.db$/);
    const file = path.join(backups(), names[0]);
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    const b = new Database(file, { readonly: true });
    assert.equal(b.pragma('integrity_check', { simple: true }), 'ok');
    assert.ok((b.prepare('SELECT COUNT(*) FROM schema_migrations').pluck().get() as number) > 0);
    b.close();
  });

  it('refuses to start on a svc.db truncated to 0 bytes, naming the backup; the printed commands restore it', async () => {
    const before = (await ok(s.svc(['conv', 'list', '--json']))).stdout;
    assert.ok(before.length > 2);
    await ok(s.svc(['daemon', 'stop', '--force']));
    // A graceful stop backs up the final state.
    fs.truncateSync(db(), 0);
    const r = await s.svc(['conv', 'list']);
    assert.equal(r.code, 1);
    const newest = fs
      .readdirSync(backups())
      .filter((n) => n.endsWith('.db'))
      .sort()
      .pop()!;
    const backup = path.join(backups(), newest);
    const m = new RegExp(
      `^svc daemon failed to start \\(exit 1\\): ${db()} is empty, but this home had a store \\(store.json records a store of schema \\d+; 1 agent folder in ${path.join(s.svcHome, 'agents')}\\): it was truncated or deleted while the daemon was stopped, and svc will not start on an empty store\\. To restore the newest backup: (rm -f .* && cp '${backup}' '${db()}' && chmod 600 '${db()}'), then run svc again\\. To start over on purpose, move .* away first\\.; see `,
    ).exec(r.stderr);
    assert.ok(m, r.stderr);
    assert.equal(fs.statSync(db()).size, 0, 'nothing written to the emptied store');
    execSync(m[1], { shell: '/bin/sh' });
    const after = await ok(s.svc(['conv', 'list', '--json']));
    const ids = (t: string) => (JSON.parse(t) as { id: number }[]).map((c) => c.id);
    assert.deepEqual(ids(after.stdout), ids(before));
  });
});
