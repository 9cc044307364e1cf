// svc.db checked before the daemon serves it: 4 KiB of a damaged table page make the start
// fail with SQLite's finding, the newest backup that passes the check and the commands that
// restore it (which bring every conversation back); a symlinked svc.db, a svc.db of another
// user and an SVC_HOME of another user are refused.
import * as assert from 'node:assert/strict';
import { execSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { daemonPids } from '../helpers/daemonProcs';
import { laneWorld, ok } from '../helpers/lanes';
import { makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';

describe('store: a damaged, symlinked or foreign svc.db is refused', function () {
  this.timeout(120_000);
  let s: Scratch;

  before(async () => {
    s = makeScratch('storeIntegrity');
    await laneWorld(s);
  });
  after(async () => s.dispose());

  const db = () => path.join(s.svcHome, 'svc.db');

  it("4 KiB of a table page overwritten: refused with quick_check's finding and the newest good backup; the printed commands restore it", async () => {
    const before = (await ok(s.svc(['conv', 'list', '--json']))).stdout;
    await ok(s.svc(['daemon', 'stop', '--force'])); // a graceful stop leaves a backup of the final state
    const probe = new Database(db(), { readonly: true });
    const page = probe.pragma('page_size', { simple: true }) as number;
    const root = probe
      .prepare("SELECT rootpage FROM sqlite_master WHERE name = 'conversations'")
      .pluck()
      .get() as number;
    probe.close();
    const fd = fs.openSync(db(), 'r+');
    fs.writeSync(fd, Buffer.alloc(4096, 0xa5), 0, 4096, (root - 1) * page);
    fs.closeSync(fd);
    const damaged = fs.readFileSync(db());

    const r = await s.svc(['conv', 'list']);
    assert.equal(r.code, 1, r.stdout);
    assert.equal(r.stdout, '');
    const newest = fs
      .readdirSync(path.join(s.svcHome, 'backups'))
      .filter((n) => n.endsWith('.db'))
      .sort()
      .pop()!;
    const backup = path.join(s.svcHome, 'backups', newest);
    const m = new RegExp(
      `^svc daemon failed to start \\(exit 1\\): ${db()} is damaged \\(SQLite quick_check: [^\\n]+\\); svc will not serve a damaged store\\. Restore the newest good backup: (mv '${db()}' '${db()}.damaged' && rm -f '${db()}-wal' '${db()}-shm' && cp '${backup}' '${db()}' && chmod 600 '${db()}'), then run svc again \\(work recorded after \\S+ is not in it\\)\\.; see `,
    ).exec(r.stderr);
    assert.ok(m, r.stderr);
    assert.deepEqual(daemonPids(s.svcHome), [], 'no daemon serves the damaged store');
    assert.ok(fs.readFileSync(db()).equals(damaged), 'nothing written to the damaged store');

    execSync(m[1], { shell: '/bin/sh' });
    const after = await ok(s.svc(['conv', 'list', '--json']));
    const ids = (t: string) => (JSON.parse(t) as { id: number }[]).map((c) => c.id);
    assert.deepEqual(ids(after.stdout), ids(before));
    assert.ok(fs.existsSync(`${db()}.damaged`), 'the damaged file is kept beside');
  });

  it('a svc.db that is a symlink is refused, naming where it leads', async () => {
    await ok(s.svc(['daemon', 'stop', '--force']));
    const real = path.join(s.root, 'elsewhere.db');
    fs.renameSync(db(), real);
    fs.symlinkSync(real, db());
    try {
      const r = await s.svc(['conv', 'list']);
      assert.equal(r.code, 1);
      assert.match(
        r.stderr,
        new RegExp(
          `^svc daemon failed to start \\(exit 1\\): ${db()} is a symlink \\(to ${real}\\); svc refuses it: the store must be a file in SVC_HOME that only you control\\. Move the file it leads to in its place \\(mv, after checking it is yours\\), then run svc again; see `,
        ),
      );
      assert.deepEqual(daemonPids(s.svcHome), []);
    } finally {
      fs.rmSync(db());
      fs.renameSync(real, db());
    }
    await ok(s.svc(['conv', 'list']));
  });

  it('a svc.db or an SVC_HOME owned by another user is refused (needs root to give a file away)', async function () {
    if (process.getuid?.() !== 0) {
      // An ordinary user cannot make a file another user's; the check itself runs everywhere.
      console.log('      (not run: only root can chown a file to another user to set this up)');
      this.skip();
    }
    await ok(s.svc(['daemon', 'stop', '--force']));
    fs.chownSync(db(), 65534, 65534);
    try {
      const r = await s.svc(['conv', 'list']);
      assert.equal(r.code, 1);
      assert.match(
        r.stderr,
        new RegExp(
          `^svc daemon failed to start \\(exit 1\\): ${db()} belongs to uid 65534, not to you \\(uid 0\\); svc refuses a store another user can change\\. Use your own SVC_HOME, or have its owner hand the file over \\(chown\\), then run svc again; see `,
        ),
      );
    } finally {
      fs.chownSync(db(), 0, 0);
    }
    fs.chownSync(s.svcHome, 65534, 65534);
    try {
      const r = await s.svc(['conv', 'list']);
      assert.equal(r.code, 1);
      assert.equal(
        r.stderr,
        `${s.svcHome} belongs to uid 65534, not to you (uid 0); svc refuses an SVC_HOME another user controls (set SVC_HOME to a folder of your own)\n`,
      );
      assert.deepEqual(daemonPids(s.svcHome), []);
    } finally {
      fs.chownSync(s.svcHome, 0, 0);
    }
    await ok(s.svc(['conv', 'list']));
  });
});
