// The overviews of the gauntlet (test/e2e/ui/gauntletWorld.ts) in a real VS Code
// (code-server 4.100.3 in chromium): the run's Awareness card, the Agents page listing every
// agent with filter and sort, and an issue's PR, review state and reviewers in the Reviews tree.
import * as assert from 'node:assert/strict';
import type { ConversationInfo } from '../../../shared/protocol/conversations';
import type { RunCard } from '../../../shared/protocol/lanes';
import { closeEditors, issueDone, ok } from './cli';
import { apiAndCritic, askAnswered, gauntlet, lanes, xssLane } from './gauntletWorld';
import { session, timing } from './session';
import { openContainer, rowByDescription, runCommand, screenshot, webviewFrame, webviewFrameWith } from './workbench';

describe('the Awareness card, the Agents page and the Reviews tree (code-server 4.100.3)', function () {
  this.timeout(120_000);
  let rootId = 0;
  let id: Record<string, number> = {};

  // The lanes these views list: the tests of the suites before this one started them.
  before(async () => {
    ({ rootId, id } = await gauntlet());
    await openContainer(session().page, 'svc');
    await apiAndCritic();
    await askAnswered();
    await xssLane();
  });

  it("shows the run's Awareness card: counts line, latest event; expand lists lanes, critic under its builder; click opens the launcher", async () => {
    const { page } = session();
    const cli = async () =>
      (JSON.parse(await ok(['lane', 'runs', '--json'])) as RunCard[]).find(
        (c) => c.project === 'lp' && c.run === 'r1',
      )!;
    const frame = await webviewFrame(page, 'article.card[data-project="lp"][data-run="r1"]');
    const card = frame.locator('article.card[data-project="lp"][data-run="r1"]');
    const deadline = Date.now() + 15_000;
    let want = await cli();
    while ((await card.locator('.counts').textContent()) !== want.countsLine && Date.now() < deadline) {
      await page.waitForTimeout(200);
      want = await cli();
    }
    assert.equal(want.countsLine, '3 builders · 1 critic · 4 idle');
    assert.equal(await card.locator('.counts').textContent(), want.countsLine);
    assert.match(
      (await card.locator('.latest').textContent()) ?? '',
      new RegExp(`^${want.latest.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} · \\d\\d:\\d\\d`),
    );
    assert.equal(want.latest.text, 'r1/xss builder i1 reported failed');

    await card.locator('button.expand').click();
    await card.locator('ul.lanes').first().waitFor();
    // Each lane as [conversation id, nesting depth], in order (no named functions: the page cannot see tsx's helpers).
    const tree = await card.locator(':scope > div > ul.lanes').evaluate((ul) =>
      Array.from(ul.querySelectorAll('.lane')).map((el) => {
        let depth = 0;
        for (let p = el.parentElement; p && p !== ul; p = p.parentElement) if (p.matches('ul.lanes')) depth++;
        return [Number((el as HTMLElement).dataset.conv), depth];
      }),
    );
    assert.deepEqual(tree, [
      [id.api, 0],
      [id.critic, 1],
      [id.ask, 0],
      [id.xss, 0],
    ]);
    await screenshot(page, '15-awareness-card-expanded');

    await card.locator('.run a').click();
    await webviewFrameWith(page, 'header .facts', `#${rootId} gauntlet-root`);
    await closeEditors();
  });

  it('lists every agent on the Agents page, with filter and sort', async () => {
    const { page } = session();
    await runCommand(page, 'svc: Open Agents Page');
    const frame = await webviewFrame(page, 'table.agents');
    const listed = async () =>
      (
        await frame.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => Number((tr as HTMLElement).dataset.conv)))
      ).sort((a, b) => a - b);
    const convs = async (all: boolean) =>
      (JSON.parse(await ok(['conv', 'list', '--json', ...(all ? ['--all'] : [])])) as ConversationInfo[])
        .map((c) => c.id)
        .sort((a, b) => a - b);
    const live = await convs(false);
    assert.deepEqual(await listed(), live);
    const all = await convs(true);
    assert.ok(all.length > live.length, 'the first suite archived a conversation');
    await frame.locator('.count', { hasText: `${live.length} of ${all.length} agents` }).waitFor();
    // Nesting as in the deck: the critic two levels under the root.
    assert.equal(
      await frame
        .locator(`tr[data-conv="${id.critic}"] td.name`)
        .evaluate((td) => (td as HTMLElement).style.getPropertyValue('--depth')),
      '2',
    );
    const criticTitle = (await lanes()).find((l) => l.id === id.critic)!.title;
    assert.deepEqual(await frame.locator(`tr[data-conv="${id.critic}"] td`).allTextContents(), [
      `${criticTitle} #${id.critic} r1-api-critic-i1NOT_YET · 2 defects`,
      'critic i1',
      'alive',
      'idle',
      'm',
      'script',
      '—',
      '—',
    ]);

    await frame.locator('vscode-checkbox[data-toggle="archived"]').click();
    await frame.locator('.count', { hasText: `${all.length} of ${all.length} agents` }).waitFor();
    assert.deepEqual(await listed(), all);
    assert.equal(await frame.locator('#root img, #root script').count(), 0, 'the XSS title stays text');
    assert.equal(
      await frame.locator(`tr[data-conv="${id.xss}"] td.name .title`).textContent(),
      'xss <img src=x onerror="window.__xss=\'title\'">',
    );

    await frame.locator('vscode-textfield input').fill('critic');
    await frame.locator('.count', { hasText: `1 of ${all.length} agents` }).waitFor();
    assert.deepEqual(await listed(), [id.critic]);
    await frame.locator('vscode-textfield input').fill('');
    await frame.locator('button.sort[data-sort="activity"]').click();
    assert.equal(
      await frame.locator('th', { has: frame.locator('button[data-sort="activity"]') }).getAttribute('aria-sort'),
      'ascending',
    );
    await screenshot(page, '16-agents-page');

    await frame.locator(`tr[data-conv="${id.api}"]`).click();
    await webviewFrameWith(page, 'header .facts', `#${id.api} r1-api-builder-i1`);
    await closeEditors();
  });

  it("shows an issue's PR, review state, readiness and reviewers in the Reviews tree", async () => {
    const { page } = session();
    const issue = await issueDone('lp', 'e2e issue');
    const t = Date.now();
    const show = async () =>
      JSON.parse(await ok(['show', issue.id, '--json'])) as {
        pr: { number: number; reviewState: string; ready: boolean };
      };
    const deadline = Date.now() + 20_000;
    let desc = '';
    let state = '';
    for (;;) {
      const s = await show();
      state = s.pr.reviewState;
      const row = rowByDescription(page, 'Reviews', `PR #${s.pr.number} · `);
      desc = (await row.count()) ? ((await row.locator('.label-description').textContent()) ?? '') : '';
      if (desc === `PR #${s.pr.number} · ${state.replace(/_/g, ' ')} · not ready`) break;
      if (Date.now() > deadline) assert.fail(`the Reviews row says '${desc}', the daemon says ${state}`);
      await page.waitForTimeout(200);
    }
    assert.ok(['requested', 'in_review', 'failed', 'changes_requested'].includes(state), state);
    timing('Reviews tree shows the review state', t);
    const rows = await page
      .locator('.sidebar .pane', { has: page.locator('.pane-header[aria-label="Reviews Section"]') })
      .locator('.monaco-list-row[role="treeitem"] .label-name')
      .allTextContents();
    assert.deepEqual(rows.slice(0, 2), [`${issue.id} e2e issue`, 'merge: not ready']);
    assert.ok(rows.includes('reviewer (quick)'), rows.join(', '));
    await screenshot(page, '17-reviews-tree');
  });
});
