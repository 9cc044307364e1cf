// The Conversation panel as a person meets it in a real VS Code (code-server 4.100.3 in
// chromium), with lanes started by `svc` and the `script` harness (test/e2e/ui/gauntletWorld.ts):
// a lane's activity turns needs-you live (row, status bar, activity badge) and back once
// answered from the panel, the composer sends like `svc tell`, and XSS payloads an agent
// wrote render as inert text.
import * as assert from 'node:assert/strict';
import type { Frame } from 'playwright-core';
import { closeEditors } from './cli';
import { askLane, gauntlet, xssLane } from './gauntletWorld';
import { session, timing } from './session';
import {
  activityBadge,
  openContainer,
  rowByDescription,
  rowIcon,
  screenshot,
  statusItem,
  themeColor,
  treeRows,
  webviewFrameWith,
} from './workbench';

describe('the Conversation panel: needs-you answered, the composer, XSS inert (code-server 4.100.3)', function () {
  this.timeout(120_000);
  let rootId = 0;
  let id: Record<string, number> = {};

  before(async () => {
    ({ rootId, id } = await gauntlet());
    await openContainer(session().page, 'svc');
  });

  it("turns a lane's activity to needs-you live, and back after answering from the Conversation panel", async () => {
    const { page } = session();
    const t = Date.now();
    await askLane();
    const row = rowByDescription(page, 'Command Deck', `#${id.ask} · `);
    await row
      .locator('.label-description', { hasText: new RegExp(`^#${id.ask} · needs-you( · ↑\\d+)?$`) })
      .waitFor({ timeout: 20_000 });
    // Activity icons are coloured by state: needs-you, idle (the root), and stopped once reaped (below).
    assert.deepEqual(await rowIcon(row), {
      codicon: 'bell-dot',
      color: await themeColor(page, 'list.warningForeground'),
    });
    assert.deepEqual(await rowIcon(rowByDescription(page, 'Command Deck', `#${rootId} · `)), {
      codicon: 'circle-large-outline',
      color: await themeColor(page, 'charts.green'),
    });
    assert.notEqual(await themeColor(page, 'list.warningForeground'), await themeColor(page, 'charts.green'));
    await statusItem(page)
      .filter({ hasText: /^\s*svc: 1 needs you\s*$/ })
      .waitFor();
    // The count on the activity-bar icon too, and the row pinned first under its launcher (the lanes before it follow).
    await activityBadge(page).filter({ hasText: /^1$/ }).waitFor({ timeout: 15_000 });
    assert.match((await treeRows(page, 'Command Deck'))[1].description, new RegExp(`^#${id.ask} · needs-you`));
    await screenshot(page, '12a-needs-you-badge-and-pinned');
    timing('lane needs-you shown', t);

    await row.click();
    const frame = await webviewFrameWith(page, '.needs-you', 'Proceed with the e2e lane?');
    assert.equal(await frame.locator('header .activity').textContent(), 'needs-you');
    assert.deepEqual(await frame.locator('.ask-options vscode-button').allTextContents(), ['Allow', 'Deny']);
    await screenshot(page, '12-conversation-needs-you');

    const t2 = Date.now();
    await frame.locator('.ask-options vscode-button', { hasText: 'Allow' }).click();
    (await gauntlet()).askAnswered = true;
    await row
      .locator('.label-description', { hasText: new RegExp(`^#${id.ask} · idle( · ↑\\d+)?$`) })
      .waitFor({ timeout: 15_000 });
    await statusItem(page)
      .filter({ hasText: /^\s*svc\s*$/ })
      .waitFor();
    await activityBadge(page).filter({ hasText: /^1$/ }).waitFor({ state: 'hidden', timeout: 15_000 });
    await frame.locator('header .activity[data-activity="idle"]').waitFor();
    assert.equal(await frame.locator('.needs-you').count(), 0);
    await frame.locator('.transcript .ask-line', { hasText: 'answered: Allow' }).waitFor();
    await frame.locator('.transcript .message', { hasText: 'proceeding' }).waitFor();
    timing('answered from the panel, deck back to idle', t2);

    // The composer sends like `svc tell`: the prompt shows in the transcript.
    await frame.locator('.composer vscode-textarea textarea').fill('hello from the composer');
    await frame.locator('.composer vscode-button', { hasText: 'Send' }).click();
    await frame.locator('.composer-status', { hasText: /^Sent\.$/ }).waitFor({ timeout: 15_000 });
    await frame.locator('.transcript .prompt', { hasText: 'hello from the composer' }).waitFor();
    assert.equal(await frame.locator('.composer vscode-textarea textarea').inputValue(), '');
    await screenshot(page, '13-conversation-answered-and-told');
    await closeEditors();
  });

  it('renders XSS payloads in a report body and in a transcript as inert text', async () => {
    const { page } = session();
    await xssLane();

    // A click that lands while the tree re-renders (the lane just reported) can be lost, and
    // under load code-server now and then leaves a new webview blank: close it, click again once.
    await rowByDescription(page, 'Command Deck', `#${id.xss} · `).click();
    const frame = await webviewFrameWith(page, 'header .facts', `#${id.xss} r1-xss-builder-i1`, 10_000).catch(
      async () => {
        await closeEditors();
        await rowByDescription(page, 'Command Deck', `#${id.xss} · `).click();
        return webviewFrameWith(page, 'header .facts', `#${id.xss} r1-xss-builder-i1`);
      },
    );
    await frame.locator('.report', { hasText: 'XSS-MARK' }).waitFor();
    await frame.locator('.transcript .message', { hasText: 'XSS-MARK' }).waitFor();
    await page.waitForTimeout(500); // an onerror or onload would have run by now
    const dom = await inertCheck(frame);
    assert.deepEqual(dom.found, {
      xss: 'undefined',
      embedded: 0,
      scriptsInPage: 0,
      payloadScripts: 0,
      handlers: 0,
      jsLinks: 0,
    });
    for (const where of ['report', 'message']) {
      const text = dom.text[where];
      assert.ok(
        text.includes("XSS-MARK <img src=x onerror=\"window.__xss='img'\"> and <script>window.__xss='script'</script>"),
        `${where}: ${text}`,
      );
      assert.ok(text.includes("[click me](javascript:window.__xss='link')"), `${where}: ${text}`);
    }
    assert.equal(await frame.locator('header h1').textContent(), 'xss <img src=x onerror="window.__xss=\'title\'">');
    await screenshot(page, '14-xss-inert-in-conversation');
    await closeEditors();
  });
});

async function inertCheck(frame: Frame): Promise<{ found: Record<string, unknown>; text: Record<string, string> }> {
  return frame.evaluate(() => ({
    found: {
      xss: typeof (window as unknown as { __xss?: unknown }).__xss,
      embedded: document.querySelectorAll('img, svg, iframe, object, embed').length,
      scriptsInPage: document.querySelectorAll('#root script').length,
      payloadScripts: Array.from(document.scripts).filter((s) => (s.textContent ?? '').includes('__xss')).length,
      handlers: document.querySelectorAll('[onerror], [onload], [onclick]').length,
      jsLinks: document.querySelectorAll('a[href^="javascript" i]').length,
    },
    text: {
      report: document.querySelector('.report .md')?.textContent ?? '',
      message: document.querySelector('.transcript .message')?.textContent ?? '',
    },
  }));
}
