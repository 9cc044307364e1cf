// `npm run demo:screenshots`: every README screenshot, taken from the demo's state (never
// from test fixtures) in a real VS Code — code-server with the packaged .vsix, the demo
// home as HOME and SVC_HOME, Debian's chromium with a wide sidebar. Run `npm run demo` and
// `npm run package` first. Writes docs/screenshots/deck.png (the nesting with verdict
// badges), inbox.png (the Inbox with the demo's open question), reviews.png (the review
// convoy with its verdict), conversation.png (a conversation with an answered request and
// an open one), agents.png (the Agents page),
// roles.png (the Roles panel); and run-record.png, the demo run's exported record (`svc
// run export`) opened from its file with the network cut (`--run-record-only` takes that
// one alone: it needs no code-server). Each screenshot's UI fingerprint goes into
// docs/screenshots/screenshots.json (scripts/demo/screenshotUi.ts), which the unit tier
// checks against the UI as it is.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { CODE_SERVER, HOME, REPO, SVC_HOME, startCodeServer, VSIX } from './codeServer';
import { launchBrowser } from '../../test/helpers/browser';
import { NEEDS_YOU_TITLE } from './needsYou';
import { MANIFEST, recordShots } from './screenshotUi';
import { runCommand } from '../../test/e2e/ui/workbench';

const SHOTS = path.join(REPO, 'docs', 'screenshots');

const sectionHeader = (page: Page, title: string) =>
  page.locator(`.sidebar .pane-header[aria-label="${title} Section"]`);

async function collapseSection(page: Page, title: string): Promise<void> {
  const header = sectionHeader(page, title);
  if ((await header.getAttribute('aria-expanded')) === 'true') await header.click();
}

/** No focus ring on the section header just clicked. */
async function unfocus(page: Page): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
}

/** The webview frame of the Conversation panel once it shows its open request. */
async function conversationFrame(page: Page): Promise<Frame> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    for (const f of page.frames())
      if (
        f !== page.mainFrame() &&
        (await f
          .locator('.needs-you')
          .count()
          .catch(() => 0))
      )
        return f;
    await page.waitForTimeout(200);
  }
  throw new Error('the conversation panel did not show its needs-you request within a minute');
}

/** The webview frame whose document holds `selector` (a panel that has drawn its content). */
async function frameWith(page: Page, selector: string): Promise<Frame> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    for (const f of page.frames())
      if (
        f !== page.mainFrame() &&
        (await f
          .locator(selector)
          .count()
          .catch(() => 0))
      )
        return f;
    await page.waitForTimeout(200);
  }
  throw new Error(`no panel drew ${selector} within a minute`);
}

