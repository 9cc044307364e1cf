// A long SVC_HOME moves the socket out of the home. It goes to a private per-user folder
// ($XDG_RUNTIME_DIR, else <tmp>/svc-<uid>/ made 0700), never to a predictable name in a
// shared folder: a path another user created first neither blocks the daemon nor is
// used; a folder another user owns, or others may write, is refused with the fix.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { discoveryOf } from '../helpers/daemonProcs';
import { makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';

describe('daemon socket folder for a long SVC_HOME', function () {
  this.timeout(120_000);
  let s: Scratch;
  let tmp: string;
  let env: NodeJS.ProcessEnv;
  const uid = process.getuid!();
  const svc = (args: string[], extra: NodeJS.ProcessEnv = {}) => s.svc(args, { env: { ...env, ...extra } });
  const folder = () => path.join(tmp, `svc-${uid}`);

  before(() => {
    s = makeScratch('socketFolder');
    tmp = path.join(s.root, 'tmp');
    fs.mkdirSync(tmp, { mode: 0o1777 });
    const longHome = path.join(s.home, 'a-rather-long-folder-name-for-svc'.repeat(3), '.svc');
    s.svcHome = longHome;
    env = { ...s.env, SVC_HOME: longHome, TMPDIR: tmp };
    delete env.XDG_RUNTIME_DIR;
    s.env = env;
    assert.ok(Buffer.byteLength(path.join(longHome, 'svc.sock')) > 100);
  });
  after(async () => {
    await svc(['daemon', 'stop']);
    await s.dispose();
  });

  it('a hostile file at the old predictable path does not stop the daemon; the socket goes in a 0700 folder', async () => {
    // What another user could create before us under the old scheme.
    const names = fs.readdirSync(tmp);
    assert.deepEqual(names, []);
    const r = await svc(['daemon', 'status', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const socketPath = discoveryOf(s).socketPath;
    assert.equal(path.dirname(socketPath), folder());
    assert.match(path.basename(socketPath), /^svc-[0-9a-f]{8}\.sock$/);
    const st = fs.lstatSync(folder());
    assert.equal(st.mode & 0o777, 0o700);
    assert.equal(st.uid, uid);
    await svc(['daemon', 'stop']);
    // A squatter at the old name `<tmp>/svc-<uid>-<hash>.sock` changes nothing now.
    fs.writeFileSync(path.join(tmp, `svc-${uid}-${path.basename(socketPath).slice(4, 12)}.sock`), 'squat');
    assert.equal((await svc(['daemon', 'status'])).code, 0);
    await svc(['daemon', 'stop']);
  });

  it('refuses a socket folder owned by another user, with the fix, and starts once it is gone', async () => {
    fs.rmSync(folder(), { recursive: true, force: true });
    fs.mkdirSync(folder(), { mode: 0o700 });
    fs.chownSync(folder(), 65534, 65534);
    const r = await svc(['daemon', 'status']);
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      new RegExp(
        `^svc daemon failed to start \\(exit 1\\): socket folder ${folder()} belongs to uid 65534, not to you \\(uid ${uid}\\); svc refuses to listen there: remove it \\(as its owner or root\\) or set XDG_RUNTIME_DIR to a folder only you can use, then run svc again; see `,
      ),
    );
    assert.equal(fs.existsSync(path.join(s.svcHome, 'server.json')), false);
    fs.rmSync(folder(), { recursive: true });
    assert.equal((await svc(['daemon', 'status'])).code, 0);
    await svc(['daemon', 'stop']);
  });

  it('refuses a socket folder others may write', async () => {
    fs.chmodSync(folder(), 0o777);
    const r = await svc(['daemon', 'status']);
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      new RegExp(
        `socket folder ${folder()} has mode 777, so other users can reach it; svc needs 700 \\(run: chmod 700 '${folder()}'\\); see `,
      ),
    );
    fs.chmodSync(folder(), 0o700);
  });

  it('uses $XDG_RUNTIME_DIR when it is set', async () => {
    const runtime = path.join(s.root, 'run');
    fs.mkdirSync(runtime, { mode: 0o700 });
    const r = await svc(['daemon', 'status'], { XDG_RUNTIME_DIR: runtime });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(path.dirname(discoveryOf(s).socketPath), runtime);
    await svc(['daemon', 'stop'], { XDG_RUNTIME_DIR: runtime });
  });
});
