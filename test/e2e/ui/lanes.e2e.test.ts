// The lanes views as a person sees them in a real VS Code (code-server 4.100.3 in chromium), against lanes,
// a successor and a review started with `svc` and the `script` harness: the Command Deck's
// nesting and verdict badge, needs-you live and answered from the Conversation panel, the
// Awareness card, the Agents page, the Reviews tree, and XSS payloads rendered inert.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import type { ConversationInfo } from '../../../shared/protocol/conversations';
import type { LaneRecord, RunCard } from '../../../shared/protocol/lanes';
import { buildAndReport, judgeAndReport } from '../../helpers/lanes';
import { git, makeRepo } from '../../helpers/scratch';
import { writeBrief } from '../../helpers/scriptBrief';
import { installedSvc } from './codeServer';
import { session, timing } from './session';
import {
  activityBadge,
  clearNotifications,
  clickNotificationButton,
  clickViewAction,
  contextMenuItem,
  quickPick,
  rowBadge,
  rowByDescription,
  rowIcon,
  rowTooltip,
  runCommand,
  screenshot,
  statusItem,
  themeColor,
  treeRows,
  waitForMessage,
  waitForTree,
  webviewFrame,
  webviewFrameWith,
} from './workbench';

const svc = (args: string[]) => installedSvc(session().cs, args);
async function ok(args: string[], code = 0): Promise<string> {
  const r = await svc(args);
  assert.equal(r.code, code, `svc ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
}

/** Raw HTML, an event handler, a script and a javascript: link, in Markdown an agent wrote. */
const XSS = [
  "XSS-MARK <img src=x onerror=\"window.__xss='img'\"> and <script>window.__xss='script'</script>",
  '',
  "<svg onload=\"window.__xss='svg'\"></svg> [click me](javascript:window.__xss='link') <iframe src=\"javascript:window.__xss='iframe'\"></iframe>",
].join('\n');

const closeEditors = () => runCommand(session().page, 'View: Close All Editors');

describe('lanes, conversations, agents and reviews in VS Code (code-server 4.100.3)', function () {
  this.timeout(120_000);
  let rootId = 0;
  let briefs = '';
  const id: Record<string, number> = {};

  const startLane = async (args: string[]) => {
    const out = await ok(['lane', 'start', '--parent', String(rootId), '--harness', 'script', '--model', 'm', ...args]);
    return Number(/: conv (\d+) /.exec(out)![1]);
  };
  const lanes = async (): Promise<LaneRecord[]> => JSON.parse(await ok(['lane', 'list', '--json'])) as LaneRecord[];

  before(async () => {
    const { cs } = session();
    const { dir } = makeRepo(cs.scratch, 'lp');
    await ok(['project', 'add', 'lp', dir]);
    await ok(['config', 'set', 'roles.review.harness', 'script']);
    await ok(['config', 'set', 'roles.review.model', 'm']);
    briefs = path.join(cs.scratch.home, 'briefs');
    const created = JSON.parse(
      await ok([
        'conv',
        'new',
        '--project',
        'lp',
        '--harness',
        'script',
        '--model',
        'm',
        '--title',
        'gauntlet root',
        '--prompt',
        'I orchestrate.',
        '--json',
      ]),
    ) as { conversation: { id: number } };
    rootId = created.conversation.id;
  });

  it('nests the builder under the root, the critic under the builder; the verdict is a coloured badge and icon on both, a successor under its source', async () => {
    const { page } = session();
    const t = Date.now();
    id.api = await startLane([
      '--run',
      'r1',
      '--key',
      'api',
      '--role',
      'builder',
      '--brief',
      writeBrief(briefs, 'api.md', [{ run: buildAndReport('api.txt', 'x'), check: true }]),
    ]);
    await ok(['lane', 'wait', 'r1-api-builder-i1', '--timeout', '60']);
    id.critic = await startLane([
      '--run',
      'r1',
      '--for',
      'api',
      '--role',
      'critic',
      '--brief',
      writeBrief(briefs, 'critic.md', [{ run: judgeAndReport('NOT_YET', 2) }]),
    ]);
    await ok(['lane', 'wait', 'r1-api-critic-i1', '--timeout', '60']);
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
      { level: 2, label: 'root successor', description: `#${id.successor} · continues ← #${rootId} · idle` },
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
        'branch',
        'head',
        'ahead',
        'dirty',
        'model',
      ]),
      [
        `verdict: NOT_YET · 2 defects (critic #${id.critic})`,
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

  it("turns a lane's activity to needs-you live, and back after answering from the Conversation panel", async () => {
    const { page } = session();
    const t = Date.now();
    id.ask = await startLane([
      '--run',
      'r1',
      '--key',
      'ask',
      '--role',
      'builder',
      '--brief',
      writeBrief(briefs, 'ask.md', [{ ask: 'Proceed with the e2e lane?' }, { say: 'proceeding' }]),
    ]);
    const row = rowByDescription(page, 'Command Deck', `#${id.ask} · `);
    await row
      .locator('.label-description', { hasText: new RegExp(`^#${id.ask} · needs-you( · ↑\\d+)?$`) })
      .waitFor({ timeout: 20_000 });
    // Activity icons are coloured by state: needs-you, idle (the root), and stopped once reaped (below).
    assert.deepEqual(await rowIcon(row), {
      codicon: 'bell-dot',
      color: await themeColor(page, 'list.warningForeground'),
    });
    assert.deepEqual(await rowIcon(rowByDescription(page, 'Command Deck', `#${rootId} · `)), {
      codicon: 'circle-large-outline',
      color: await themeColor(page, 'charts.green'),
    });
    assert.notEqual(await themeColor(page, 'list.warningForeground'), await themeColor(page, 'charts.green'));
    await statusItem(page)
      .filter({ hasText: /^\s*svc: 1 needs you\s*$/ })
      .waitFor();
    // The count on the activity-bar icon too, and the row pinned first under its launcher (the lanes before it follow).
    await activityBadge(page).filter({ hasText: /^1$/ }).waitFor({ timeout: 15_000 });
    assert.match((await treeRows(page, 'Command Deck'))[1].description, new RegExp(`^#${id.ask} · needs-you`));
    await screenshot(page, '12a-needs-you-badge-and-pinned');
    timing('lane needs-you shown', t);

    await row.click();
    const frame = await webviewFrameWith(page, '.needs-you', 'Proceed with the e2e lane?');
    assert.equal(await frame.locator('header .activity').textContent(), 'needs-you');
    assert.deepEqual(await frame.locator('.ask-options vscode-button').allTextContents(), ['Allow', 'Deny']);
    await screenshot(page, '12-conversation-needs-you');

    const t2 = Date.now();
    await frame.locator('.ask-options vscode-button', { hasText: 'Allow' }).click();
    await row
      .locator('.label-description', { hasText: new RegExp(`^#${id.ask} · idle( · ↑\\d+)?$`) })
      .waitFor({ timeout: 15_000 });
    await statusItem(page)
      .filter({ hasText: /^\s*svc\s*$/ })
      .waitFor();
    await activityBadge(page).filter({ hasText: /^1$/ }).waitFor({ state: 'hidden', timeout: 15_000 });
    await frame.locator('header .activity[data-activity="idle"]').waitFor();
    assert.equal(await frame.locator('.needs-you').count(), 0);
    await frame.locator('.transcript .ask-line', { hasText: 'answered: Allow' }).waitFor();
    await frame.locator('.transcript .message', { hasText: 'proceeding' }).waitFor();
    timing('answered from the panel, deck back to idle', t2);

    // The composer sends like `svc tell`: the prompt shows in the transcript.
    await frame.locator('.composer vscode-textarea textarea').fill('hello from the composer');
    await frame.locator('.composer vscode-button', { hasText: 'Send' }).click();
    await frame.locator('.composer-status', { hasText: /^Sent\.$/ }).waitFor({ timeout: 15_000 });
    await frame.locator('.transcript .prompt', { hasText: 'hello from the composer' }).waitFor();
    assert.equal(await frame.locator('.composer vscode-textarea textarea').inputValue(), '');
    await screenshot(page, '13-conversation-answered-and-told');
    await closeEditors();
  });

  it('renders XSS payloads in a report body and in a transcript as inert text', async () => {
    const { page } = session();
    const report = path.join(briefs, 'xss-report.md');
    fs.mkdirSync(briefs, { recursive: true });
    fs.writeFileSync(report, XSS + '\n');
    id.xss = await startLane([
      '--run',
      'r1',
      '--key',
      'xss',
      '--role',
      'builder',
      '--title',
      'xss <img src=x onerror="window.__xss=\'title\'">',
      '--brief',
      writeBrief(briefs, 'xss.md', [{ say: XSS }, { run: `svc lane report --status failed --file '${report}'` }]),
    ]);
    await ok(['lane', 'wait', 'r1-xss-builder-i1', '--timeout', '60'], 4);

    // A click that lands while the tree re-renders (the lane just reported) can be lost, and
    // under load code-server now and then leaves a new webview blank: close it, click again once.
    await rowByDescription(page, 'Command Deck', `#${id.xss} · `).click();
    const frame = await webviewFrameWith(page, 'header .facts', `#${id.xss} r1-xss-builder-i1`, 10_000).catch(
      async () => {
        await closeEditors();
        await rowByDescription(page, 'Command Deck', `#${id.xss} · `).click();
        return webviewFrameWith(page, 'header .facts', `#${id.xss} r1-xss-builder-i1`);
      },
    );
    await frame.locator('.report', { hasText: 'XSS-MARK' }).waitFor();
    await frame.locator('.transcript .message', { hasText: 'XSS-MARK' }).waitFor();
    await page.waitForTimeout(500); // an onerror or onload would have run by now
    const dom = await inertCheck(frame);
    assert.deepEqual(dom.found, {
      xss: 'undefined',
      embedded: 0,
      scriptsInPage: 0,
      payloadScripts: 0,
      handlers: 0,
      jsLinks: 0,
    });
    for (const where of ['report', 'message']) {
      const text = dom.text[where];
      assert.ok(
        text.includes("XSS-MARK <img src=x onerror=\"window.__xss='img'\"> and <script>window.__xss='script'</script>"),
        `${where}: ${text}`,
      );
      assert.ok(text.includes("[click me](javascript:window.__xss='link')"), `${where}: ${text}`);
    }
    assert.equal(await frame.locator('header h1').textContent(), 'xss <img src=x onerror="window.__xss=\'title\'">');
    await screenshot(page, '14-xss-inert-in-conversation');
    await closeEditors();
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
    const { page, cs } = session();
    const issue = JSON.parse(await ok(['issue', 'new', '--project', 'lp', '--title', 'e2e issue', '--json'])) as {
      id: string;
      workspace: string;
    };
    fs.writeFileSync(path.join(issue.workspace, 'feature.txt'), 'feature\n');
    git(issue.workspace, cs.scratch.env, 'add', '.');
    git(issue.workspace, cs.scratch.env, 'commit', '-q', '-m', 'the feature');
    await ok(['done', issue.id]);
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
        hasText: new RegExp(`^#${id.xss} · builder i1 · stopped \\(archived\\) · reported failed · reaped$`),
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
        hasText: new RegExp(`^#${id.xss} · builder i1 · stopped · reported failed · reaped$`),
      })
      .waitFor({ timeout: 15_000 });
    await clickViewAction(page, 'Command Deck', 'Hide Archived');
    await xss()
      .locator('.label-description', {
        hasText: new RegExp(`^#${id.xss} · builder i1 · stopped · reported failed · reaped$`),
      })
      .waitFor();
    assert.equal((await lanes()).find((l) => l.id === id.xss)!.archived, false);
    await page.mouse.move(900, 600);
    await clearNotifications(page);
  });
});

