// The extension's pure connection pieces: which node, backoff, status bar text.
import * as assert from 'node:assert/strict';
import { BACKOFF_CAP_MS, backoffDelay } from '../../extension/connection/backoff';
import { lookupNode, parseNodeMajor } from '../../extension/connection/findNode';
import type { NodeLookupInput } from '../../extension/connection/findNode';
import { statusText } from '../../extension/connection/statusText';
import type { DaemonInfo } from '../../shared/protocol/daemon';

const FIX = 'install Node.js 20 or newer and put it on PATH, or set "svc.nodePath" to the node binary';

describe('which node runs the daemon (extension/connection/findNode.ts)', () => {
  const input = (o: Partial<NodeLookupInput>, executables: string[] = []): NodeLookupInput => ({
    setting: undefined,
    pathEnv: '/a:/b:/c',
    platform: 'linux',
    isExecutable: (f) => executables.includes(f),
    ...o,
  });

  it('takes the first node on PATH', () => {
    assert.deepEqual(lookupNode(input({}, ['/b/node', '/c/node'])), { ok: true, path: '/b/node', source: 'PATH' });
  });

  it('prefers the svc.nodePath setting', () => {
    assert.deepEqual(lookupNode(input({ setting: ' /opt/node/bin/node ' }, ['/opt/node/bin/node', '/a/node'])), { ok: true, path: '/opt/node/bin/node', source: 'svc.nodePath' });
  });

  it('never picks the editor runtime', () => {
    assert.deepEqual(lookupNode(input({ ownRuntime: '/a/node' }, ['/a/node', '/c/node'])), { ok: true, path: '/c/node', source: 'PATH' });
  });

  it('says plainly when there is none, with the fix', () => {
    assert.deepEqual(lookupNode(input({}, [])), { ok: false, problem: 'no node was found on PATH', fix: FIX });
  });

  it('refuses a setting that is relative or not executable', () => {
    assert.deepEqual(lookupNode(input({ setting: 'node' })), { ok: false, problem: '"svc.nodePath" is "node", not an absolute path', fix: 'set "svc.nodePath" to the absolute path of a node binary' });
    assert.deepEqual(lookupNode(input({ setting: '/x/node' })), { ok: false, problem: '"svc.nodePath" is /x/node, which is not an executable file', fix: 'set "svc.nodePath" to the absolute path of a node binary' });
  });

  it('reads the major version from node --version', () => {
    assert.equal(parseNodeMajor('v20.19.1\n'), 20);
    assert.equal(parseNodeMajor('v8.0.0'), 8);
    assert.equal(parseNodeMajor('Electron 30'), undefined);
  });
});

describe('reconnect backoff (extension/connection/backoff.ts)', () => {
  it('doubles from 250 ms and caps at 10 s', () => {
    assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 7, 50].map(backoffDelay), [250, 500, 1000, 2000, 4000, 8000, 10_000, 10_000, 10_000]);
    assert.equal(BACKOFF_CAP_MS, 10_000);
  });
});

describe('status bar text (extension/connection/statusText.ts)', () => {
  const info: DaemonInfo = { pid: 42, version: '0.1.0', build: 'abcdef012345', socketPath: '/h/svc.sock', httpPort: 1, svcHome: '/h', startedAt: 0, uptimeMs: 0, conversations: 5, live: 2 };

  it('shows health when connected and nobody waits', () => {
    assert.deepEqual(statusText({ kind: 'connected', info }, 0), { text: '$(pulse) svc', tooltip: 'svc daemon 0.1.0 (build abcdef012345), pid 42\n5 conversations, 2 live\nSVC_HOME /h' });
  });

  it('counts the conversations that need you', () => {
    assert.equal(statusText({ kind: 'connected', info }, 1).text, '$(bell-dot) svc: 1 needs you');
    assert.equal(statusText({ kind: 'connected', info }, 3).text, '$(bell-dot) svc: 3 need you');
    assert.equal(statusText({ kind: 'connected', info }, 3).background, 'statusBarItem.warningBackground');
  });

  it('says why while down, and what to do without node', () => {
    assert.deepEqual(statusText({ kind: 'down', why: 'no daemon is running for /h', since: 0 }, 2), {
      text: '$(debug-disconnect) svc: daemon down',
      tooltip: 'svc daemon is not connected: no daemon is running for /h.\nClick for the daemon status and how to start it.',
      background: 'statusBarItem.warningBackground',
    });
    assert.deepEqual(statusText({ kind: 'noNode', problem: 'no node was found on PATH', fix: FIX }, undefined), {
      text: '$(error) svc: no node',
      tooltip: `svc cannot start its daemon: no node was found on PATH.\nFix: ${FIX}.`,
      background: 'statusBarItem.errorBackground',
    });
  });
});
