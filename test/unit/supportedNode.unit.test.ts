// The supported Node versions: one list (shared/node/supportedNode.json), the daemon's
// choice of SQLite binary by ABI with its exact refusals, and every place that repeats
// the versions for people (engines, README, the svc.nodePath setting) kept in step.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chooseNativeBinding } from '../../shared/node/nativeBinding';
import { SVC_VERSION } from '../../shared/version';
import type { BindingInput } from '../../shared/node/nativeBinding';
import { SUPPORTED_NODE, majorsInWords, nativeBinaryPath, nodeFix } from '../../shared/node/supportedNode';

const REPO = path.resolve(__dirname, '..', '..');
const FIX =
  'install Node.js 20, 22, 24 or 26 and put it first on PATH, or set "svc.nodePath" (VS Code) to its node binary';

describe('the supported Node list (shared/node/supportedNode.json)', () => {
  it('is 20 (end of life, kept), 22, 24 and 26, each with its ABI and the release CI installs', () => {
    assert.deepEqual(
      SUPPORTED_NODE.map((n) => [n.major, n.abi, n.ci.split('.')[0], n.endOfLife ?? null]),
      [
        [20, 115, '20', '2026-04-30'],
        [22, 127, '22', null],
        [24, 137, '24', null],
        [26, 147, '26', null],
      ],
    );
  });

  it('says the versions in words and gives one fix', () => {
    assert.equal(majorsInWords([20, 22, 24, 26]), '20, 22, 24 and 26');
    assert.equal(majorsInWords([22, 24], 'or'), '22 or 24');
    assert.equal(nodeFix([20, 22, 24, 26]), FIX);
  });

  it('is what package.json engines, the svc.nodePath setting, the welcome view and the README say', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8'));
    assert.equal(pkg.engines.node, '^20.19.0 || ^22.0.0 || ^24.0.0 || ^26.0.0');
    assert.match(
      pkg.contributes.configuration.properties['svc.nodePath'].markdownDescription,
      /\(Node\.js 20, 22, 24 or 26\)/,
    );
    const welcome = pkg.contributes.viewsWelcome.find((w: { when: string }) => w.when === 'svc.daemon == noNode');
    assert.match(welcome.contents, /^svc runs its daemon on Node\.js 20, 22, 24 or 26,/);
    const readme = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8');
    assert.match(readme, /On a fresh machine with \*\*Node 22, 24 or 26\*\* \(Node 20 still works/);
    assert.match(readme, /svc supports \*\*Node 20, 22, 24 and 26\*\*/);
  });
});

describe('the SQLite binary the daemon loads (shared/node/nativeBinding.ts)', () => {
  const DIST = '/opt/svc/dist';
  const all = SUPPORTED_NODE.map((n) => `${DIST}/native/better_sqlite3-linux-x64-abi${n.abi}.node`);
  const input = (o: Partial<BindingInput>, files: string[] = all): BindingInput => ({
    distDir: DIST,
    platform: 'linux',
    arch: 'x64',
    abi: '127',
    nodeVersion: 'v22.23.3',
    execPath: '/usr/local/bin/node',
    exists: (f) => files.includes(f),
    ...o,
  });

  it('names one binary per platform, arch and ABI under dist/native/', () => {
    assert.equal(nativeBinaryPath('darwin', 'arm64', 137), 'native/better_sqlite3-darwin-arm64-abi137.node');
  });

  it('takes the binary built for the running Node’s ABI', () => {
    for (const n of SUPPORTED_NODE) {
      assert.deepEqual(chooseNativeBinding(input({ abi: String(n.abi), nodeVersion: `v${n.ci}` })), {
        ok: true,
        file: `${DIST}/native/better_sqlite3-linux-x64-abi${n.abi}.node`,
      });
    }
  });

  /** A refusal as chooseNativeBinding gives it: the problem, the fix, and both in one line. */
  const refusal = (problem: string, fix: string) => ({ ok: false, problem, fix, message: `${problem}; ${fix}` });

  it('refuses a Node whose ABI svc does not support, naming it, the supported versions and the fix', () => {
    assert.deepEqual(
      chooseNativeBinding(input({ abi: '141', nodeVersion: 'v25.2.0' })),
      refusal(
        `svc cannot run on Node v25.2.0 (/usr/local/bin/node): svc supports Node 20, 22, 24 and 26, and its SQLite module (better-sqlite3) is built for those only, not for this Node's ABI 141`,
        FIX,
      ),
    );
    assert.deepEqual(
      chooseNativeBinding(input({ abi: '108', nodeVersion: 'v18.20.4', execPath: '/usr/bin/node' })),
      refusal(
        `svc cannot run on Node v18.20.4 (/usr/bin/node): svc supports Node 20, 22, 24 and 26, and its SQLite module (better-sqlite3) is built for those only, not for this Node's ABI 108`,
        FIX,
      ),
    );
  });

  it('refuses a supported Node whose binary this build lacks, naming the ones it has and how to build the rest', () => {
    assert.deepEqual(
      chooseNativeBinding(input({}, [`${DIST}/native/better_sqlite3-linux-x64-abi115.node`])),
      refusal(
        'svc cannot run on Node v22.23.3 (/usr/local/bin/node): this build of svc has no SQLite module (better-sqlite3) for Node 22 on linux-x64 in /opt/svc/dist/native, only for Node 20',
        'run "npm run build" with this Node (or "npm run build -- --every-node" for Node 20, 22, 24 and 26), or install Node.js 20 and put it first on PATH, or set "svc.nodePath" (VS Code) to its node binary',
      ),
    );
  });

  it('refuses a package for another platform in one line, naming the package for this one', () => {
    assert.deepEqual(
      chooseNativeBinding(input({ platform: 'darwin', arch: 'arm64' })),
      refusal(
        'svc cannot run on Node v22.23.3 (/usr/local/bin/node): this svc package has no SQLite module (better-sqlite3) for darwin-arm64 in /opt/svc/dist/native, so it was built for another platform',
        `install svc for darwin-arm64: the Marketplace or Open VSX installs it by itself, or take svc-darwin-arm64-${SVC_VERSION}.vsix from svc's releases (code --install-extension <file>); from a clone, run "npm run build" on this machine`,
      ),
    );
    assert.ok(
      !(chooseNativeBinding(input({ platform: 'win32', arch: 'x64' })) as { message: string }).message.includes('\n'),
    );
  });
});
