// The Inbox view in a real VS Code (code-server 4.100.3 in chromium): a script-harness
// builder lane asks before it acts; "svc: Open Inbox" shows its request as a row with the
// badge and the status bar item counting it; Answer on the row's hover answers it from its
// choices, and the lane goes on to report done. A second ask, with notifications on for
// needs-you, is answered from its notification's own Allow button.
// Runs last: it adds its own project and lane, and rewrites the window's user settings.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import YAML from 'yaml';
import type { InboxListResult } from '../../../shared/protocol/inbox';
import type { LaneRecord } from '../../../shared/protocol/lanes';
import { buildAndReport } from '../../helpers/lanes';
import { makeRepo } from '../../helpers/scratch';
import { scriptBlock } from '../../helpers/scriptBrief';
import type { Page } from 'playwright-core';
import { closeEditors, ok, startBuilder } from './cli';
import { session, timing } from './session';
import {
  activityBadge,
  clearNotifications,
  clickNotificationButton,
  hoverActions,
  quickPick,
  paneBody,
  revealRow,
  rowByDescription,
  rowByLabel,
  runCommand,
  screenshot,
  waitForMessage,
} from './workbench';

const LANE = 'ib-feat-builder-i1';
/** Replaces the user settings in VS Code's own settings.json editor, saves and closes it. */
async function writeUserSettings(page: Page, text: string): Promise<void> {
  await runCommand(page, 'Preferences: Open User Settings (JSON)');
  const editor = page.locator('.editor-instance .monaco-editor').first();
  await editor.waitFor();
  await editor.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(text);
  await page.keyboard.press('ControlOrMeta+S');
  await page.locator('.tabs-container .tab.active.dirty').waitFor({ state: 'detached' });
  await closeEditors();
}

const inbox = async () => JSON.parse(await ok(['inbox', '--json'])) as InboxListResult;

