// The svc launcher (shared/cli/installCli.ts): where it goes on each platform, that it
// names its Node and svc by absolute paths however they are spelt, that svc reads back
// only a launcher of its own, and the words of each outcome.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cliLinkPath, describeInstallCli, launcherText, readInstalled } from '../../shared/cli/installCli';
import { makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';

describe('the svc launcher (svc install-cli)', () => {
  let s: Scratch;
  before(() => (s = makeScratch('install-cli-unit')));
  after(async () => s.dispose());

  it('goes in ~/.local/bin, or on Windows in %LOCALAPPDATA%\\Microsoft\\WindowsApps (on PATH by default)', () => {
    assert.equal(cliLinkPath({ platform: 'linux', home: '/home/ada' }), '/home/ada/.local/bin/svc');
    assert.equal(cliLinkPath({ platform: 'darwin', home: '/Users/ada' }), '/Users/ada/.local/bin/svc');
    assert.equal(
      cliLinkPath({ platform: 'win32', home: 'C:\\Users\\ada', localAppData: 'C:\\Users\\ada\\AppData\\Local' }),
      'C:\\Users\\ada\\AppData\\Local\\Microsoft\\WindowsApps\\svc.cmd',
    );
    assert.equal(
      cliLinkPath({ platform: 'win32', home: 'C:\\Users\\ada' }),
      'C:\\Users\\ada\\AppData\\Local\\Microsoft\\WindowsApps\\svc.cmd',
    );
  });

  it('runs svc with the Node given, quoted for sh, and reads back what it runs', () => {
    const node = "/home/o'brien/.nvm/versions/node/v22.1.0/bin/node";
    const shim = "/home/o'brien/.vscode/extensions/svc dev/bin/svc";
    const text = launcherText('linux', node, shim);
    assert.equal(
      text,
      `#!/bin/sh\n# svc's command, installed by svc install-cli; svc uninstall-cli removes it\nexec '/home/o'\\''brien/.nvm/versions/node/v22.1.0/bin/node' '/home/o'\\''brien/.vscode/extensions/svc dev/bin/svc' "$@"\n`,
    );
    const file = path.join(s.root, 'svc');
    fs.writeFileSync(file, text);
    assert.deepEqual(readInstalled(file), { kind: 'ours', nodePath: node, shimPath: shim });
  });

  it('on Windows is a .cmd passing every argument on', () => {
    const text = launcherText(
      'win32',
      'C:\\Program Files\\nodejs\\node.exe',
      'C:\\Users\\ada\\.vscode\\extensions\\svc-dev.svc-0.1.0-win32-x64\\bin\\svc',
    );
    assert.equal(
      text,
      `@echo off\r\nrem svc's command, installed by svc install-cli; svc uninstall-cli removes it\r\n"C:\\Program Files\\nodejs\\node.exe" "C:\\Users\\ada\\.vscode\\extensions\\svc-dev.svc-0.1.0-win32-x64\\bin\\svc" %*\r\n`,
    );
    const file = path.join(s.root, 'svc.cmd');
    fs.writeFileSync(file, text);
    assert.deepEqual(readInstalled(file), {
      kind: 'ours',
      nodePath: 'C:\\Program Files\\nodejs\\node.exe',
      shimPath: 'C:\\Users\\ada\\.vscode\\extensions\\svc-dev.svc-0.1.0-win32-x64\\bin\\svc',
    });
  });

  it('reads nothing, or a file of the same name that is not its own, as not its launcher', () => {
    assert.deepEqual(readInstalled(path.join(s.root, 'absent')), { kind: 'none' });
    const mine = path.join(s.root, 'mine');
    fs.writeFileSync(mine, '#!/bin/sh\nexec node \'/opt/svc/bin/svc\' "$@"\n');
    assert.deepEqual(readInstalled(mine), { kind: 'other' });
    const folder = path.join(s.root, 'a-folder');
    fs.mkdirSync(folder);
    assert.deepEqual(readInstalled(folder), { kind: 'other' });
  });

  it('says what it did, and what a login shell finds', () => {
    const r = {
      outcome: 'installed' as const,
      file: '/home/ada/.local/bin/svc',
      nodePath: '/usr/bin/node',
      shimPath: '/opt/svc/bin/svc',
    };
    const head = 'installed /home/ada/.local/bin/svc: runs /opt/svc/bin/svc with /usr/bin/node';
    assert.equal(
      describeInstallCli(r, '/home/ada/.local/bin/svc', '/home/ada'),
      `${head}; a login shell finds it (bash -lc 'command -v svc')`,
    );
    assert.equal(
      describeInstallCli(r, '/usr/local/bin/svc', '/home/ada'),
      `${head}; but a login shell finds /usr/local/bin/svc first: remove that one, or put /home/ada/.local/bin before it on PATH`,
    );
    assert.equal(
      describeInstallCli(r, null, '/home/ada'),
      `${head}; but a login shell does not find it: /home/ada/.local/bin is not on its PATH; add it in ~/.profile: PATH="$HOME/.local/bin:$PATH", then log in again`,
    );
    assert.equal(
      describeInstallCli({ ...r, outcome: 'updated' }, undefined, '/home/ada'),
      'updated /home/ada/.local/bin/svc: runs /opt/svc/bin/svc with /usr/bin/node',
    );
  });
});
