// The extension's pure connection pieces: which node, backoff, status bar text.
import * as assert from 'node:assert/strict';
import { BACKOFF_CAP_MS, backoffDelay } from '../../extension/connection/backoff';
import { chooseNode, lookupNode, parseNodeMajor } from '../../extension/connection/findNode';
import type { NodeLookupInput, ProbedNode } from '../../extension/connection/findNode';
import { statusText } from '../../extension/connection/statusText';
import type { DaemonInfo } from '../../shared/protocol/daemon';

const SUPPORTS = 'svc supports Node 20, 22, 24 and 26';
const FIX =
  'install Node.js 20, 22, 24 or 26 and put it first on PATH, or set "svc.nodePath" (VS Code) to its node binary';
const SETTING_FIX = 'set "svc.nodePath" to the absolute path of a node binary';

describe('which nodes the extension considers (extension/connection/findNode.ts lookupNode)', () => {
  const input = (
    o: Partial<NodeLookupInput>,
    executables: string[] = [],
    dirs: Record<string, string[]> = {},
  ): NodeLookupInput => ({
    setting: undefined,
    pathEnv: '/a:/b:/c',
    platform: 'linux',
    home: '/home/u',
    env: {},
    isExecutable: (f) => executables.includes(f),
    listDir: (d) => dirs[d] ?? [],
    ...o,
  });

  it('lists every node on PATH in order, then nvm, fnm and volta installs newest first', () => {
    const found = lookupNode(
      input(
        {},
        [
          '/b/node',
          '/c/node',
          '/home/u/.nvm/versions/node/v22.3.0/bin/node',
          '/home/u/.nvm/versions/node/v24.1.0/bin/node',
          '/home/u/.nvm/versions/node/v9.9.9/bin/node',
          '/home/u/.local/share/fnm/node-versions/v26.0.0/installation/bin/node',
          '/home/u/.volta/tools/image/node/22.1.0/bin/node',
        ],
        {
          '/home/u/.nvm/versions/node': ['v22.3.0', 'v9.9.9', 'v24.1.0', 'not-a-version'],
          '/home/u/.local/share/fnm/node-versions': ['v26.0.0', '.downloads'],
          '/home/u/.volta/tools/image/node': ['22.1.0', '20.0.0'],
        },
      ),
    );
    assert.deepEqual(found, {
      ok: true,
      candidates: [
        { path: '/b/node', source: 'PATH' },
        { path: '/c/node', source: 'PATH' },
        { path: '/home/u/.nvm/versions/node/v24.1.0/bin/node', source: 'nvm' },
        { path: '/home/u/.nvm/versions/node/v22.3.0/bin/node', source: 'nvm' },
        { path: '/home/u/.nvm/versions/node/v9.9.9/bin/node', source: 'nvm' },
        { path: '/home/u/.local/share/fnm/node-versions/v26.0.0/installation/bin/node', source: 'fnm' },
        { path: '/home/u/.volta/tools/image/node/22.1.0/bin/node', source: 'volta' },
      ],
    });
  });

  it('reads NVM_DIR, FNM_DIR and VOLTA_HOME, and lists a node once', () => {
    const found = lookupNode(
      input(
        { pathEnv: '/n/versions/node/v22.0.0/bin:/a', env: { NVM_DIR: '/n', FNM_DIR: '/f', VOLTA_HOME: '/v' } },
        [
          '/n/versions/node/v22.0.0/bin/node',
          '/f/node-versions/v24.0.0/installation/bin/node',
          '/v/tools/image/node/26.0.0/bin/node',
        ],
        {
          '/n/versions/node': ['v22.0.0'],
          '/f/node-versions': ['v24.0.0'],
          '/v/tools/image/node': ['26.0.0'],
        },
      ),
    );
    assert.deepEqual(found.ok && found.candidates.map((c) => `${c.source} ${c.path}`), [
      'PATH /n/versions/node/v22.0.0/bin/node',
      'fnm /f/node-versions/v24.0.0/installation/bin/node',
      'volta /v/tools/image/node/26.0.0/bin/node',
    ]);
  });

  it('takes the svc.nodePath setting alone', () => {
    assert.deepEqual(lookupNode(input({ setting: ' /opt/node/bin/node ' }, ['/opt/node/bin/node', '/a/node'])), {
      ok: true,
      candidates: [{ path: '/opt/node/bin/node', source: 'svc.nodePath' }],
    });
  });

  it('never lists the editor runtime', () => {
    assert.deepEqual(lookupNode(input({ ownRuntime: '/a/node' }, ['/a/node', '/c/node'])), {
      ok: true,
      candidates: [{ path: '/c/node', source: 'PATH' }],
    });
  });

  it('refuses a setting that is relative or not executable', () => {
    assert.deepEqual(lookupNode(input({ setting: 'node' })), {
      ok: false,
      problem: '"svc.nodePath" is "node", not an absolute path',
      fix: SETTING_FIX,
    });
    assert.deepEqual(lookupNode(input({ setting: '/x/node' })), {
      ok: false,
      problem: '"svc.nodePath" is /x/node, which is not an executable file',
      fix: SETTING_FIX,
    });
  });

  it('reads the major version from node --version', () => {
    assert.equal(parseNodeMajor('v20.19.1\n'), 20);
    assert.equal(parseNodeMajor('v8.0.0'), 8);
    assert.equal(parseNodeMajor('Electron 30'), undefined);
  });
});