describe('the Inbox view: a needs-you request answered from it (code-server 4.100.3)', function () {
  this.timeout(120_000);

  before(async () => {
    const { cs } = session();
    const { dir } = makeRepo(cs.scratch, 'ib');
    await ok(['project', 'add', 'ib', dir]);
    // A builder of this project is stalled after 3 s without output (test-shortened stall_after).
    const file = path.join(cs.scratch.svcHome, 'projects.yaml');
    const doc = YAML.parseDocument(fs.readFileSync(file, 'utf8'));
    doc.setIn(['projects', 'ib', 'gauntlet', 'roles', 'builder', 'stall_after'], '3s');
    fs.writeFileSync(file, doc.toString());
  });

  it("shows a lane's request in the Inbox with badge and status bar item; Answer on the row unblocks the lane", async () => {
    const { page } = session();
    const t = Date.now();
    const id = await startBuilder('ib', {
      title: 'inbox root',
      run: 'ib',
      key: 'feat',
      noWait: true,
      steps: [{ ask: 'Ship the inbox feature?' }, { run: buildAndReport('inbox.txt', 'answered from the inbox') }],
    });

    await runCommand(page, 'svc: Open Inbox');
    const row = rowByLabel(page, 'Inbox', 'permission: Ship the inbox feature?');
    await row.waitFor({ timeout: 30_000 });
    assert.match(
      (await row.locator('.label-description').textContent()) ?? '',
      new RegExp(`^lane ${LANE} · run ib · ib · \\d+s$`),
    );
    // Every item waiting counts: the badge and the status bar say what `svc inbox` lists.
    const n = (await inbox()).items.length;
    assert.ok(
      (await inbox()).items.some((i) => i.id === `ask-${id}`),
      'svc inbox lists the request',
    );
    await activityBadge(page)
      .filter({ hasText: new RegExp(`^${n}$`) })
      .waitFor({ timeout: 15_000 });
    await page
      .locator('.part.statusbar .statusbar-item[id$="svc.inbox"]', { hasText: new RegExp(`^\\s*${n}\\s*$`) })
      .waitFor();
    timing('request shown in the Inbox', t);

    await row.hover();
    assert.deepEqual(await hoverActions(row), ['Answer Needs-You Request…', 'Open Conversation']);
    await screenshot(page, '90-inbox-needs-you');
    await row.locator('.actions a.action-label[aria-label="Answer Needs-You Request…"]').click();
    await page.locator('.quick-input-widget .quick-input-title', { hasText: `svc: Answer #${id}: ` }).waitFor();
    await quickPick(page, 'Allow');
    await waitForMessage(page, new RegExp(`^svc: answered #${id}: `));
    await row.waitFor({ state: 'detached', timeout: 15_000 });

    // Unblocked: the lane ran its work and reported done.
    await ok(['lane', 'wait', LANE, '--timeout', '60']);
    const lane = (JSON.parse(await ok(['lane', 'list', '--run', 'ib', '--json'])) as LaneRecord[]).find(
      (l) => l.id === id,
    )!;
    assert.equal(lane.report?.status, 'done');
    assert.equal(fs.readFileSync(path.join(lane.cwd, 'inbox.txt'), 'utf8'), 'answered from the inbox\n');
    assert.ok(!(await inbox()).items.some((i) => i.id === `ask-${id}`), 'the request left svc inbox');
    await page.mouse.move(900, 600);
    await clearNotifications(page);
    timing('answered from the Inbox, lane reported done', t);
  });

  it('marks a working lane with no output past its stall_after: an Inbox row with Stop, and stalled in the deck', async () => {
    const { cs, page } = session();
    const gate = path.join(cs.scratch.home, 'ib-stall-gate');
    const id = await startBuilder('ib', {
      title: 'stall root',
      run: 'ibs',
      key: 'slow',
      steps: [{ run: `for i in $(seq 1 300); do [ -f '${gate}' ] && break; sleep 0.2; done` }, { say: 'went on' }],
    });
    const row = paneBody(page, 'Inbox').locator('.monaco-list-row[role="treeitem"]', {
      has: page.locator('.label-name', { hasText: /^stalled: working, no output or tool activity for \d+s$/ }),
    });
    await row.waitFor({ timeout: 30_000 });
    await row.hover();
    assert.deepEqual(await hoverActions(row), ['Stop Conversation', 'Open Conversation']);
    // The activity stays working: the stall is beside it, in the deck too.
    const deckRow = rowByDescription(page, 'Command Deck', `#${id} · `);
    await revealRow(page, 'Command Deck', deckRow);
    await deckRow.locator('.label-description', { hasText: new RegExp(`^#${id} · working · stalled`) }).waitFor();
    await screenshot(page, '92-inbox-stalled');
    // Output clears it.
    fs.writeFileSync(gate, '');
    await row.waitFor({ state: 'detached', timeout: 15_000 });
    await deckRow.locator('.label-description', { hasText: /· stalled/ }).waitFor({ state: 'detached' });
    await page.mouse.move(900, 600);
  });

  it('announces a new request with its choices as buttons, unless its kind is muted; Allow answers it', async () => {
    const { cs, page } = session();
    // The run's settings mute every kind (codeServer.ts): turn needs-you on, as a person would,
    // in the settings editor (VS Code applies what it saves at once; a file written behind
    // its back waits for a watcher).
    const settings = path.join(cs.userDataDir, 'User', 'settings.json');
    const was = fs.readFileSync(settings, 'utf8');
    const all = JSON.parse(was) as Record<string, unknown>;
    const muted = (all['svc.inbox.mutedKinds'] as string[]).filter((k) => k !== 'needs-you');
    await writeUserSettings(page, JSON.stringify({ ...all, 'svc.inbox.mutedKinds': muted }, null, 2));
    try {
      const created = JSON.parse(
        await ok([
          'conv',
          'new',
          '--project',
          'ib',
          '--harness',
          'script',
          '--model',
          'm',
          '--title',
          'inbox notice',
          '--prompt',
          scriptBlock([{ ask: 'Announce the inbox notice?' }, { say: 'announced' }]),
          '--no-wait',
          '--json',
        ]),
      ) as { conversation: { id: number; name: string } };
      const { id, name } = created.conversation;
      const text = `svc: ${name}: permission: Announce the inbox notice?`;
      await waitForMessage(page, text, 30_000);
      await screenshot(page, '91-inbox-notification');
      await clickNotificationButton(page, text, 'Allow');
      await waitForMessage(page, new RegExp(`^svc: answered #${id}: `));
      await rowByLabel(page, 'Inbox', 'permission: Announce the inbox notice?').waitFor({ state: 'detached' });
      assert.match(await ok(['conv', 'log', String(id)]), /announced/);
      await clearNotifications(page);
    } finally {
      await writeUserSettings(page, was);
    }
  });
});