describe('webviews in light, dark and high-contrast themes', function () {
  this.timeout(90_000);
  const THEMES = [
    { label: 'Dark Modern', kind: 'vscode-dark', dark: true },
    { label: 'Dark High Contrast', kind: 'vscode-high-contrast', dark: true },
    { label: 'Light High Contrast', kind: 'vscode-high-contrast-light', dark: false },
    { label: 'Light Modern', kind: 'vscode-light', dark: false },
  ];

  it('follow the theme: text contrasts with the background in each, screenshots of each', async () => {
    const { page } = session();
    await runCommand(page, 'svc: Open Agents Page');
    await webviewFrame(page, 'table.agents');
    try {
      for (const [i, theme] of THEMES.entries()) {
        await runCommand(page, 'Preferences: Color Theme');
        await quickPick(page, theme.label);
        const frame = await webviewFrame(page, `body.${theme.kind} table.agents`);
        // The page's text colour as computed, and the editor background the webview sits on (from its variable).
        const lum = await frame.evaluate(() =>
          [
            getComputedStyle(document.body).color,
            getComputedStyle(document.documentElement).getPropertyValue('--vscode-editor-background').trim(),
          ].map((c) => {
            const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})/i.exec(
              c.length === 4 ? `#${c[1]}${c[1]}${c[2]}${c[2]}${c[3]}${c[3]}` : c,
            );
            const [r, g, b] = hex
              ? hex.slice(1, 4).map((h) => parseInt(h, 16))
              : (c.match(/\d+(\.\d+)?/g) ?? ['0', '0', '0']).slice(0, 3).map(Number);
            return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
          }),
        );
        assert.equal(lum[0] > 0.5, theme.dark, `${theme.label}: text luminance ${lum[0]}`);
        assert.ok(Math.abs(lum[0] - lum[1]) > 0.4, `${theme.label}: text ${lum[0]} on background ${lum[1]}`);
        // svc's verdict colours: three distinct colours, each readable on the background (WCAG text contrast 4.5:1),
        // and the verdict pills use them (PASS and NOT_YET once shared one grey).
        // As a string: the test runner's transform would name the helper functions with a __name the page lacks.
        const verdicts = await frame.evaluate<{
          out: Record<string, { color: string; contrast: number }>;
          pill: string | null;
        }>(`(() => {
          const css = getComputedStyle(document.documentElement);
          const rgb = (c) => {
            const probe = document.createElement('span');
            probe.style.color = c;
            document.body.append(probe);
            const v = (getComputedStyle(probe).color.match(/\\d+(\\.\\d+)?/g) || []).slice(0, 3).map(Number);
            probe.remove();
            return v;
          };
          const lin = (v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : Math.pow((v / 255 + 0.055) / 1.055, 2.4));
          const lumOf = (c) => 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2]);
          const bg = lumOf(rgb(css.getPropertyValue('--vscode-editor-background').trim()));
          const out = {};
          for (const tone of ['pass', 'notYet', 'fail']) {
            const c = rgb('var(--vscode-svc-verdict\\\\.' + tone + ')');
            const l = lumOf(c);
            out[tone] = { color: c.join(','), contrast: (Math.max(l, bg) + 0.05) / (Math.min(l, bg) + 0.05) };
          }
          const pill = document.querySelector('.verdict.notYet');
          return { out, pill: pill ? getComputedStyle(pill).color.match(/\\d+/g).slice(0, 3).join(',') : null };
        })()`);
        assert.equal(
          new Set(Object.values(verdicts.out).map((v) => v.color)).size,
          3,
          `${theme.label}: ${JSON.stringify(verdicts.out)}`,
        );
        for (const [tone, v] of Object.entries(verdicts.out))
          assert.ok(v.contrast >= 4.5, `${theme.label}: ${tone} ${v.color} has contrast ${v.contrast.toFixed(2)}`);
        assert.equal(
          verdicts.pill,
          verdicts.out.notYet.color,
          `${theme.label}: the NOT_YET pill is in the NOT_YET colour`,
        );
        await screenshot(page, `2${i}-agents-${theme.kind}`);
      }
    } finally {
      await closeEditors();
    }
  });
});