describe('which node the extension chooses (extension/connection/findNode.ts chooseNode)', () => {
  const node = (path: string, source: ProbedNode['source'], version: string | undefined): ProbedNode => ({
    path,
    source,
    version,
  });

  it('takes the first node on PATH when svc supports it', () => {
    assert.deepEqual(chooseNode([node('/usr/bin/node', 'PATH', 'v22.3.0')]), {
      ok: true,
      path: '/usr/bin/node',
      source: 'PATH',
      version: 'v22.3.0',
      why: 'the first node on PATH',
    });
  });

  it('passes over an unsupported or silent node to a supported one, and says so', () => {
    const probed = [
      node('/usr/bin/node', 'PATH', 'v18.19.0'),
      node('/opt/odd/node', 'PATH', undefined),
      node('/h/.nvm/versions/node/v25.1.0/bin/node', 'nvm', 'v25.1.0'),
      node('/h/.nvm/versions/node/v24.1.0/bin/node', 'nvm', 'v24.1.0'),
    ];
    assert.deepEqual(chooseNode(probed), {
      ok: true,
      path: '/h/.nvm/versions/node/v24.1.0/bin/node',
      source: 'nvm',
      version: 'v24.1.0',
      why: `the first supported Node (${SUPPORTS}): /usr/bin/node (PATH) is Node v18.19.0; /opt/odd/node (PATH) did not answer "node --version"; /h/.nvm/versions/node/v25.1.0/bin/node (nvm) is Node v25.1.0`,
    });
  });

  it('names every node it found when none is supported, with the fix', () => {
    assert.deepEqual(
      chooseNode([
        node('/usr/bin/node', 'PATH', 'v18.19.0'),
        node('/h/.volta/tools/image/node/23.0.0/bin/node', 'volta', 'v23.0.0'),
      ]),
      {
        ok: false,
        problem: `no supported Node was found: /usr/bin/node (PATH) is Node v18.19.0; /h/.volta/tools/image/node/23.0.0/bin/node (volta) is Node v23.0.0; ${SUPPORTS}`,
        fix: FIX,
      },
    );
    assert.deepEqual(chooseNode([]), {
      ok: false,
      problem: `no supported Node was found: no node was found on PATH or in nvm, fnm or volta folders; ${SUPPORTS}`,
      fix: FIX,
    });
  });

  it('keeps to svc.nodePath: used when supported, refused (never overridden) when not', () => {
    assert.deepEqual(chooseNode([node('/opt/n26/bin/node', 'svc.nodePath', 'v26.0.0')]), {
      ok: true,
      path: '/opt/n26/bin/node',
      source: 'svc.nodePath',
      version: 'v26.0.0',
      why: 'set by "svc.nodePath"',
    });
    assert.deepEqual(chooseNode([node('/opt/n18/bin/node', 'svc.nodePath', 'v18.20.0')]), {
      ok: false,
      problem: `"svc.nodePath" is /opt/n18/bin/node, which is Node v18.20.0; ${SUPPORTS}`,
      fix: 'set "svc.nodePath" to the node binary of Node 20, 22, 24 or 26, or clear it to let svc look on PATH and in nvm, fnm and volta folders',
    });
  });
});

describe('reconnect backoff (extension/connection/backoff.ts)', () => {
  it('doubles from 250 ms and caps at 10 s', () => {
    assert.deepEqual(
      [0, 1, 2, 3, 4, 5, 6, 7, 50].map(backoffDelay),
      [250, 500, 1000, 2000, 4000, 8000, 10_000, 10_000, 10_000],
    );
    assert.equal(BACKOFF_CAP_MS, 10_000);
  });
});

describe('status bar text (extension/connection/statusText.ts)', () => {
  const info: DaemonInfo = {
    pid: 42,
    version: '0.1.0',
    build: 'abcdef012345',
    socketPath: '/h/svc.sock',
    httpPort: 1,
    svcHome: '/h',
    startedAt: 0,
    uptimeMs: 0,
    conversations: 5,
    live: 2,
  };

  it('shows health when connected and nobody waits', () => {
    assert.deepEqual(statusText({ kind: 'connected', info }, 0), {
      text: '$(pulse) svc',
      tooltip: 'svc daemon 0.1.0 (build abcdef012345), pid 42\n5 conversations, 2 live\nSVC_HOME /h',
    });
  });

  it('counts the conversations that need you', () => {
    assert.equal(statusText({ kind: 'connected', info }, 1).text, '$(bell-dot) svc: 1 needs you');
    assert.equal(statusText({ kind: 'connected', info }, 3).text, '$(bell-dot) svc: 3 need you');
    assert.equal(statusText({ kind: 'connected', info }, 3).background, 'statusBarItem.warningBackground');
  });

  it('says why while down, and what to do without node', () => {
    assert.deepEqual(statusText({ kind: 'down', why: 'no daemon is running for /h', since: 0 }, 2), {
      text: '$(debug-disconnect) svc: daemon down',
      tooltip:
        'svc daemon is not connected: no daemon is running for /h.\nClick for the daemon status and how to start it.',
      background: 'statusBarItem.warningBackground',
    });
    assert.deepEqual(statusText({ kind: 'noNode', problem: 'no node was found on PATH', fix: FIX }, undefined), {
      text: '$(error) svc: no node',
      tooltip: `svc cannot start its daemon: no node was found on PATH.\nFix: ${FIX}.`,
      background: 'statusBarItem.errorBackground',
    });
  });
});
