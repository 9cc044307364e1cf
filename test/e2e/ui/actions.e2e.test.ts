// The row actions in a real VS Code (code-server 4.100.3 in chromium), each asserted
// by what it does: the activity icons of a working agent and of one that failed to start;
// the inline hover actions Answer (needs-you), Tell and Stop (working), Resume (stopped) and
// Abort (a running review convoy); Abort Review offered in the palette only while a review
// runs, and aborting from it; Open PR and Merge PR on the PR rows of a project on GitHub
// (the GitHub fake of the integration tests, over the project's real bare remote), Open PR
// naming the PR's html_url in VS Code's "open the external website?" dialog.
// Runs last: it replaces SVC_HOME/config.yaml (scripted reviewers, a harness that cannot
// start, the GitHub token) and adds a GitHub project to projects.yaml.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import YAML from 'yaml';
import { isLive } from '../../../shared/activity';
import type { IssueState } from '../../../shared/protocol/review';
import { startGithubFake } from '../../helpers/githubFake';
import type { GithubFake } from '../../helpers/githubFake';
import { eventually, makeRepo } from '../../helpers/scratch';
import { issueDone, ok, svc } from './cli';
import { reviewFixture } from './reviewFixture';
import { session, timing } from './session';
import {
  clearNotifications,
  hoverActions,
  modalDialog,
  openContainer,
  paletteOffers,
  paneBody,
  quickPick,
  rowByDescription,
  rowByLabel,
  rowIcon,
  runCommand,
  screenshot,
  setPaneExpanded,
  themeColor,
  waitForMessage,
} from './workbench';

const PROJECT = 'ac';
const GH = 'gh';

/** A script step that holds the agent working until `file` exists (at most two minutes), so a test can act on it. */
const holdUntil = (file: string) => `for i in $(seq 1 600); do [ -f '${file}' ] && break; sleep 0.2; done`;
const scriptPrompt = (steps: object[]) => `\`\`\`svc-script\n${YAML.stringify(steps)}\`\`\`\n`;

/** The tree being looked at gets the whole side bar (a tree draws only the rows in view). */
async function only(page: Page, view: 'Reviews' | 'Command Deck'): Promise<void> {
  for (const v of ['Awareness', 'Command Deck', 'Reviews']) if (v !== view) await setPaneExpanded(page, v, false);
  await setPaneExpanded(page, view, true);
}

/** Hovers a row and clicks its inline action `title`. */
async function clickHoverAction(row: Locator, title: string): Promise<void> {
  await row.hover();
  const action = row.locator(`.actions a.action-label[aria-label="${title}"]`);
  await action.waitFor();
  await action.click();
}

const description = (row: Locator, re: RegExp, timeout = 20_000) =>
  row.locator('.label-description', { hasText: re }).waitFor({ timeout });

