// In a real VS Code (code-server 4.100.3 in chromium): state that survives a
// window reload (the conversation, Agents and Roles panels, with the page's draft and
// filter, a preview still a preview), Explorer-like preview tabs (a row click previews, the next click replaces it,
// a double-click keeps it; reports too), buttons where the UI used to print commands
// (Send anyway, Resume, Open report; Stop only while busy), the Reviews tree's expansion
// across refreshes, and the polish: the Awareness rail's links, indentation and header,
// the Roles panel's headings and warnings, inline code in the high-contrast light theme.
// Runs last: it replaces SVC_HOME/config.yaml of the shared daemon (its quick review).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import type { IssueState } from '../../../shared/protocol/review';
import { buildAndReport, judgeAndReport } from '../../helpers/lanes';
import { eventually, makeRepo } from '../../helpers/scratch';
import { writeBrief } from '../../helpers/scriptBrief';
import { installedSvc } from './codeServer';
import { session, timing } from './session';
import {
  clickViewAction,
  hoverActions,
  modalDialog,
  openContainer,
  paneBody,
  quickPick,
  rowByDescription,
  rowByLabel,
  runCommand,
  screenshot,
  setPaneExpanded,
  waitForMessage,
  webviewFrame,
  webviewFrameWith,
} from './workbench';

