// The polish of svc's webviews in a real VS Code (code-server 4.100.3 in chromium), on the st
// world (test/e2e/ui/stateWorld.ts): the Awareness rail's links, indentation and header, the
// Roles panel's headings and warnings, inline code in the high-contrast light theme.
import * as assert from 'node:assert/strict';
import { closeEditors } from './cli';
import { session } from './session';
import { openRoles, PROJECT, stateWorld } from './stateWorld';
import { openContainer, quickPick, runCommand, screenshot, webviewFrame } from './workbench';

describe('polish: the Awareness rail, the Roles panel, inline code (code-server 4.100.3)', function () {
  this.timeout(120_000);

  // The s1 card with a critic nested under its builder, the root's inline code.
  before(async () => {
    await stateWorld();
  });

  it('polish: the Awareness rail (no web links, one indentation, no pid), the Roles headings and warnings, inline code in high-contrast light', async () => {
    const { page } = session();
    await openContainer(page, 'svc');
    const rail = await webviewFrame(page, `article.card[data-project="${PROJECT}"][data-run="s1"]`);
    const daemonLine = (await rail.locator('.daemon').textContent()) ?? '';
    assert.match(daemonLine, /^daemon \d+\.\d+\.\d+ · \d+ live of \d+ conversations$/);
    assert.doesNotMatch(daemonLine, /pid/);
    const card = rail.locator(`article.card[data-project="${PROJECT}"][data-run="s1"]`);
    await card.locator('button.expand').click();
    await card.locator('ul.lanes .lane').first().waitFor();
    // No named functions inside evaluate: the page cannot see tsx's helpers.
    const look = await rail.evaluate(() => {
      const links = Array.from(document.querySelectorAll('.card a'));
      const nested = document.querySelector('ul.lanes ul.lanes .lane');
      const outer = document.querySelector('ul.lanes .lane');
      return {
        underlined: links.filter((a) => getComputedStyle(a).textDecorationLine !== 'none').length,
        links: links.length,
        edges: ['.daemon', 'h3', 'article.card'].map((sel) =>
          Math.round(document.querySelector(sel)!.getBoundingClientRect().left),
        ),
        // A nested lane (the critic under its builder) is one step in from its parent.
        step:
          nested && outer ? Math.round(nested.getBoundingClientRect().left - outer.getBoundingClientRect().left) : -1,
        padding: getComputedStyle(document.querySelector('article.card')!).paddingLeft,
      };
    });
    assert.ok(look.links >= 3, `links: ${look.links}`);
    assert.equal(look.underlined, 0, 'no underlined links in the rail');
    assert.equal(
      new Set(look.edges).size,
      1,
      `daemon line, project heading and card share one left edge: ${look.edges.join(', ')}`,
    );
    assert.equal(
      look.step,
      2 * parseInt(look.padding, 10),
      `one indentation step per nesting level (${look.step} px, card padding ${look.padding})`,
    );
    await screenshot(page, '35-awareness-rail');

    const roles = await openRoles(page);
    const headings = await roles.locator('h2').allTextContents();
    assert.equal(headings[0], 'Reviewevery project');
    assert.ok(headings.includes(`Project ${PROJECT}gauntlet roles`), headings.join(' | '));
    for (const h of headings) assert.doesNotMatch(h, /\//, `a heading without a path: ${h}`);
    const builderModel = roles.locator(`.field[data-key="projects.${PROJECT}.gauntlet.roles.builder.model"] .source`);
    assert.equal(
      await builderModel.textContent(),
      'unset · a builder lane cannot start without a model: set one here, or give it at launch (there is no default model)',
    );
    const [warnColour, mutedColour] = await Promise.all([
      builderModel.evaluate((el) => getComputedStyle(el).color),
      roles
        .locator('.source.muted')
        .first()
        .evaluate((el) => getComputedStyle(el).color),
    ]);
    assert.equal(warnColour, mutedColour, 'the warning sentence is ordinary muted text; only its icon is coloured');
    const text = (await roles.locator('#root').textContent()) ?? '';
    assert.doesNotMatch(text, /--[a-z]|\bsvc [a-z]+ /, 'no command-line text in the Roles panel');
    await screenshot(page, '36-roles-polish');
    await closeEditors();

    // High-contrast light: inline code is outlined on the page background, not the selection's colours.
    await runCommand(page, 'Preferences: Color Theme');
    await quickPick(page, 'Light High Contrast');
    try {
      await runCommand(page, 'svc: Open Conversation');
      await quickPick(page, 'state root');
      const frame = await webviewFrame(page, 'body.vscode-high-contrast-light .transcript .message code');
      const code = await frame.evaluate(() => {
        const c = document.querySelector('.transcript .message code')!;
        const probe = document.createElement('span');
        probe.style.background = 'var(--vscode-editor-selectionBackground)';
        document.body.append(probe);
        const selection = getComputedStyle(probe).backgroundColor;
        probe.remove();
        const s = getComputedStyle(c);
        return { text: c.textContent, background: s.backgroundColor, border: s.borderTopStyle, selection };
      });
      assert.equal(code.text, 'greet.sh Ada');
      // File names are not web links (.md and .sh are top-level domains); a real URL is.
      assert.deepEqual(
        await frame.locator('.transcript .message a').evaluateAll((as) => as.map((a) => a.getAttribute('href'))),
        ['https://example.com/greet'],
      );
      assert.notEqual(code.background, code.selection, 'inline code does not take the selection colour');
      assert.equal(code.background, 'rgba(0, 0, 0, 0)');
      assert.equal(code.border, 'solid');
      await screenshot(page, '37-inline-code-high-contrast-light');
    } finally {
      await runCommand(page, 'Preferences: Color Theme');
      await quickPick(page, 'Dark Modern');
      await closeEditors();
    }
  });
});