describe('the svc-gauntlet-loop skill from the palette', function () {
  this.timeout(60_000);

  it('"svc: Install the svc-gauntlet-loop Skill" installs the shipped SKILL.md like svc skill install', async () => {
    const { page, cs } = session();
    const want = path.join(cs.scratch.home, '.claude', 'skills', 'svc-gauntlet-loop', 'SKILL.md');
    await runCommand(page, 'svc: Install the svc-gauntlet-loop Skill');
    await quickPick(page, 'claude');
    await quickPick(page, 'Your home');
    await waitForMessage(page, `svc: installed ${want}`);
    assert.equal(
      fs.readFileSync(want, 'utf8'),
      fs.readFileSync(path.join(cs.extensionDir, 'shared', 'skills', 'svc-gauntlet-loop', 'SKILL.md'), 'utf8'),
    );
    await clearNotifications(page);
  });
});

async function inertCheck(frame: Frame): Promise<{ found: Record<string, unknown>; text: Record<string, string> }> {
  return frame.evaluate(() => ({
    found: {
      xss: typeof (window as unknown as { __xss?: unknown }).__xss,
      embedded: document.querySelectorAll('img, svg, iframe, object, embed').length,
      scriptsInPage: document.querySelectorAll('#root script').length,
      payloadScripts: Array.from(document.scripts).filter((s) => (s.textContent ?? '').includes('__xss')).length,
      handlers: document.querySelectorAll('[onerror], [onload], [onclick]').length,
      jsLinks: document.querySelectorAll('a[href^="javascript" i]').length,
    },
    text: {
      report: document.querySelector('.report .md')?.textContent ?? '',
      message: document.querySelector('.transcript .message')?.textContent ?? '',
    },
  }));
}
