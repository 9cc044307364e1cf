// The palette offers what only the CLI could do (resume, unarchive, issue new /
// start / done, daemon restart), hides what does not apply (Start Daemon while connected,
// Abort Review with no review running, Create Issue and Launch Lane with no draft, the
// issue commands before an issue exists), and the two logs say which is which. Runs before
// any suite makes an issue or a review; it makes nothing itself.
import * as assert from 'node:assert/strict';
import { session } from './session';
import { openContainer, openPalette, paletteOffers, runCommand, screenshot } from './workbench';

describe('the palette: what applies, what only the CLI could do, and two logs named apart', function () {
  this.timeout(120_000);

  it('offers Resume, Unarchive, New Issue, Restart Daemon; hides what does not apply now', async () => {
    const { page } = session();
    await openContainer(page, 'svc');
    const offered = async (titles: string[]) => {
      const got: string[] = [];
      for (const t of titles) if (await paletteOffers(page, t)) got.push(t);
      return got;
    };
    const cliOnly = [
      'svc: Resume Conversation',
      'svc: Unarchive Conversation',
      'svc: New Issue…',
      'svc: Restart Daemon',
      'svc: Stop Daemon',
    ];
    assert.deepEqual(await offered(cliOnly), cliOnly);
    // Connected, no review running, no draft open, no issue yet.
    assert.deepEqual(
      await offered([
        'svc: Start Daemon',
        'svc: Abort Review',
        'svc: Create Issue',
        'svc: Launch Lane',
        'svc: Start Work Agent…',
        'svc: Mark Issue Done (Push, Open the PR)…',
      ]),
      [],
    );
    // As a person sees it: "svc: Abort" finds nothing while no review runs.
    await openPalette(page);
    await page.locator('.quick-input-widget input.input').fill('>svc: Abort');
    await page
      .locator('.quick-input-list .monaco-list-row .label-name', { hasText: /^svc: Abort/ })
      .waitFor({ state: 'detached' });
    await page.waitForTimeout(300);
    await screenshot(page, '47a-palette-hides-abort-review');
    await page.keyboard.press('Escape');
  });

  it("names the two logs apart: the daemon's file opens in an editor, the window's log in the Output panel", async () => {
    const { page } = session();
    // Both listed with the words that tell them apart.
    const input = page.locator('.quick-input-widget input.input');
    await openPalette(page);
    await input.fill('>svc: Show');
    const labels = page.locator('.quick-input-list .monaco-list-row .label-name');
    await labels.filter({ hasText: 'svc: Show Extension Log (This Window)' }).waitFor();
    const shown = (await labels.allTextContents())
      .map((l) => l.replace(/\s+/g, ' ').trim())
      .filter((l) => l.includes('Log'));
    assert.deepEqual(shown.sort(), [
      "svc: Show Daemon Log (the Daemon's File)",
      'svc: Show Extension Log (This Window)',
    ]);
    await screenshot(page, '47-palette-two-logs');
    await page.keyboard.press('Escape');

    await runCommand(page, "svc: Show Daemon Log (the Daemon's File)");
    await page.locator('.tabs-container .tab.active .label-name', { hasText: /^daemon\.log$/ }).waitFor();
    await runCommand(page, 'View: Close All Editors');

    await runCommand(page, 'svc: Show Extension Log (This Window)');
    // The Output panel on the svc channel: this window's connection to the daemon.
    await page.locator('.part.panel .view-lines', { hasText: '[connection] connected to daemon ' }).waitFor();
    assert.equal(
      await page
        .getByLabel('Output Section')
        .locator('select.monaco-select-box')
        .evaluate((el) => (el as HTMLSelectElement).selectedOptions[0]?.text),
      'svc',
    );
    await screenshot(page, '48-extension-log-in-output');
    await runCommand(page, 'View: Hide Panel');
  });
});
