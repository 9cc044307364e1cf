// The extension in a real VS Code (code-server 1.100.3 in chromium): the activity-bar
// container and its views render, the daemon connects, palette commands answer, and the
// window says why while the daemon is down and reconnects when it comes back.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SUPPORTED_NODE, nativeBinaryPath } from '../../../shared/node/supportedNode';
import { git } from '../../helpers/scratch';
import { ok, svc } from './cli';
import { installedExtensionDir } from './codeServer';
import { session, timing } from './session';
import {
  clearNotifications,
  openContainer,
  paneBody,
  paneTitles,
  runCommand,
  screenshot,
  statusItem,
  viewTitleIcons,
  waitForMessage,
  webviewFrame,
  webviewFrameWith,
} from './workbench';
import type { Page } from 'playwright-core';

/** The "daemon is not connected" notices on screen. */
const notDaemonNotices = (page: Page) =>
  page.locator('.notifications-toasts .notification-list-item-message', {
    hasText: 'the svc daemon is not connected',
  });

describe('svc in VS Code (code-server 4.100.3)', function () {
  this.timeout(60_000);

  it('shipped the shim executable, the codicons and the SQLite module for every supported Node in the .vsix', () => {
    const dir = installedExtensionDir(session().cs);
    const shim = fs.statSync(path.join(dir, 'bin', 'svc'));
    assert.ok(shim.mode & 0o100, `bin/svc mode ${(shim.mode & 0o777).toString(8)} is not executable`);
    for (const f of [
      'dist/extension.js',
      'dist/daemon.js',
      'dist/svc.js',
      'dist/webview/awarenessMain.js',
      'dist/webview/conversationMain.js',
      'dist/webview/agentsMain.js',
      'shared/skills/svc-gauntlet-loop/SKILL.md',
      'dist/codicons/codicon.css',
      'dist/codicons/codicon.ttf',
      ...SUPPORTED_NODE.map((n) => `dist/${nativeBinaryPath(process.platform, process.arch, n.abi)}`),
    ]) {
      assert.ok(fs.existsSync(path.join(dir, f)), `${f} missing from the installed extension`);
    }
    assert.ok(
      !fs.existsSync(path.join(dir, 'extension', 'extension.ts')),
      'sources must not ship (the .vscodeignore allow-list)',
    );
  });

  it('shows the svc container with the Inbox, Command Deck, Awareness and Reviews views', async () => {
    const { page } = session();
    const t = Date.now();
    await openContainer(page, 'svc');
    await page.locator('.sidebar .pane-header[aria-label="Reviews Section"]').waitFor();
    assert.deepEqual(await paneTitles(page), ['Inbox', 'Command Deck', 'Awareness', 'Reviews']);
    // At most four icons in the deck's title bar (the rest under "…"), so its name is never cut to "COMM…".
    const icons = await viewTitleIcons(page, 'Command Deck');
    // Collapse All shows once the tree has rows.
    assert.deepEqual(
      icons.filter((i) => i !== 'Collapse All'),
      ['New Conversation', 'Start Lane… (Ctrl+Alt+S L)', 'Live Only', 'More Actions...'],
    );
    const title = page.locator('.sidebar .pane-header[aria-label="Command Deck Section"] .title');
    assert.ok(await title.evaluate((el) => el.scrollWidth <= el.clientWidth), 'the Command Deck title is shown whole');
    await screenshot(page, '00-command-deck-title-bar');
    timing('open the svc container', t);
  });

  it('connects to the daemon: status bar, empty Command Deck, Reviews and Awareness say so', async () => {
    const { page, cs } = session();
    const t = Date.now();
    await statusItem(page)
      .filter({ hasText: /^\s*svc\s*$/ })
      .waitFor({ timeout: 30_000 });
    await paneBody(page, 'Command Deck').getByText('No conversations yet.', { exact: false }).waitFor();
    await paneBody(page, 'Reviews').getByText('No reviews yet.', { exact: false }).waitFor();
    const frame = await webviewFrame(page, '.daemon[data-state="connected"]');
    assert.equal(await frame.locator('.runs .empty').textContent(), 'No gauntlet runs yet');
    assert.match((await frame.locator('.daemon').textContent()) ?? '', /^daemon 0\.1\.0 · 0 live of 0 conversations$/);
    timing('daemon connected and views filled', t);
    // The window started the daemon in the scratch SVC_HOME (passed through code-server's environment).
    assert.ok(fs.existsSync(path.join(cs.scratch.svcHome, 'server.json')), 'no server.json in the scratch SVC_HOME');
    await screenshot(page, '01-svc-container-connected');
  });

  it('runs "svc: Show Daemon Status" from the palette', async () => {
    const { page } = session();
    await runCommand(page, 'svc: Show Daemon Status');
    const text = await waitForMessage(page, /^svc daemon 0\.1\.0 \(build [0-9a-f]{12}\), pid \d+/);
    assert.match(text, /: 0 conversations, 0 live\. SVC_HOME .*\/home\/\.svc$/);
    await screenshot(page, '02-daemon-status-message');
    await clearNotifications(page);
  });

  it('shows a script conversation in the Command Deck and its needs-you live, from notifications', async () => {
    const { page, cs } = session();
    git(cs.workspace, cs.scratch.env, 'init', '--quiet', '--initial-branch=main');
    await ok(['project', 'add', 'e2e', cs.workspace]);
    const t = Date.now();
    const prompt = ['```svc-script', '- say: hello from the e2e', '- ask: Proceed with the e2e?', '```'].join('\n');
    const created = JSON.parse(
      await ok([
        'conv',
        'new',
        '--project',
        'e2e',
        '--harness',
        'script',
        '--model',
        'm1',
        '--title',
        'e2e root',
        '--prompt',
        prompt,
        '--no-wait',
        '--json',
      ]),
    ) as { conversation: { id: number } };
    const id = created.conversation.id;
    const row = page.locator('.sidebar .monaco-list-row[role="treeitem"]', {
      has: page.locator('.label-name', { hasText: /^e2e root$/ }),
    });
    await row.locator('.label-description', { hasText: `#${id} · needs-you` }).waitFor({ timeout: 20_000 });
    assert.equal(await row.getAttribute('aria-level'), '1');
    await statusItem(page)
      .filter({ hasText: /^\s*svc: 1 needs you\s*$/ })
      .waitFor();
    const frame = await webviewFrame(page, '.daemon[data-state="connected"]');
    await frame.locator('.daemon', { hasText: /· 1 live of 1 conversation$/ }).waitFor();
    timing('conversation row with needs-you shown', t);
    await screenshot(page, '03-conversation-needs-you');

    const t2 = Date.now();
    await ok(['conv', 'answer', String(id), '--allow']);
    await row.locator('.label-description', { hasText: new RegExp(`^#${id} · idle$`) }).waitFor({ timeout: 15_000 });
    await statusItem(page)
      .filter({ hasText: /^\s*svc\s*$/ })
      .waitFor();
    timing('needs-you cleared after the answer', t2);

    // A click opens the conversation's panel with its transcript.
    await row.click();
    const panel = await webviewFrameWith(page, '.transcript .message', 'hello from the e2e', 15_000);
    assert.equal(await page.locator('.tabs-container .tab.active .label-name').textContent(), `#${id} e2e root`);
    await panel.locator('.transcript .ask-line', { hasText: 'answered: ' }).waitFor();
    await screenshot(page, '03b-conversation-panel');
    await runCommand(page, 'View: Close All Editors');

    await ok(['conv', 'stop', String(id)]);
    await row.locator('.label-description', { hasText: new RegExp(`^#${id} · stopped$`) }).waitFor({ timeout: 15_000 });
    await frame.locator('.daemon', { hasText: /· 0 live of 1 conversation$/ }).waitFor();
    await ok(['conv', 'archive', String(id)]);
    await paneBody(page, 'Command Deck')
      .getByText('No conversations yet.', { exact: false })
      .waitFor({ timeout: 15_000 });
  });

  it('says why while the daemon is down, and reconnects when it is back', async () => {
    const { page } = session();
    const stop = await svc(['daemon', 'stop']);
    assert.equal(stop.code, 0, stop.stderr);
    const t = Date.now();
    await statusItem(page)
      .filter({ hasText: /^\s*svc: daemon down\s*$/ })
      .waitFor({ timeout: 15_000 });
    await paneBody(page, 'Command Deck').getByText('The svc daemon is not connected', { exact: false }).waitFor();
    const frame = await webviewFrame(page, '.daemon[data-state="down"]');
    assert.match((await frame.locator('.daemon').textContent()) ?? '', /^daemon not connected: /);
    timing('daemon stop seen by the window', t);

    await runCommand(page, 'svc: Show Daemon Status');
    const why = await waitForMessage(page, 'svc: cannot show the daemon status: the svc daemon is not connected:');
    assert.match(
      why,
      /the svc daemon is not connected: (the connection to the daemon closed \(it stopped or restarted\)|no daemon is running for .*\/home\/\.svc)\./,
    );
    await screenshot(page, '04-daemon-down');
    await clearNotifications(page);
    // Every command that needs the daemon says why, instead of asking for input first.
    await runCommand(page, 'svc: Start Lane…');
    await waitForMessage(page, 'svc: cannot start a lane: the svc daemon is not connected:');
    await runCommand(page, 'svc: Open Agents Page');
    await waitForMessage(page, 'svc: cannot open the Agents page: the svc daemon is not connected:');
    assert.equal(await notDaemonNotices(page).count(), 1, 'one notice, saying the newest refusal');

    // Someone else starts it again (here the shim): the window re-attaches by itself.
    const t2 = Date.now();
    const status = await svc(['daemon', 'status']);
    assert.equal(status.code, 0, status.stderr);
    await statusItem(page)
      .filter({ hasText: /^\s*svc\s*$/ })
      .waitFor({ timeout: 20_000 });
    await webviewFrame(page, '.daemon[data-state="connected"]');
    await paneBody(page, 'Command Deck').getByText('No conversations yet.', { exact: false }).waitFor();
    timing('re-attached after the daemon came back', t2);
    // The notice closed itself: nothing stale still says the daemon is not connected.
    await notDaemonNotices(page).waitFor({ state: 'detached', timeout: 10_000 });
    await screenshot(page, '05-reconnected');
  });
});
