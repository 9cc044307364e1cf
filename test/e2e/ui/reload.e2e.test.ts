// State that survives a window reload in a real VS Code (code-server 4.100.3 in chromium),
// on the st world (test/e2e/ui/stateWorld.ts): the conversation, Agents and Roles panels
// come back with the page's draft and filter, and a preview tab comes back a preview.
import * as assert from 'node:assert/strict';
import { eventually } from '../../helpers/scratch';
import { closeEditors } from './cli';
import { session, timing } from './session';
import { openRoles, panelOf, stateWorld, tabs } from './stateWorld';
import {
  openContainer,
  quickPick,
  rowByDescription,
  runCommand,
  screenshot,
  setPaneExpanded,
  webviewFrame,
  webviewFrameWith,
} from './workbench';

describe('panels and their state across a window reload (code-server 4.100.3)', function () {
  this.timeout(120_000);
  let id: Record<string, number> = {};
  let title: Record<string, string> = {};

  before(async () => {
    ({ id, title } = await stateWorld());
  });

  it('brings the conversation, Agents and Roles panels back after a window reload, with the draft and the filter, a preview as a preview', async () => {
    const { page } = session();
    await closeEditors();
    await openRoles(page);
    await runCommand(page, 'svc: Open Agents Page');
    const agents = await webviewFrame(page, 'table.agents');
    // This suite's own critic: the suites before it leave other critics.
    await agents.locator('vscode-textfield input').fill('s1-api-critic');
    await agents.locator('.count', { hasText: /^1 of \d+ agents$/ }).waitFor();
    await runCommand(page, 'svc: Open Conversation');
    await quickPick(page, 'state root');
    const conv = await panelOf(page, id.root, 'state-root');
    await conv.locator('.composer vscode-textarea textarea').fill('a draft kept across the reload');
    // A row click opens the builder as a preview: it must come back a preview, not kept.
    const row = (conv: number) => rowByDescription(page, 'Command Deck', `#${conv} · `);
    await openContainer(page, 'svc');
    await setPaneExpanded(page, 'Awareness', false);
    await setPaneExpanded(page, 'Reviews', false);
    await row(id.builder).click();
    await (
      await panelOf(page, id.builder, 's1-api-builder-i1')
    )
      .locator('header .preview-mark', { hasText: /^Preview$/ })
      .waitFor();
    // The side bar as the later tests expect it, before the layout is saved with the reload.
    await setPaneExpanded(page, 'Awareness', true);
    await setPaneExpanded(page, 'Reviews', true);
    await page.locator('.tabs-container .tab', { hasText: `#${id.root} state root` }).click();
    // The page keeps its state on input; give the host a moment to persist it.
    await page.waitForTimeout(500);
    const before = await tabs(page);
    assert.deepEqual(before, [
      'svc Roles',
      'svc Agents',
      `#${id.root} state root`,
      `#${id.builder} ${title[id.builder]}`,
    ]);

    const t = Date.now();
    // As a person reloads: the command saves the workbench state (the panels' page state in it) first.
    await Promise.all([page.waitForEvent('load', { timeout: 120_000 }), runCommand(page, 'Developer: Reload Window')]);
    await page.locator('.monaco-workbench .part.activitybar').waitFor({ timeout: 60_000 });
    await eventually(
      async () => JSON.stringify(await tabs(page)) === JSON.stringify(before),
      30_000,
      `the tabs ${before.join(', ')} after the reload`,
    );
    // The extension host starts again and reconnects (slow on a loaded machine) before the panel can be filled.
    const again = await webviewFrameWith(page, 'header .facts', `#${id.root} state-root`, 90_000);
    assert.equal(
      await again.locator('.composer vscode-textarea textarea').inputValue(),
      'a draft kept across the reload',
    );
    await again.locator('.transcript .message', { hasText: 'to check it;' }).waitFor();
    timing('conversation panel back after the reload', t);
    await screenshot(page, '34-panels-after-reload');

    // The preview is a preview again: its header says so and offers Keep Open, and the next
    // row click shows its conversation in that same tab.
    await page.locator('.tabs-container .tab', { hasText: `#${id.builder} ` }).click();
    const previewAgain = await panelOf(page, id.builder, 's1-api-builder-i1');
    await previewAgain.locator('header .preview-mark', { hasText: /^Preview$/ }).waitFor({ timeout: 30_000 });
    await previewAgain.locator('header vscode-button.keep-open', { hasText: 'Keep Open' }).waitFor();
    await screenshot(page, '34b-preview-after-reload');
    await setPaneExpanded(page, 'Awareness', false);
    await setPaneExpanded(page, 'Reviews', false);
    await row(id.critic).click();
    await panelOf(page, id.critic, 's1-api-critic-i1');
    await eventually(
      async () =>
        JSON.stringify(await tabs(page)) ===
        JSON.stringify(['svc Roles', 'svc Agents', `#${id.root} state root`, `#${id.critic} ${title[id.critic]}`]),
      15_000,
      'the restored preview tab now shows the critic',
    );
    await setPaneExpanded(page, 'Awareness', true);
    await setPaneExpanded(page, 'Reviews', true);

    await page.locator('.tabs-container .tab', { hasText: 'svc Agents' }).click();
    const agentsAgain = await webviewFrame(page, 'table.agents');
    assert.equal(
      await agentsAgain.locator('vscode-textfield').evaluate((el) => (el as HTMLElement & { value: string }).value),
      's1-api-critic',
    );
    await agentsAgain.locator('.count', { hasText: /^1 of \d+ agents$/ }).waitFor();
    await page.locator('.tabs-container .tab', { hasText: 'svc Roles' }).click();
    await webviewFrame(page, '[data-section="review"]');
    await closeEditors();
  });
});
