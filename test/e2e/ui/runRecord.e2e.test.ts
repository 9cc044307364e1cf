// Spend caps and the run record as a person meets them in a real VS Code (code-server
// 4.100.3 in chromium): the Awareness card shows the run's spend, its context menu exports
// the run record through the save dialog, and the page then opens from its file with the
// network cut (the screenshot the suite keeps: run-record-page.png).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildAndReport, judgeAndReport } from '../../helpers/lanes';
import { makeRepo } from '../../helpers/scratch';
import { writeBrief } from '../../helpers/scriptBrief';
import { ok, svc } from './cli';
import { session } from './session';
import {
  clearNotifications,
  clickNotificationButton,
  openContainer,
  screenshot,
  SCREENSHOTS,
  setPaneExpanded,
  waitForMessage,
  webviewFrame,
} from './workbench';

describe('spend caps and the run record in VS Code (code-server 4.100.3)', function () {
  this.timeout(120_000);

  let root = '';

  // Leave the shared deck as it was: the suites after this one find their rows in a deck
  // that shows only so many (the lanes reaped and archived, the root stopped and archived).
  after(async () => {
    for (const lane of ['rr1-greet-critic-i1', 'rr1-greet-builder-i1']) await ok(['lane', 'reap', lane]);
    await svc(['lane', 'reap', 'rr1-cap-builder-i1']); // there only if its test got that far
    if (root) {
      await ok(['conv', 'stop', root]);
      await ok(['conv', 'archive', root]);
    }
  });

  before(async () => {
    const { cs } = session();
    const { dir } = makeRepo(cs.scratch, 'rr');
    await ok(['project', 'add', 'rr', dir]);
    const created = JSON.parse(
      await ok([
        'conv',
        'new',
        '--project',
        'rr',
        '--harness',
        'script',
        '--model',
        'm',
        '--title',
        'record root',
        '--prompt',
        'I orchestrate.',
        '--json',
      ]),
    ) as {
      conversation: { id: number };
    };
    root = String(created.conversation.id);
    const briefs = path.join(cs.scratch.home, 'rr-briefs');
    const start = (args: string[]) =>
      ok(['lane', 'start', '--parent', root, '--harness', 'script', '--model', 'm', '--run', 'rr1', ...args]);
    await start([
      '--key',
      'greet',
      '--role',
      'builder',
      '--budget',
      '1',
      '--brief',
      writeBrief(briefs, 'b.md', [{ cost: 0.3 }, { run: buildAndReport('greet.txt', 'hello'), check: true }]),
    ]);
    assert.equal((await svc(['lane', 'wait', 'rr1-greet-builder-i1', '--timeout', '60'])).code, 0);
    await start([
      '--for',
      'greet',
      '--role',
      'critic',
      '--brief',
      writeBrief(briefs, 'c.md', [{ run: judgeAndReport('NOT_YET', 2), check: true }]),
    ]);
    assert.equal((await svc(['lane', 'wait', 'rr1-greet-critic-i1', '--timeout', '60'])).code, 0);
  });

  it("shows the run's spend on its Awareness card and exports the run record from the card's context menu", async () => {
    const { page, cs, browser } = session();
    await clearNotifications(page);
    await openContainer(page, 'svc');
    await setPaneExpanded(page, 'Awareness', true);
    const frame = await webviewFrame(page, 'article.card[data-project="rr"][data-run="rr1"] .spend');
    const card = frame.locator('article.card[data-project="rr"][data-run="rr1"]');
    assert.equal(await card.locator('.spend').textContent(), '$0.30 spent');

    await card.click({ button: 'right' });
    const menu = page.locator('.context-view .monaco-menu');
    const action = menu.locator('.action-item .action-label', { hasText: /^Export Run Record…$/ });
    // As contextMenuItem does for tree rows: a click right after the menu opens can be lost.
    await action.hover();
    await page.waitForTimeout(150);
    for (let attempt = 0; ; attempt++) {
      await action.click();
      try {
        await menu.waitFor({ state: 'detached', timeout: 1500 });
        break;
      } catch (e) {
        if (attempt >= 3) throw e;
      }
    }
    // The save dialog (code-server's own, a quick input) offers the workspace folder and the page's name.
    const input = page.locator('.quick-input-widget input.input');
    await input.waitFor();
    const file = path.join(cs.workspace, 'svc-run-rr-rr1.html');
    // It fills in the folder first and the name a moment later.
    const deadline = Date.now() + 10_000;
    while (!(await input.inputValue()).endsWith('/svc-run-rr-rr1.html') && Date.now() < deadline)
      await page.waitForTimeout(100);
    assert.ok((await input.inputValue()).endsWith('/svc-run-rr-rr1.html'), await input.inputValue());
    await input.press('Enter');
    await waitForMessage(page, `svc: run record of rr/rr1 saved to ${file}`, 30_000);
    const html = fs.readFileSync(file, 'utf8');
    assert.ok(html.includes('<code>i1 built → critic c1: NOT_YET (2 defects)</code>'));
    await screenshot(page, 'run-record-exported');

    // As a reader opens it: from the file, with the network cut; it asks for nothing else.
    const context = await browser.newContext({ offline: true, viewport: { width: 1100, height: 1300 } });
    try {
      const reader = await context.newPage();
      const requests: string[] = [];
      reader.on('request', (r) => requests.push(r.url()));
      await reader.goto(`file://${file}`);
      await reader.waitForLoadState('networkidle');
      assert.deepEqual(requests, [`file://${file}`]);
      assert.equal(await reader.locator('#cost tr.total td').nth(2).textContent(), '$0.30');
      fs.mkdirSync(SCREENSHOTS, { recursive: true });
      await reader.screenshot({ path: path.join(SCREENSHOTS, 'run-record-page.png'), fullPage: true });
    } finally {
      await context.close();
    }
  });

  it('tells the person when a lane they launched reaches its cap, with Raise Spend Cap… and Stop Lane', async () => {
    const { page, cs } = session();
    await clearNotifications(page);
    const brief = writeBrief(path.join(cs.scratch.home, 'rr-briefs'), 'cap.md', [{ cost: 0.5 }, { sleep: 60_000 }]);
    await ok([
      'lane',
      'start',
      '--parent',
      root,
      '--harness',
      'script',
      '--model',
      'm',
      '--run',
      'rr1',
      '--key',
      'cap',
      '--role',
      'builder',
      '--budget',
      '0.2',
      '--brief',
      brief,
    ]);
    const wait = await svc(['lane', 'wait', 'rr1-cap-builder-i1', '--timeout', '60']);
    assert.equal(wait.code, 4, wait.stderr);
    const notice =
      'svc: Lane rr1-cap-builder-i1 reached its spend cap: spent $0.50 of $0.20, its own cap (--budget or svc lane budget). — no turn runs until the cap is raised.';
    assert.equal(await waitForMessage(page, 'Lane rr1-cap-builder-i1 reached its spend cap', 30_000), notice);
    await clickNotificationButton(page, 'Lane rr1-cap-builder-i1 reached its spend cap', 'Stop Lane');
    // The notice's Stop Lane stops it (svc.stopConversation).
    const activity = async () =>
      (JSON.parse(await ok(['lane', 'list', '--json'])) as { name: string; activity: string }[]).find(
        (l) => l.name === 'rr1-cap-builder-i1',
      )?.activity;
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && (await activity()) !== 'stopped') await page.waitForTimeout(250);
    assert.equal(await activity(), 'stopped');
  });
});