describe('row actions by what they do, Abort Review while a review runs, Open PR on GitHub (code-server 4.100.3)', function () {
  this.timeout(180_000);
  let release = '';
  let fake: GithubFake | undefined;
  let viewport = { width: 1400, height: 900 };

  before(async () => {
    const { cs, page } = session();
    const t = Date.now();
    const { dir } = makeRepo(cs.scratch, PROJECT);
    const gh = makeRepo(cs.scratch, GH);
    fake = await startGithubFake({ owner: 'acme', repo: 'web', gitDir: gh.origin });
    fake.addUser('token-svc', 'svc');
    release = path.join(cs.scratch.home, 'actions-release');
    // ac's review lanes hold until released (a review that runs while the test acts); gh's approve at once.
    const scripts = path.join(cs.scratch.home, 'actions-scripts');
    reviewFixture(scripts, GH);
    const hold = path.join(scripts, 'hold.yaml');
    fs.writeFileSync(hold, YAML.stringify([{ run: holdUntil(release) }]));
    const config = {
      harnesses: {
        // A harness whose command does not exist: its agents fail to start.
        missing: { command: path.join(cs.scratch.home, 'no-such-agent') },
        script: {
          scripts: {
            [`agent-${PROJECT}-*-review*`]: hold,
            [`agent-${GH}-*-review-*`]: path.join(scripts, 'lane.yaml'),
            [`agent-${GH}-*-review`]: path.join(scripts, 'parent.yaml'),
          },
        },
      },
      roles: { review: { mode: 'full', model: 'm', harness: 'script' } },
      codehost: { github: { token: 'token-svc', poll_s: 0 } },
    };
    fs.mkdirSync(cs.scratch.svcHome, { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(cs.scratch.svcHome, 'config.yaml'), YAML.stringify(config));
    await ok(['project', 'add', PROJECT, dir]);
    await ok(['project', 'add', GH, gh.dir]);
    const projectsFile = path.join(cs.scratch.svcHome, 'projects.yaml');
    const doc = YAML.parse(fs.readFileSync(projectsFile, 'utf8')) as {
      projects: Record<string, Record<string, unknown>>;
    };
    Object.assign(doc.projects[GH], { code_host: 'github', github: { owner: 'acme', repo: 'web', api_url: fake.url } });
    fs.writeFileSync(projectsFile, YAML.stringify(doc));
    timing('projects ac and gh (GitHub fake) added', t);
    await openContainer(page, 'svc');
    viewport = page.viewportSize()!;
    await page.setViewportSize({ width: viewport.width, height: 2000 });
  });
  after(async () => {
    const { page } = session();
    if (release) fs.writeFileSync(release, 'go\n');
    await fake?.close();
    await page.mouse.move(900, 600);
    await page.setViewportSize(viewport);
    for (const v of ['Awareness', 'Command Deck', 'Reviews'])
      await setPaneExpanded(page, v, true).catch(() => undefined);
  });

  const newConv = async (title: string, args: string[], code = 0) => {
    // A start that fails is waited for (it exits 1 once the harness cannot start); the others are not.
    const r = await svc([
      'conv',
      'new',
      '--project',
      PROJECT,
      '--title',
      title,
      ...(code === 0 ? ['--no-wait'] : []),
      '--json',
      ...args,
    ]);
    assert.equal(r.code, code, `svc conv new exited ${r.code}: ${r.stdout}\n${r.stderr}`);
    return Number(/"id":\s*(\d+)|#(\d+)/.exec(r.stdout)?.slice(1).find(Boolean));
  };

  it('colours the activity icons of a working agent (blue, spinning) and of one that failed to start (red error)', async () => {
    const { page } = session();
    await only(page, 'Command Deck');
    const working = await newConv('holds working', [
      '--harness',
      'script',
      '--model',
      'm',
      '--prompt',
      scriptPrompt([{ say: 'working on it' }, { run: holdUntil(release) }]),
    ]);
    const failed = await newConv('cannot start', ['--harness', 'missing', '--model', 'm', '--prompt', 'hello'], 1);
    const workingRow = rowByDescription(page, 'Command Deck', `#${working} · `);
    const failedRow = rowByDescription(page, 'Command Deck', `#${failed} · `);
    await description(workingRow, new RegExp(`^#${working} · working$`));
    await description(failedRow, new RegExp(`^#${failed} · failed-to-start$`));
    assert.deepEqual(await rowIcon(workingRow), { codicon: 'sync', color: await themeColor(page, 'charts.blue') });
    assert.match(
      (await workingRow.locator('.custom-view-tree-node-item-icon').getAttribute('class')) ?? '',
      /codicon-modifier-spin/,
      'the working icon spins',
    );
    assert.deepEqual(await rowIcon(failedRow), {
      codicon: 'error',
      color: await themeColor(page, 'list.errorForeground'),
    });
    assert.notEqual(await themeColor(page, 'charts.blue'), await themeColor(page, 'list.errorForeground'));
    await screenshot(page, '70-activity-icons-working-and-failed');
    // A failed start offers Resume on hover, as a stopped agent does.
    await failedRow.hover();
    assert.deepEqual(await hoverActions(failedRow), ['Resume Conversation']);
    await page.mouse.move(900, 600);
  });

  it('inline hover actions do what they say: Tell and Stop on a working row, Resume on the stopped one, Answer on a needs-you row', async () => {
    const { page } = session();
    await only(page, 'Command Deck');
    const t = Date.now();
    const id = await newConv('tell stop resume', [
      '--harness',
      'script',
      '--model',
      'm',
      '--prompt',
      scriptPrompt([{ run: holdUntil(release) }]),
    ]);
    const row = rowByDescription(page, 'Command Deck', `#${id} · `);
    await description(row, new RegExp(`^#${id} · working$`));
    await row.hover();
    assert.deepEqual(await hoverActions(row), ['Tell Conversation…', 'Stop Conversation']);
    await screenshot(page, '71-working-row-tell-stop-on-hover');

    // Tell: the message box opens for this row; the message is queued behind the working turn.
    await clickHoverAction(row, 'Tell Conversation…');
    await page.locator('.quick-input-widget .quick-input-title', { hasText: `svc: Tell #${id}` }).waitFor();
    await page.locator('.quick-input-widget input.input').fill('a word from the hover action');
    await page.locator('.quick-input-widget input.input').press('Enter');
    await waitForMessage(
      page,
      new RegExp(`^svc: queued for #${id}: delivered when its turn ends \\(\\d+ ahead\\)\\.$`),
    );
    await clearNotifications(page);

    // Stop: the agent stops; the row turns stopped and offers Resume instead.
    await clickHoverAction(row, 'Stop Conversation');
    await waitForMessage(page, new RegExp(`^svc: stopped #${id} \\(tell-stop-resume\\)\\.$`), 30_000);
    await description(row, new RegExp(`^#${id} · stopped$`));
    await row.hover();
    assert.deepEqual(await hoverActions(row), ['Resume Conversation']);
    assert.equal(JSON.parse(await ok(['conv', 'show', String(id), '--json'])).activity, 'stopped');
    await screenshot(page, '72-stopped-row-resume-on-hover');
    await clearNotifications(page);

    // Resume: the agent runs again.
    await clickHoverAction(row, 'Resume Conversation');
    await waitForMessage(page, new RegExp(`^svc: resumed #${id} \\(tell-stop-resume\\); it is `), 30_000);
    await description(row, new RegExp(`^#${id} · (starting|working|idle)$`), 30_000);
    assert.notEqual(JSON.parse(await ok(['conv', 'show', String(id), '--json'])).activity, 'stopped');
    timing('tell, stop and resume from the hover', t);
    await clearNotifications(page);

    // Answer: the request's choices open; the pick answers it and the agent goes on.
    const asks = await newConv('asks', [
      '--harness',
      'script',
      '--model',
      'm',
      '--prompt',
      scriptPrompt([{ ask: 'Ship the hover test?' }, { say: 'shipping' }]),
    ]);
    const askRow = rowByDescription(page, 'Command Deck', `#${asks} · `);
    await description(askRow, new RegExp(`^#${asks} · needs-you$`));
    await askRow.hover();
    assert.deepEqual(await hoverActions(askRow), ['Answer Needs-You Request…']);
    await screenshot(page, '73-needs-you-row-answer-on-hover');
    await clickHoverAction(askRow, 'Answer Needs-You Request…');
    await page.locator('.quick-input-widget .quick-input-title', { hasText: `svc: Answer #${asks}: ` }).waitFor();
    await quickPick(page, 'Allow');
    await waitForMessage(page, new RegExp(`^svc: answered #${asks}: `));
    await description(askRow, new RegExp(`^#${asks} · idle$`));
    assert.match(await ok(['conv', 'log', String(asks)]), /shipping/);
    await page.mouse.move(900, 600);
    await clearNotifications(page);
  });

  it('offers Abort Review in the palette while a review convoy runs, aborts it from there and from the convoy row on hover', async () => {
    const { page } = session();
    await only(page, 'Command Deck');
    const t = Date.now();
    const issue = await issueDone(PROJECT, 'abort me');
    const convoy = (run: string) => rowByLabel(page, 'Command Deck', `${issue.id} review ${run}`);
    await description(convoy('r1'), /^full · reviewing$/, 30_000);
    timing('review convoy r1 running', t);

    // The palette offers Abort Review now (it hides it with no review running: palette.e2e).
    assert.equal(await paletteOffers(page, 'svc: Abort Review'), true, 'Abort Review offered while a review runs');
    await runCommand(page, 'svc: Abort Review');
    await quickPick(page, issue.id);
    await waitForMessage(page, new RegExp(`^svc: stopped 5 reviewer\\(s\\) of ${issue.id}: `), 30_000);
    await description(convoy('r1'), /^full · aborted$/);
    // Hidden again, unless an earlier suite's review still has a live reviewer (an unscripted one idles).
    const issues = JSON.parse(await ok(['issue', 'list', '--json'])) as { id: string }[];
    const running: string[] = [];
    for (const i of issues) {
      const s = JSON.parse(await ok(['show', i.id, '--json'])) as IssueState;
      if (s.reviewers.some((r) => r.alive || isLive(r.activity))) running.push(i.id);
    }
    assert.ok(!running.includes(issue.id), `${issue.id}'s reviewers stopped`);
    if (!running.length)
      await eventually(
        async () => !(await paletteOffers(page, 'svc: Abort Review')),
        15_000,
        'Abort Review hidden again',
      );
    await screenshot(page, '74-review-aborted-from-palette');
    await clearNotifications(page);

    // Again from the convoy row's hover.
    await ok(['review', 'request', issue.id]);
    await description(convoy('r2'), /^full · reviewing$/, 30_000);
    await convoy('r2').hover();
    assert.deepEqual(await hoverActions(convoy('r2')), ['Abort Review']);
    await screenshot(page, '75-convoy-abort-on-hover');
    await clickHoverAction(convoy('r2'), 'Abort Review');
    await waitForMessage(page, new RegExp(`^svc: stopped 5 reviewer\\(s\\) of ${issue.id}: `), 30_000);
    await description(convoy('r2'), /^full · aborted$/);
    const st = JSON.parse(await ok(['show', issue.id, '--json'])) as IssueState;
    assert.ok(
      st.reviewers.every((r) => r.activity === 'stopped'),
      st.reviewers.map((r) => `${r.role} ${r.activity}`).join(', '),
    );
    await page.mouse.move(900, 600);
    await clearNotifications(page);
  });

  it("a GitHub project's PR rows: Open PR shows the PR's html_url from GitHub; the readiness row offers Merge PR and Open PR", async () => {
    const { page } = session();
    const t = Date.now();
    const issue = await issueDone(GH, 'on github');
    const opened = fake!.responses.find(
      (r) => r.method === 'POST' && r.path === '/repos/acme/web/pulls' && r.status === 201,
    );
    assert.ok(
      opened,
      `svc done opened the PR on GitHub: ${fake!.requests.map((r) => `${r.method} ${r.path} ${r.status}`).join(', ')}`,
    );
    const { number, html_url: htmlUrl } = opened.body as { number: number; html_url: string };
    assert.equal(htmlUrl, `https://github.com/acme/web/pull/${number}`);
    await eventually(
      async () => (JSON.parse(await ok(['show', issue.id, '--json'])) as IssueState).pr?.reviewState === 'approved',
      90_000,
      `${issue.id} approved`,
    );
    timing('PR opened on the GitHub fake and approved', t);

    await only(page, 'Reviews');
    const issueRow = rowByLabel(page, 'Reviews', `${issue.id} on github`);
    await description(issueRow, new RegExp(`^PR #${number} · approved · `));
    const index = Number(await issueRow.getAttribute('data-index'));
    const readiness = paneBody(page, 'Reviews').locator(`.monaco-list-row[role="treeitem"][data-index="${index + 1}"]`);
    assert.equal(await readiness.locator('.label-name').textContent(), 'merge: ready');
    await readiness.hover();
    assert.deepEqual(await hoverActions(readiness), ['Merge PR', 'Open PR']);
    await issueRow.hover();
    assert.deepEqual(
      await hoverActions(issueRow),
      ['Request Review… (Ctrl+Alt+S R)', 'Open PR'],
      'the issue row is the PR row: Open PR there too',
    );
    await screenshot(page, '76-github-pr-row-open-pr-on-hover');

    // Open PR on the readiness row, then on the issue (PR) row: VS Code asks before opening the PR's page, naming it.
    for (const row of [readiness, issueRow]) {
      await clickHoverAction(row, 'Open PR');
      const dialog = await modalDialog(page);
      assert.match(dialog.message, /open the external website\?$/);
      assert.equal(dialog.detail, htmlUrl);
      if (row === readiness) await screenshot(page, '77-open-pr-asks-to-open-html-url');
      await dialog.click('Cancel');
    }

    // Merge PR merges on GitHub.
    await clickHoverAction(readiness, 'Merge PR');
    const merge = await modalDialog(page);
    assert.equal(merge.message, `Merge PR #${number} of ${issue.id} into its base branch?`);
    await merge.click('Merge');
    await waitForMessage(
      page,
      new RegExp(`^svc: merged PR #${number} \\((merge|squash|rebase)\\) at [0-9a-f]{7}\\.$`),
      30_000,
    );
    assert.ok(
      fake!.requests.some(
        (r) => r.method === 'PUT' && r.path === `/repos/acme/web/pulls/${number}/merge` && r.status === 200,
      ),
      'merged through the GitHub API',
    );
    await description(issueRow, new RegExp(`^PR #${number} · approved · merged$`));
    await screenshot(page, '78-github-pr-merged');
    await page.mouse.move(900, 600);
    await clearNotifications(page);
  });
});
