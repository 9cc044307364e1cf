// The Command Deck as a person sees it in a real VS Code (code-server 4.100.3 in chromium),
// against a builder, its critic and a successor started with `svc` and the `script`
// harness (test/e2e/ui/gauntletWorld.ts): the nesting, the verdict as a coloured badge and
// icon, the critic's report opened from its row, and the rows' tooltips.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { closeEditors, ok } from './cli';
import { apiAndCritic, gauntlet, lanes } from './gauntletWorld';
import { session, timing } from './session';
import {
  contextMenuItem,
  openContainer,
  rowBadge,
  rowByDescription,
  rowTooltip,
  screenshot,
  waitForTree,
  webviewFrameWith,
} from './workbench';

describe('the Command Deck: nesting, verdict badges, reports and tooltips (code-server 4.100.3)', function () {
  this.timeout(120_000);
  let rootId = 0;
  let id: Record<string, number> = {};

  before(async () => {
    ({ rootId, id } = await gauntlet());
    await openContainer(session().page, 'svc');
  });

  it('nests the builder under the root, the critic under the builder; the verdict is a coloured badge and icon on both, a successor under its source', async () => {
    const { page } = session();
    const t = Date.now();
    await apiAndCritic();
    id.successor = Number(
      /Conversation #(\d+) /.exec(
        await ok(['handoff', String(rootId), '--prompt', 'carry on', '--title', 'root successor', '--no-wait']),
      )![1],
    );
    const title = Object.fromEntries((await lanes()).map((l) => [l.id, l.title]));
    assert.deepEqual([title[id.api], title[id.critic]], ['r1/api builder i1', 'r1/api critic i1']);
    timing('builder, critic and successor started with svc', t);

    const t2 = Date.now();
    // No "newest verdict" row, no verdict text: the labels' role, iteration and branch are not repeated either.
    await waitForTree(page, 'Command Deck', [
      { level: 1, label: 'gauntlet root', description: `#${rootId} · idle` },
      { level: 2, label: title[id.api], description: `#${id.api} · idle · reported done · ↑0` },
      { level: 3, label: title[id.critic], description: `#${id.critic} · idle · reported done · (detached)` },
      { level: 2, label: 'root successor', description: `#${id.successor} · idle · continues ← #${rootId}` },
    ]);
    timing('Command Deck nesting shown', t2);
    const builderRow = rowByDescription(page, 'Command Deck', `#${id.api} · `);
    const criticRow = rowByDescription(page, 'Command Deck', `#${id.critic} · `);
    const [builderBadge, criticBadge] = [await rowBadge(builderRow), await rowBadge(criticRow)];
    assert.equal(builderBadge.text, '2', "the builder shows its critic's defect count");
    assert.equal(criticBadge.text, '2');
    assert.ok(
      builderBadge.color && builderBadge.color === criticBadge.color,
      `badge colours ${builderBadge.color} / ${criticBadge.color}`,
    );
    for (const row of [builderRow, criticRow])
      assert.match(
        (await row.locator('.custom-view-tree-node-item-icon').getAttribute('class')) ?? '',
        /codicon-warning/,
        'the verdict icon on builder and critic',
      );
    assert.equal(
      await rowBadge(rowByDescription(page, 'Command Deck', `#${rootId} · `)).then((b) => b.text),
      '',
      'no badge without a verdict',
    );
    await screenshot(page, '10-command-deck-nesting-verdict-badges');

    // The critic row opens the critic's conversation.
    await criticRow.click();
    const frame = await webviewFrameWith(page, 'header .facts', `#${id.critic} r1-api-critic-i1`);
    assert.equal(await frame.locator('header .activity').textContent(), 'idle');
    assert.equal(await frame.locator('header .lane').textContent(), 'critic i1 · run r1 · key api · verdict NOT_YET');
    assert.match(
      (await frame.locator('.report .who').textContent()) ?? '',
      /^newest report #1 · done · verdict NOT_YET · /,
    );
    assert.equal(
      await page.locator('.tabs-container .tab.active .label-name').textContent(),
      `#${id.critic} ${title[id.critic]}`,
    );
    await screenshot(page, '11-critic-opened-from-deck');
    await closeEditors();
  });

  it("a critic row opens its verdict report: on hover and from its context menu, in a kept tab; the builder's row has no Open Report; both tooltips give the facts", async () => {
    const { page } = session();
    await apiAndCritic();
    const all = await lanes();
    const verdictFile = all.find((l) => l.id === id.critic)!.report!.verdictFile!;
    assert.equal(path.basename(verdictFile), 'verdict-r1-api-critic-i1.json');
    const criticRow = rowByDescription(page, 'Command Deck', `#${id.critic} · `);
    const activeTab = page.locator('.tabs-container .tab.active');
    await criticRow.hover();
    const actions = criticRow.locator('.actions a.action-label');
    await actions.first().waitFor();
    assert.deepEqual(await actions.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label'))), [
      'Open Report',
      'Tell Conversation…',
    ]);
    await screenshot(page, '11b-critic-open-report-on-hover');
    await actions.first().click();
    await activeTab.locator('.label-name', { hasText: /^verdict-r1-api-critic-i1\.json$/ }).waitFor();
    assert.equal(await activeTab.locator('.monaco-icon-label.italic').count(), 0, 'an explicit open keeps its tab');
    await page.locator('.editor-instance .view-lines', { hasText: '"defects"' }).waitFor();
    await closeEditors();

    await contextMenuItem(page, criticRow, 'Open Report');
    await activeTab.locator('.label-name', { hasText: /^verdict-r1-api-critic-i1\.json$/ }).waitFor();
    await closeEditors();

    // The builder shows its critic's verdict, but the report is the critic's to open.
    await rowByDescription(page, 'Command Deck', `#${id.api} · `).click({ button: 'right' });
    const menu = page.locator('.context-view .monaco-menu');
    await menu.locator('.action-item .action-label', { hasText: /^Open Conversation$/ }).waitFor();
    assert.ok(!(await menu.locator('.action-item .action-label').allTextContents()).includes('Open Report'));
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });

    // Their tooltips: the facts as Markdown (branch, head, ahead, dirty, report, verdict, model).
    const [critic, builder] = [id.critic, id.api].map((n) => all.find((l) => l.id === n)!);
    const facts = async (row: typeof criticRow, names: string[]) => {
      const shown = await rowTooltip(page, row);
      return names.map((name) => shown.find((f) => f.startsWith(`${name}: `)) ?? `${name}: (not shown)`);
    };
    assert.deepEqual(
      await facts(criticRow, ['conversation', 'judges', 'verdict', 'report', 'branch', 'head', 'dirty', 'model']),
      [
        `conversation: #${id.critic} r1-api-critic-i1`,
        'judges: api i1',
        'verdict: NOT_YET · 2 defects',
        `report: ${verdictFile}`,
        'branch: detached',
        `head: ${critic.git!.headSha!.slice(0, 12)}`,
        'dirty: no',
        'model: m',
      ],
    );
    await screenshot(page, '11c-critic-tooltip-facts');
    await page.mouse.move(900, 600);
    await page.locator('.monaco-hover').waitFor({ state: 'hidden' });
    assert.deepEqual(
      await facts(rowByDescription(page, 'Command Deck', `#${id.api} · `), [
        'verdict',
        "critic's verdict file",
        'report',
        'branch',
        'head',
        'ahead',
        'dirty',
        'model',
      ]),
      [
        `verdict: NOT_YET · 2 defects (critic #${id.critic})`,
        `critic's verdict file: ${verdictFile}`,
        'report: (not shown)',
        `branch: ${builder.git!.branch}`,
        `head: ${builder.git!.headSha!.slice(0, 12)}`,
        'ahead: 0 commits ahead of upstream',
        'dirty: no',
        'model: m',
      ],
    );
    // The pointer leaves the deck, or the row's hover (its tooltip) covers the next test's rows.
    await page.mouse.move(900, 600);
    await page.locator('.monaco-hover').waitFor({ state: 'hidden' });
  });
});
