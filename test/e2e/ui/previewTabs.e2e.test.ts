// Explorer-like preview tabs for conversations in a real VS Code (code-server 4.100.3 in
// chromium), on the st world (test/e2e/ui/stateWorld.ts): a Command Deck row click opens a
// preview tab, the next click shows its conversation in that tab, a double-click or "Keep
// Open" keeps it.
import * as assert from 'node:assert/strict';
import { eventually } from '../../helpers/scratch';
import { closeEditors } from './cli';
import { session } from './session';
import { panelOf, stateWorld, tabs } from './stateWorld';
import { openContainer, rowByDescription, screenshot, setPaneExpanded } from './workbench';

describe('preview tabs from the Command Deck (code-server 4.100.3)', function () {
  this.timeout(120_000);
  let id: Record<string, number> = {};
  let title: Record<string, string> = {};

  before(async () => {
    ({ id, title } = await stateWorld());
  });

  it('a row click opens a preview tab, the next click shows its conversation there, a double-click keeps it', async () => {
    const { page } = session();
    await closeEditors();
    await openContainer(page, 'svc');
    const row = (conv: number) => rowByDescription(page, 'Command Deck', `#${conv} · `);
    // The suites before this one leave many rows in the deck; the tree renders only the rows
    // in view, so give the deck the whole side bar while this test clicks its rows.
    await setPaneExpanded(page, 'Awareness', false);
    await setPaneExpanded(page, 'Reviews', false);
    await row(id.critic).waitFor({ timeout: 20_000 });

    await row(id.root).click();
    await (
      await panelOf(page, id.root, 'state-root')
    )
      .locator('header .preview-mark', { hasText: /^Preview$/ })
      .waitFor();
    assert.deepEqual(await tabs(page), [`#${id.root} state root`]);

    // The next row click replaces the preview, in the same tab.
    await row(id.critic).click();
    const critic = await panelOf(page, id.critic, 's1-api-critic-i1');
    await eventually(
      async () => JSON.stringify(await tabs(page)) === JSON.stringify([`#${id.critic} ${title[id.critic]}`]),
      10_000,
      'one tab, now the critic',
    );
    assert.equal(await critic.locator('header .preview-mark').count(), 1);
    await screenshot(page, '30-preview-tab-replaced');

    // A double-click keeps it (on a leaf row: a double-click on a parent row also folds it, as in every tree).
    await row(id.critic).dblclick();
    await critic.locator('header .preview-mark').waitFor({ state: 'detached' });
    assert.equal(await critic.locator('header vscode-button.keep-open').count(), 0);
    // The next click opens a tab of its own.
    await row(id.builder).click();
    const builder = await panelOf(page, id.builder, 's1-api-builder-i1');
    await eventually(
      async () =>
        JSON.stringify(await tabs(page)) ===
        JSON.stringify([`#${id.critic} ${title[id.critic]}`, `#${id.builder} ${title[id.builder]}`]),
      10_000,
      'the kept critic and the builder preview',
    );
    // "Keep Open" in a preview's header keeps it too.
    await builder.locator('header vscode-button.keep-open').click();
    await builder.locator('header .preview-mark').waitFor({ state: 'detached' });
    await row(id.root).click();
    await panelOf(page, id.root, 'state-root');
    await eventually(async () => (await tabs(page)).length === 3, 10_000, 'three tabs');
    await screenshot(page, '31-preview-kept');
    await closeEditors();
    await setPaneExpanded(page, 'Awareness', true);
    await setPaneExpanded(page, 'Reviews', true);
  });
});
