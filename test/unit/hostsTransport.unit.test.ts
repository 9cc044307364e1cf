// The SSH transport's private folder for control sockets: it must hold a socket path of
// at most ~100 bytes (plus ssh's 17-byte temporary suffix), whatever the length of SVC_HOME.
import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import { controlDirFor } from '../../server/hosts/sshTransport';

describe('ssh control folder', () => {
  const room = (dir: string) => Buffer.byteLength(path.join(dir, 'x'.repeat(16))) + 17;
  let savedRuntime: string | undefined;
  beforeEach(() => (savedRuntime = process.env.XDG_RUNTIME_DIR));
  afterEach(() => {
    if (savedRuntime === undefined) delete process.env.XDG_RUNTIME_DIR;
    else process.env.XDG_RUNTIME_DIR = savedRuntime;
  });

  it('is SVC_HOME/ssh when that is short enough', () => {
    assert.equal(controlDirFor('/home/a/.svc', '/home/a/.svc/svc.sock'), '/home/a/.svc/ssh');
  });

  it('is beside the daemon socket for a long SVC_HOME whose socket moved out', () => {
    const home = `/home/a/${'h'.repeat(80)}/.svc`;
    const dir = controlDirFor(home, '/run/user/0/svc-1234abcd.sock');
    assert.match(dir, /^\/run\/user\/0\/ssh-[0-9a-f]{8}$/);
  });

  it('goes to XDG_RUNTIME_DIR, else the temporary folder, when neither fits (a socket kept in a long-ish SVC_HOME)', () => {
    const home = `/work/wt/remote-finish/.scratch/remote-6834-mwxewuy8-0/home/.svc`;
    process.env.XDG_RUNTIME_DIR = '/run/user/0';
    const inRuntime = controlDirFor(home, `${home}/svc.sock`);
    assert.match(inRuntime, /^\/run\/user\/0\/svc-ssh-[0-9a-f]{8}$/);
    delete process.env.XDG_RUNTIME_DIR;
    const inTmp = controlDirFor(home, `${home}/svc.sock`);
    assert.equal(path.dirname(inTmp), os.tmpdir());
    assert.match(path.basename(inTmp), new RegExp(`^svc-${process.getuid?.() ?? 0}-ssh-[0-9a-f]{8}$`));
    for (const d of [inRuntime, inTmp]) assert.ok(room(d) <= 100, d);
  });
});