/** The run record the demo exported, as a reader sees it: from its file, offline. */
async function runRecordShot(): Promise<void> {
  const file = path.join(HOME, 'svc-run-sample-demo.html');
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: run npm run demo first`);
  const browser = await launchBrowser(HOME);
  try {
    const context = await browser.newContext({
      offline: true,
      viewport: { width: 1100, height: 1400 },
      colorScheme: 'light',
    });
    const page = await context.newPage();
    await page.goto(`file://${file}`);
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS, 'run-record.png') });
    recordShots(['run-record.png']);
    process.stdout.write(
      `wrote ${path.relative(REPO, path.join(SHOTS, 'run-record.png'))} from the demo's run record\n`,
    );
  } finally {
    await browser.close().catch(() => undefined);
  }
}

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(SVC_HOME, 'svc.db'))) throw new Error('no demo state: run npm run demo first');
  await runRecordShot();
  if (process.argv.includes('--run-record-only')) return;
  if (!fs.existsSync(CODE_SERVER)) throw new Error('code-server is not installed: run scripts/installCodeServer.sh');
  if (!fs.existsSync(VSIX)) throw new Error(`${VSIX} is missing: run npm run package`);
  const server = await startCodeServer({
    profile: 'code-server-shots',
    settings: { 'workbench.colorTheme': 'Default Dark Modern' },
    stderr: 'ignore',
  });
  const port = server.port;
  const browser = await launchBrowser(HOME);
  try {
    await server.ready(60_000);
    const page = await browser.newPage({ viewport: { width: 1500, height: 900 } });
    await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(path.join(HOME, 'sample'))}`, {
      timeout: 120_000,
    });
    await page.locator('.activitybar a.action-label[aria-label="svc"]').click({ timeout: 60_000 });
    // A wide sidebar: drag the sash between the sidebar and the editor.
    const box = (await page.locator('.part.sidebar').boundingBox())!;
    await page.mouse.move(box.x + box.width + 1, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + 620, box.y + box.height / 2, { steps: 10 });
    await page.mouse.up();
    const deck = page.locator('.sidebar .pane', {
      has: page.locator('.pane-header[aria-label="Command Deck Section"]'),
    });
    await deck
      .locator('.monaco-list-row[role="treeitem"] [class*="-itemBadge-"]')
      .first()
      .waitFor({ state: 'attached', timeout: 60_000 });
    await collapseSection(page, 'Awareness');
    await collapseSection(page, 'Reviews');
    await unfocus(page);
    await page.waitForTimeout(1000);
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS, 'deck.png') });

    // The Inbox alone: the demo's open question, its row's actions shown on hover.
    await collapseSection(page, 'Command Deck');
    const inboxHeader = sectionHeader(page, 'Inbox');
    if ((await inboxHeader.getAttribute('aria-expanded')) !== 'true') await inboxHeader.click();
    const inboxRow = page
      .locator('.sidebar .pane', { has: page.locator('.pane-header[aria-label="Inbox Section"]') })
      .locator('.monaco-list-row[role="treeitem"]', { hasText: 'Push greet.sh to origin/main?' });
    await inboxRow.waitFor({ timeout: 60_000 });
    await unfocus(page);
    await inboxRow.hover();
    await page.waitForTimeout(1000);
    await page.screenshot({ path: path.join(SHOTS, 'inbox.png') });
    await page.mouse.move(1400, 800);
    await collapseSection(page, 'Inbox');

    const reviewsHeader = sectionHeader(page, 'Reviews');
    if ((await reviewsHeader.getAttribute('aria-expanded')) !== 'true') await reviewsHeader.click();
    const reviews = page.locator('.sidebar .pane', { has: page.locator('.pane-header[aria-label="Reviews Section"]') });
    await reviews
      .locator('.monaco-list-row[role="treeitem"] .label-name', { hasText: /^review r\d+ \((full|quick)\)$/ })
      .first()
      .waitFor({ timeout: 60_000 });
    await unfocus(page);
    await page.waitForTimeout(1000);
    await page.screenshot({ path: path.join(SHOTS, 'reviews.png') });

    // The conversation that needs you: its row in the deck opens it; the answered request, the
    // tool call it allowed, and the open one with its answers as buttons.
    await collapseSection(page, 'Reviews');
    const deckHeader = sectionHeader(page, 'Command Deck');
    if ((await deckHeader.getAttribute('aria-expanded')) !== 'true') await deckHeader.click();
    // A double-click: the tab is kept, not a preview.
    await deck
      .locator('.monaco-list-row[role="treeitem"]', {
        has: page.locator('.label-name', { hasText: new RegExp(`^${NEEDS_YOU_TITLE.replace(/\./g, '\\.')}$`) }),
      })
      .dblclick({ timeout: 60_000 });
    const frame = await conversationFrame(page);
    await frame.locator('.transcript .ask-line', { hasText: 'answered' }).waitFor({ timeout: 60_000 });
    await frame.locator('header .preview-mark').waitFor({ state: 'detached', timeout: 10_000 });
    await page.waitForTimeout(1000);
    await page.screenshot({ path: path.join(SHOTS, 'conversation.png') });

    // The Agents page (every agent of the demo, nested as in the deck) and the Roles panel
    // (the demo project's gauntlet roles), each in an editor of its own.
    await runCommand(page, 'View: Close All Editors');
    await runCommand(page, 'svc: Open Agents Page');
    const agents = await frameWith(page, 'table.agents tbody tr');
    await agents.locator('.count').waitFor({ timeout: 60_000 });
    await unfocus(page);
    await page.waitForTimeout(1000);
    await page.screenshot({ path: path.join(SHOTS, 'agents.png') });
    await runCommand(page, 'View: Close All Editors');
    // The Roles table is wider than an editor beside the side bar: closed, every column shows.
    await runCommand(page, 'View: Close Primary Side Bar');
    await runCommand(page, 'svc: Open Roles');
    await frameWith(page, 'table[data-project] tr[data-row]');
    await unfocus(page);
    await page.waitForTimeout(1000);
    await page.screenshot({ path: path.join(SHOTS, 'roles.png') });
    const taken = ['deck.png', 'inbox.png', 'reviews.png', 'conversation.png', 'agents.png', 'roles.png'];
    recordShots(taken);
    process.stdout.write(
      `wrote ${taken.map((f) => path.relative(REPO, path.join(SHOTS, f))).join(', ')} from the demo state, and their UI fingerprints in ${path.relative(REPO, MANIFEST)}\n`,
    );
  } finally {
    await browser.close().catch(() => undefined);
    server.stop();
  }
}

main().catch((e) => {
  process.stderr.write(`demo:screenshots failed: ${(e as Error).message}\n`);
  process.exit(1);
});
