// Reaping and archiving from the Command Deck in a real VS Code (code-server 4.100.3 in
// chromium), on the gauntlet's lanes (test/e2e/ui/gauntletWorld.ts): Reap Lane… from the
// palette with and without --keep, a plain reap of uncommitted work refused with "Reap with
// Park", the deck's "Show Archived" and "Live Only" toggles, and Unarchive on hover.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeBrief } from '../../helpers/scriptBrief';
import { closeEditors } from './cli';
import { apiAndCritic, askAnswered, gauntlet, lanes, startLane, xssLane } from './gauntletWorld';
import { session } from './session';
import {
  clearNotifications,
  clickNotificationButton,
  clickViewAction,
  contextMenuItem,
  openContainer,
  quickPick,
  rowByDescription,
  rowIcon,
  runCommand,
  screenshot,
  themeColor,
  waitForMessage,
} from './workbench';

describe('reaping, parking and archiving from the Command Deck (code-server 4.100.3)', function () {
  this.timeout(120_000);
  let briefs = '';
  let id: Record<string, number> = {};

  // The lanes it reaps: the tests of the suites before this one started them.
  before(async () => {
    ({ briefs, id } = await gauntlet());
    await openContainer(session().page, 'svc');
    await apiAndCritic();
    await askAnswered();
    await xssLane();
  });

  it('reaps lanes from the palette: --keep leaves the row, marked reaped; a plain reap archives it out of the deck', async () => {
    const { page } = session();
    const title = Object.fromEntries((await lanes()).map((l) => [l.id, l.title]));
    await runCommand(page, 'svc: Reap Lane…');
    await quickPick(page, title[id.ask]);
    await quickPick(page, 'Reap, keeping it in the Command Deck');
    const kept = await waitForMessage(page, `svc: reaped conv ${id.ask} (r1-ask-builder-i1)`, 45_000);
    assert.match(kept, new RegExp(`; kept conv ${id.ask} in the Command Deck \\(--keep\\)$`));
    await rowByDescription(page, 'Command Deck', `#${id.ask} · `)
      .locator('.label-description', { hasText: new RegExp(`^#${id.ask} · stopped( · .*)? · reaped$`) })
      .waitFor();
    assert.deepEqual(await rowIcon(rowByDescription(page, 'Command Deck', `#${id.ask} · `)), {
      codicon: 'circle-slash',
      color: await themeColor(page, 'disabledForeground'),
    });
    await clearNotifications(page);

    await runCommand(page, 'svc: Reap Lane…');
    await quickPick(page, title[id.xss]);
    await quickPick(page, 'Reap');
    const archived = await waitForMessage(page, `svc: reaped conv ${id.xss} (r1-xss-builder-i1)`, 45_000);
    assert.match(archived, new RegExp(`; archived conv ${id.xss}$`));
    await rowByDescription(page, 'Command Deck', `#${id.xss} · `).waitFor({ state: 'detached' });
    const listed = (await lanes()).find((l) => l.id === id.xss)!;
    assert.deepEqual(
      [listed.archived, listed.reaped, listed.activity],
      [true, true, 'stopped'],
      'an archived lane stays in the lane list',
    );
    await screenshot(page, '18-reaped-kept-and-archived');
    await clearNotifications(page);
  });

  it('a plain Reap of a lane with uncommitted work is refused with "Reap with Park" (nothing stopped when the deck knows); a park offers Open Patch and Copy Restore Command', async () => {
    const { page } = session();
    // The agent leaves work uncommitted, so the deck knows the tree is dirty when it goes idle.
    id.wip = await startLane([
      '--run',
      'r1',
      '--key',
      'wip',
      '--role',
      'builder',
      '--brief',
      writeBrief(briefs, 'wip.md', [{ run: "printf 'half done\\n' > wip.txt" }, { say: 'paused' }]),
    ]);
    const row = rowByDescription(page, 'Command Deck', `#${id.wip} · `);
    await row.locator('.label-description', { hasText: / · idle( · .*)? · dirty$/ }).waitFor({ timeout: 30_000 });
    await contextMenuItem(page, row, 'Reap Lane…');
    await quickPick(page, 'Reap');
    const refusal = await waitForMessage(
      page,
      `svc: #${id.wip} r1-wip-builder-i1 has uncommitted work, so a plain reap is refused`,
    );
    assert.equal(
      refusal,
      `svc: #${id.wip} r1-wip-builder-i1 has uncommitted work, so a plain reap is refused; nothing was stopped or removed. Park the work in a patch and reap?`,
    );
    const still = (await lanes()).find((l) => l.id === id.wip)!;
    assert.deepEqual([still.activity, still.reaped], ['idle', false], 'the refusal came before anything was stopped');
    await screenshot(page, '18a-reap-refused-offers-park');
    await clickNotificationButton(page, 'so a plain reap is refused', 'Reap with Park');
    const parked = await waitForMessage(page, `svc: reaped conv ${id.wip} (r1-wip-builder-i1)`, 45_000);
    const patchFile = /; parked 1 path in ([^;]+);\s+restore with: /.exec(parked)?.[1];
    assert.ok(patchFile && fs.existsSync(patchFile), parked);
    assert.match(fs.readFileSync(patchFile, 'utf8'), /\+half done/);
    await screenshot(page, '18b-parked-offers-patch-and-restore');
    await clickNotificationButton(page, `svc: reaped conv ${id.wip}`, 'Copy Restore Command');
    const copied = await waitForMessage(page, /^svc: copied the restore command: /);
    assert.ok(parked.includes(`restore with: ${copied.replace(/^svc: copied the restore command: /, '')}`), copied);

    // A lane the deck does not know is dirty (the file came from outside): the daemon's typed refusal offers the same.
    id.wip2 = await startLane([
      '--run',
      'r1',
      '--key',
      'wip2',
      '--role',
      'builder',
      '--brief',
      writeBrief(briefs, 'wip2.md', [{ say: 'ready' }]),
    ]);
    await rowByDescription(page, 'Command Deck', `#${id.wip2} · `)
      .locator('.label-description', { hasText: / · idle/ })
      .waitFor({ timeout: 30_000 });
    const wip2 = (await lanes()).find((l) => l.id === id.wip2)!;
    fs.writeFileSync(path.join(wip2.cwd, 'outside.txt'), 'from outside\n');
    await contextMenuItem(page, rowByDescription(page, 'Command Deck', `#${id.wip2} · `), 'Reap Lane…');
    await quickPick(page, 'Reap');
    await waitForMessage(
      page,
      new RegExp(
        `^svc: ${wip2.cwd.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} has uncommitted work \\(1 path\\); commit it, or reap with --park`,
      ),
      45_000,
    );
    await clickNotificationButton(page, 'has uncommitted work (1 path)', 'Reap with Park');
    const parked2 = await waitForMessage(page, `svc: reaped conv ${id.wip2} (r1-wip2-builder-i1)`, 45_000);
    await clickNotificationButton(page, `svc: reaped conv ${id.wip2}`, 'Open Patch');
    const patch2 = /; parked 1 path in ([^;]+); /.exec(parked2)![1];
    await page
      .locator('.tabs-container .tab.active .label-name', { hasText: path.basename(patch2) })
      .waitFor({ timeout: 15_000 });
    await screenshot(page, '18c-parked-patch-open');
    await clearNotifications(page);
    await closeEditors();
  });

  it('"Show Archived" and "Live Only" toggle from the deck\'s title bar', async () => {
    const { page } = session();
    const xss = () => rowByDescription(page, 'Command Deck', `#${id.xss} · `);
    const ask = () => rowByDescription(page, 'Command Deck', `#${id.ask} · `);
    await clickViewAction(page, 'Command Deck', 'Show Archived');
    await xss()
      .locator('.label-description', {
        hasText: new RegExp(`^#${id.xss} · stopped \\(archived\\) · reported failed · builder i1 · reaped$`),
      })
      .waitFor();
    await screenshot(page, '19-deck-show-archived');
    await clickViewAction(page, 'Command Deck', 'Hide Archived');
    await xss().waitFor({ state: 'detached' });

    await clickViewAction(page, 'Command Deck', 'Live Only');
    await ask().waitFor({ state: 'detached' });
    assert.equal(await rowByDescription(page, 'Command Deck', `#${id.api} · `).count(), 1, 'a live lane stays');
    await screenshot(page, '19b-deck-live-only');
    await clickViewAction(page, 'Command Deck', 'Show Stopped Too');
    await ask().waitFor();
  });

  it('an archived row offers Unarchive on hover: it comes back into the deck', async () => {
    const { page } = session();
    const xss = () => rowByDescription(page, 'Command Deck', `#${id.xss} · `);
    await clickViewAction(page, 'Command Deck', 'Show Archived');
    await xss()
      .locator('.label-description', { hasText: /\(archived\)/ })
      .waitFor();
    await xss().hover();
    const actions = xss().locator('.actions a.action-label');
    await actions.first().waitFor();
    assert.deepEqual(await actions.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label'))), [
      'Unarchive Conversation',
    ]);
    await screenshot(page, '19c-deck-unarchive-on-hover');
    await actions.first().click();
    await waitForMessage(page, `svc: unarchived #${id.xss} (r1-xss-builder-i1); it is back in the Command Deck.`);
    await xss()
      .locator('.label-description', {
        hasText: new RegExp(`^#${id.xss} · stopped · reported failed · builder i1 · reaped$`),
      })
      .waitFor({ timeout: 15_000 });
    await clickViewAction(page, 'Command Deck', 'Hide Archived');
    await xss()
      .locator('.label-description', {
        hasText: new RegExp(`^#${id.xss} · stopped · reported failed · builder i1 · reaped$`),
      })
      .waitFor();
    assert.equal((await lanes()).find((l) => l.id === id.xss)!.archived, false);
    await page.mouse.move(900, 600);
    await clearNotifications(page);
  });
});