const PROJECT = 'st';
const svc = (args: string[]) => installedSvc(session().cs, args);
async function ok(args: string[], code = 0): Promise<string> {
  const r = await svc(args);
  assert.equal(r.code, code, `svc ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
}

const closeEditors = () => runCommand(session().page, 'View: Close All Editors');
const tabs = (page: Page) => page.locator('.tabs-container .tab .label-name').allTextContents();
const activeTab = (page: Page) => page.locator('.tabs-container .tab.active');

/**
 * Opens the Roles panel. Under load code-server now and then leaves a new webview blank
 * (its resources never load; seen once in three runs, for any panel): closed and opened
 * again once, as a person would.
 */
async function openRoles(page: Page) {
  await runCommand(page, 'svc: Open Roles');
  return webviewFrame(page, '[data-section="review"]').catch(async () => {
    await closeEditors();
    await runCommand(page, 'svc: Open Roles');
    return webviewFrame(page, '[data-section="review"]');
  });
}

/** The open conversation panel whose header names `#id`. */
const panelOf = (page: Page, id: number, name: string) => webviewFrameWith(page, 'header .facts', `#${id} ${name}`);

describe('state kept, preview tabs, buttons instead of commands (code-server 4.100.3)', function () {
  this.timeout(120_000);
  const id: Record<string, number> = {};
  const title: Record<string, string> = {};
  let briefs = '';
  let verdictFile = '';
  /** The issue the quick review approved (the last two tests). */
  let reviewed = '';

  const startLane = async (args: string[]) =>
    Number(
      /: conv (\d+) /.exec(
        await ok(['lane', 'start', '--parent', String(id.root), '--harness', 'script', '--model', 'm', ...args]),
      )![1],
    );

  before(async () => {
    const { cs } = session();
    const t = Date.now();
    const { dir } = makeRepo(cs.scratch, PROJECT);
    await ok(['project', 'add', PROJECT, dir]);
    briefs = path.join(cs.scratch.home, 'state-briefs');
    // The root says something with inline code (the high-contrast check reads it).
    const root = JSON.parse(
      await ok([
        'conv',
        'new',
        '--project',
        PROJECT,
        '--harness',
        'script',
        '--model',
        'm',
        '--title',
        'state root',
        '--prompt',
        '```svc-script\n- say: "Run `greet.sh Ada` to check it; README.md says how, and https://example.com/greet too."\n```\n',
        '--json',
      ]),
    ) as { conversation: { id: number } };
    id.root = root.conversation.id;
    id.builder = await startLane([
      '--run',
      's1',
      '--key',
      'api',
      '--role',
      'builder',
      '--brief',
      writeBrief(briefs, 'api.md', [{ run: buildAndReport('api.txt', 'x'), check: true }]),
    ]);
    await ok(['lane', 'wait', 's1-api-builder-i1', '--timeout', '60']);
    id.critic = await startLane([
      '--run',
      's1',
      '--for',
      'api',
      '--role',
      'critic',
      '--brief',
      writeBrief(briefs, 'critic.md', [{ run: judgeAndReport('NOT_YET', 1) }]),
    ]);
    await ok(['lane', 'wait', 's1-api-critic-i1', '--timeout', '60']);
    const lanes = JSON.parse(await ok(['lane', 'list', '--json'])) as {
      id: number;
      title: string;
      report: { verdictFile: string | null } | null;
    }[];
    for (const l of lanes) title[l.id] = l.title;
    title[id.root] = 'state root';
    verdictFile = lanes.find((l) => l.id === id.critic)!.report!.verdictFile!;
    assert.ok(verdictFile.endsWith('.json'), verdictFile);
    timing('root, builder and critic started', t);
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

  it('offers buttons instead of commands: Send anyway to a judge that reported, Open report, Stop only while busy, Resume once stopped', async () => {
    const { page } = session();
    const t = Date.now();
    await runCommand(page, 'svc: Open Conversation');
    await quickPick(page, title[id.critic]);
    const frame = await panelOf(page, id.critic, 's1-api-critic-i1');
    await frame.locator('header .activity[data-activity="idle"]').waitFor();
    // Idle: nothing to stop. The critic's verdict file is its report.
    assert.equal(await frame.locator('header vscode-button.stop').count(), 0, 'no Stop while idle');
    assert.deepEqual(await frame.locator('header .header-actions vscode-button').allTextContents(), ['Open report']);

    await frame.locator('.composer vscode-textarea textarea').fill('one more look, please');
    await frame.locator('.composer vscode-button.send').click();
    const status = frame.locator('.composer-status');
    await status.filter({ hasText: /already filed its done report\.$/ }).waitFor({ timeout: 15_000 });
    assert.equal(await status.textContent(), `critic s1-api-critic-i1 already filed its done report.`);
    assert.doesNotMatch((await frame.locator('.composer').textContent()) ?? '', /svc |--force/, 'no command to type');
    await screenshot(page, '32-send-anyway-offered');
    await frame.locator('.composer vscode-button.send-anyway', { hasText: 'Send anyway' }).click();
    await status.filter({ hasText: /^(Sent\.|Queued: .*)$/ }).waitFor({ timeout: 15_000 });
    await frame.locator('.transcript .prompt', { hasText: 'one more look, please' }).waitFor();
    assert.equal(await frame.locator('.composer vscode-textarea textarea').inputValue(), '');
    timing('Send anyway', t);

    // Open report opens the verdict file, kept (an explicit open).
    await frame.locator('header vscode-button.open-report').click();
    await activeTab(page)
      .locator('.label-name', { hasText: path.basename(verdictFile) })
      .waitFor();
    assert.equal(
      await activeTab(page).locator('.monaco-icon-label.italic').count(),
      0,
      'an explicit open is not a preview',
    );
    await closeEditors();

    // Stopped: Send is off, Resume is offered in words and as a button.
    await ok(['conv', 'stop', String(id.builder)]);
    await runCommand(page, 'svc: Open Conversation');
    await quickPick(page, title[id.builder]);
    const builder = await panelOf(page, id.builder, 's1-api-builder-i1');
    await builder.locator('header .activity[data-activity="stopped"]').waitFor({ timeout: 15_000 });
    await builder.locator('.stopped-note', { hasText: /^The agent stopped\. Resume it to send messages\.$/ }).waitFor();
    assert.equal(await builder.locator('.composer vscode-button.send').getAttribute('disabled'), '');
    assert.equal(await builder.locator('header vscode-button.stop').count(), 0);
    // The daemon's "svc conv resume continues it"-style notes show without the command.
    assert.doesNotMatch((await builder.locator('#root').textContent()) ?? '', /svc conv resume/);
    await screenshot(page, '33-resume-instead-of-send');
    const t2 = Date.now();
    await builder.locator('.composer vscode-button.resume:not([hidden])').click();
    await builder.locator('header .activity[data-activity="idle"]').waitFor({ timeout: 30_000 });
    // The composer never states an activity of its own (it once said "Resumed: it is stopped." under an idle header):
    // its success line holds until the state moves on, so it is "Resumed." or gone.
    assert.match((await builder.locator('.composer-status').textContent()) ?? '', /^(Resumed\.)?$/);
    await builder.locator('.stopped-note').waitFor({ state: 'hidden' });
    assert.equal(await builder.locator('.composer vscode-button.send').getAttribute('disabled'), null);
    timing('resumed from the panel', t2);
    await closeEditors();
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

  it('Reviews: a reviewer row previews its report and a double-click keeps it; the run row stays collapsed across refreshes', async () => {
    const { page, cs } = session();
    const t = Date.now();
    const scripts = path.join(cs.scratch.home, 'state-review');
    fs.mkdirSync(scripts, { recursive: true });
    // The quick reviewer writes an APPROVED report and posts it; the work agent commits and hands in.
    fs.writeFileSync(
      path.join(scripts, 'quick.sh'),
      `printf '# Verdict: APPROVED\\n\\n## Summary\\nquick pass over %s\\n\\n## Blockers\\nNone.\\n\\n## Evidence\\nread the diff\\n' "$SVC_REVIEW_SHA" > "$SVC_REVIEW_REPORT"\nsvc review post "$SVC_ISSUE" --run "$SVC_REVIEW_RUN" > /dev/null 2>&1\n`,
    );
    fs.writeFileSync(
      path.join(scripts, 'work.sh'),
      `printf 'feature\\n' > feature.txt && git add feature.txt && git commit -qm feature && svc done > /dev/null 2>&1\n`,
    );
    for (const n of ['quick', 'work'])
      fs.writeFileSync(path.join(scripts, `${n}.yaml`), `- run: . "${path.join(scripts, `${n}.sh`)}"\n`);
    fs.writeFileSync(
      path.join(cs.scratch.svcHome, 'config.yaml'),
      `harnesses:\n  script:\n    scripts:\n      "agent-${PROJECT}-*-review": ${path.join(scripts, 'quick.yaml')}\n      "agent-${PROJECT}-*": ${path.join(scripts, 'work.yaml')}\nroles:\n  review:\n    mode: quick\n    model: m\n    harness: script\n`,
    );
    const issue = JSON.parse(
      await ok(['issue', 'new', '--project', PROJECT, '--title', 'state feature', '--json']),
    ) as { id: string };
    reviewed = issue.id;
    await ok(['issue', 'start', issue.id, '--harness', 'script', '--model', 'm']);
    const state = await eventually(
      async () => {
        const s = JSON.parse(await ok(['show', issue.id, '--json'])) as IssueState;
        return s.pr?.reviewState === 'approved' ? s : undefined;
      },
      60_000,
      `${issue.id} approved`,
    );
    const reviewerId = state.reviewers.find((r) => r.role === 'quick')!.id;
    timing('quick review approved', t);

    await closeEditors();
    const viewport = page.viewportSize()!;
    await page.setViewportSize({ width: viewport.width, height: 2000 });
    try {
      // The newest issue's run (an earlier suite's issue may have a quick review r1 too).
      const run = rowByLabel(page, 'Reviews', 'review r1 (quick)').last();
      await run.locator('.label-description', { hasText: /^APPROVED · at [0-9a-f]{7}$/ }).waitFor({ timeout: 20_000 });
      const reviewer = rowByDescription(page, 'Reviews', `#${reviewerId} · `);
      await reviewer.click();
      const tab = activeTab(page);
      await tab.locator('.label-name', { hasText: /\.md$/ }).waitFor();
      assert.equal(await tab.locator('.monaco-icon-label.italic').count(), 1, 'a click opens a preview tab');
      await reviewer.dblclick();
      await eventually(
        async () => (await activeTab(page).locator('.monaco-icon-label.italic').count()) === 0,
        5000,
        'the double-click keeps the tab',
      );
      assert.equal((await tabs(page)).length, 1);
      await screenshot(page, '38-report-kept-by-double-click');
      await closeEditors();

      await run.locator('.monaco-tl-twistie').click();
      assert.equal(await run.getAttribute('aria-expanded'), 'false');
      await runCommand(page, 'svc: Refresh Views');
      await ok(['tell', String(id.root), 'a change the trees hear about']);
      await page.waitForTimeout(1500);
      assert.equal(
        await run.getAttribute('aria-expanded'),
        'false',
        'the run row stays collapsed after a refresh and a change',
      );
      await screenshot(page, '39-reviews-expansion-kept');
    } finally {
      await page.setViewportSize(viewport);
    }
  });
  it('an issue row requests a review on hover; the run before folds into collapsed "earlier runs" in both trees; the PR row merges on hover', async () => {
    const { page } = session();
    assert.ok(reviewed, 'the quick review ran');
    const viewport = page.viewportSize()!;
    await page.setViewportSize({ width: viewport.width, height: 2000 });
    // Every suite's rows are in both trees by now, and a tree draws only the rows in view:
    // the tree being looked at gets the whole side bar.
    const only = async (view: 'Reviews' | 'Command Deck') => {
      for (const v of ['Awareness', 'Command Deck', 'Reviews']) if (v !== view) await setPaneExpanded(page, v, false);
      await setPaneExpanded(page, view, true);
    };
    try {
      await only('Reviews');
      const issueRow = rowByLabel(page, 'Reviews', `${reviewed} state feature`);
      await issueRow
        .locator('.label-description', { hasText: /^PR #\d+ · approved · ready to merge$/ })
        .waitFor({ timeout: 20_000 });
      await issueRow.hover();
      assert.deepEqual(await hoverActions(issueRow), ['Request Review…']);
      await issueRow.locator('.actions a.action-label').first().click();
      // The optional note for the reviewers: none.
      await page
        .locator('.quick-input-widget .quick-input-title', { hasText: `svc: Request Review of ${reviewed}` })
        .waitFor();
      await page.locator('.quick-input-widget input.input').press('Enter');
      await waitForMessage(
        page,
        new RegExp(`^svc: requested review r2 \\(quick\\) of ${reviewed} at [0-9a-f]{7} \\(PR #\\d+\\)\\.$`),
        30_000,
      );
      await eventually(
        async () => {
          const st = JSON.parse(await ok(['show', reviewed, '--json'])) as IssueState;
          return st.run?.runId === 'r2' && st.pr?.reviewState === 'approved';
        },
        60_000,
        `${reviewed} review r2 approved`,
      );

      // Reviews: r2 on top, r1 under "earlier runs", collapsed.
      const run = rowByLabel(page, 'Reviews', 'review r2 (quick)');
      await run.locator('.label-description', { hasText: /^APPROVED · at [0-9a-f]{7}$/ }).waitFor({ timeout: 20_000 });
      // The test before collapsed this issue's run row; its id is the issue's, so r2 keeps it collapsed.
      assert.equal(await run.getAttribute('aria-expanded'), 'false');
      await run.locator('.monaco-tl-twistie').click();
      const reviewsHistory = rowByDescription(page, 'Reviews', 'r1 APPROVED');
      await reviewsHistory.waitFor();
      assert.equal(await reviewsHistory.locator('.label-name').textContent(), 'earlier runs');
      assert.equal(await reviewsHistory.getAttribute('aria-expanded'), 'false');
      await screenshot(page, '38b-reviews-earlier-runs-collapsed');

      // The Command Deck: one convoy row, r2. r1's agents were archived when r2 started, so r1
      // shows with "Show Archived", folded under r2 in the same way.
      await only('Command Deck');
      const convoy = rowByLabel(page, 'Command Deck', `${reviewed} review r2`);
      await convoy.locator('.label-description', { hasText: /^quick · APPROVED$/ }).waitFor({ timeout: 20_000 });
      const deckHistory = rowByDescription(page, 'Command Deck', 'r1 APPROVED');
      assert.deepEqual(
        [await rowByLabel(page, 'Command Deck', `${reviewed} review r1`).count(), await deckHistory.count()],
        [0, 0],
        'r1 is not a convoy row of its own',
      );
      await clickViewAction(page, 'Command Deck', 'Show Archived');
      try {
        await deckHistory.waitFor({ timeout: 20_000 });
        assert.equal(await deckHistory.locator('.label-name').textContent(), 'earlier runs');
        assert.equal(await deckHistory.getAttribute('aria-expanded'), 'false');
        assert.equal(
          await rowByLabel(page, 'Command Deck', `${reviewed} review r1`).count(),
          0,
          'r1 stays folded until its history is expanded',
        );
        await screenshot(page, '38c-deck-earlier-runs-collapsed');
      } finally {
        await clickViewAction(page, 'Command Deck', 'Hide Archived');
      }

      // Merge PR on the readiness row (the row under the issue), on hover.
      await only('Reviews');
      await issueRow.waitFor();
      const index = Number(await issueRow.getAttribute('data-index'));
      const readiness = paneBody(page, 'Reviews').locator(
        `.monaco-list-row[role="treeitem"][data-index="${index + 1}"]`,
      );
      assert.equal(await readiness.locator('.label-name').textContent(), 'merge: ready');
      await readiness.hover();
      assert.deepEqual(await hoverActions(readiness), ['Merge PR'], 'a local PR has no web page to open');
      await screenshot(page, '38d-merge-pr-on-hover');
      await readiness.locator('.actions a.action-label').first().click();
      const dialog = await modalDialog(page);
      const pr = Number(/^Merge PR #(\d+) of /.exec(dialog.message)![1]);
      assert.equal(dialog.message, `Merge PR #${pr} of ${reviewed} into its base branch?`);
      await dialog.click('Merge');
      await waitForMessage(
        page,
        new RegExp(`^svc: merged PR #${pr} \\((fast-forward|merge|squash|rebase)\\) at [0-9a-f]{7}\\.$`),
        30_000,
      );
      await issueRow
        .locator('.label-description', { hasText: new RegExp(`^PR #${pr} · approved · merged$`) })
        .waitFor({ timeout: 20_000 });
      assert.equal(await readiness.locator('.label-name').textContent(), `PR #${pr} merged`);
      await screenshot(page, '38e-pr-merged');
    } finally {
      await page.mouse.move(900, 600);
      for (const v of ['Awareness', 'Command Deck', 'Reviews']) await setPaneExpanded(page, v, true);
      await page.setViewportSize(viewport);
    }
  });
});
