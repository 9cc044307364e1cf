// `npm test`'s first step (scripts/checkPrerequisites.mjs): on a machine that lacks system
// packages it stops at once, naming each and the one command that installs them all; the
// list is scripts/systemPackages.json, which .ci/run installs from too.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO } from '../helpers/scratch';

const CHECK = path.join(REPO, 'scripts', 'checkPrerequisites.mjs');
type Packages = { package: string; provides: string }[];
const LIST = JSON.parse(fs.readFileSync(path.join(REPO, 'scripts', 'systemPackages.json'), 'utf8')) as Packages;
const UI_LIST = JSON.parse(fs.readFileSync(path.join(REPO, 'scripts', 'uiPackages.json'), 'utf8')) as Packages;

describe('npm test: the system packages it needs, checked first', () => {
  const root = path.join(REPO, '.scratch', `unit-prerequisites-${process.pid}`);
  const bin = path.join(root, 'usr', 'bin');
  const check = (...args: string[]) =>
    spawnSync(process.execPath, [CHECK, ...args], {
      env: { PATH: bin, SVC_PREREQ_ROOT: root },
      encoding: 'utf8',
    });
  /** Installs what `pkg` provides on the scratch machine. */
  const install = (pkg: string) => {
    const p = [...LIST, ...UI_LIST].find((l) => l.package === pkg)!;
    const file = path.isAbsolute(p.provides)
      ? path.join(root, p.provides)
      : path.join(p.provides === 'sshd' ? path.join(root, 'usr', 'sbin') : bin, p.provides);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '', { mode: 0o755 });
  };

  beforeEach(() => {
    fs.rmSync(root, { recursive: true, force: true });
    fs.mkdirSync(bin, { recursive: true });
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('names each missing package and the one command that installs them all', () => {
    for (const p of LIST) if (!['openssh-server', 'strace', 'bubblewrap'].includes(p.package)) install(p.package);
    const r = check();
    assert.equal(r.status, 1);
    assert.equal(r.stdout, '');
    const sudo = process.getuid?.() === 0 ? '' : 'sudo ';
    assert.equal(
      r.stderr,
      [
        'npm test needs system packages this machine lacks:',
        "  openssh-server (sshd): the remote-host tests' real sshd on 127.0.0.1 (test/helpers/sshd.ts)",
        "  strace (strace): proving the daemon never opens a remote host's path directly",
        '  bubblewrap (bwrap): the workspace sandbox every lane runs in by default',
        `Install them all with (Debian/Ubuntu): ${sudo}apt-get install -y --no-install-recommends openssh-server strace bubblewrap`,
        '',
      ].join('\n'),
    );
  });

  it('passes once every package is there, sshd found in sbin off the PATH', () => {
    for (const p of LIST) install(p.package);
    const r = check();
    assert.equal(r.stderr, '');
    assert.equal(r.status, 0);
    assert.equal(r.stdout, `all ${LIST.length} system packages present (scripts/systemPackages.json)\n`);
  });

  it("ui: checks what code-server's install compiles with, for demo:ui, and the e2e CI step installs that list", () => {
    for (const p of UI_LIST) if (p.package !== 'libkrb5-dev') install(p.package);
    const r = check('ui');
    assert.equal(r.status, 1);
    const sudo = process.getuid?.() === 0 ? '' : 'sudo ';
    assert.equal(
      r.stderr,
      [
        'npm run demo:ui needs a system package this machine lacks:',
        "  libkrb5-dev (/usr/include/gssapi/gssapi.h): code-server's kerberos module (gssapi/gssapi.h)",
        `Install it with (Debian/Ubuntu): ${sudo}apt-get install -y --no-install-recommends libkrb5-dev`,
        '',
      ].join('\n'),
    );
    install('libkrb5-dev');
    const ok = check('ui');
    assert.equal(ok.status, 0, ok.stderr);
    assert.equal(ok.stdout, `all ${UI_LIST.length} system packages present (scripts/uiPackages.json)\n`);
    assert.match(
      fs.readFileSync(path.join(REPO, 'scripts', 'ciE2e.sh'), 'utf8'),
      /require\('\.\/scripts\/uiPackages\.json'\)\.map\(\(p\) => p\.package\)/,
    );
  });

  it('is the first step of npm test, and .ci/run installs from the same list', () => {
    assert.match(
      fs.readFileSync(path.join(REPO, 'scripts', 'test.mjs'), 'utf8'),
      /const steps = \[\n(\s*\/\/.*\n)*\s*\['prerequisites', \['node', 'scripts\/checkPrerequisites\.mjs'\]\]/,
    );
    assert.match(
      fs.readFileSync(path.join(REPO, '.ci', 'run'), 'utf8'),
      /apt-get install .*\$\(node -p "require\('\.\/scripts\/systemPackages\.json'\)\.map\(\(p\) => p\.package\)\.join\(' '\)"\)/,
    );
  });
});
