// What only the CLI could do, from the palette — `svc issue new` (the
// description written in an editor draft), `svc issue start` and `svc done`. "svc: Create
// Issue" shows only while an issue draft is the active editor.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { IssueInfo } from '../../../shared/protocol/issues';
import { git, makeRepo } from '../../helpers/scratch';
import { ok } from './cli';
import { session } from './session';
import {
  clearNotifications,
  clickNotificationButton,
  modalDialog,
  openContainer,
  openPalette,
  paletteOffers,
  quickPick,
  rowByLabel,
  runCommand,
  screenshot,
  waitForMessage,
} from './workbench';

const TITLE = 'palette issue';
const BODY = '## Acceptance\n\n- greet.txt says hello\n- the tests pass';

describe('issues from the palette: New Issue, Start Work Agent, Mark Issue Done', function () {
  this.timeout(180_000);
  let issue: IssueInfo;

  before(async () => {
    const { cs, page } = session();
    await openContainer(page, 'svc');
    const { dir } = makeRepo(cs.scratch, 'ip');
    await ok(['project', 'add', 'ip', dir]);
    await ok(['config', 'set', 'roles.review.harness', 'script']);
    await ok(['config', 'set', 'roles.review.model', 'm']);
  });

  it('writes the description in an editor draft; "svc: Create Issue" (offered only then) creates the issue with it', async () => {
    const { page } = session();
    assert.equal(await paletteOffers(page, 'svc: Create Issue'), false, 'no draft open: Create Issue is hidden');
    const projects = JSON.parse(await ok(['project', 'list', '--json'])) as unknown[];
    await runCommand(page, 'svc: New Issue…');
    if (projects.length > 1) await quickPick(page, 'ip');
    const input = page.locator('.quick-input-widget input.input');
    await input.fill(TITLE);
    await input.press('Enter');
    await quickPick(page, 'Write the description in an editor');

    // The draft: an untitled Markdown editor whose comment says how to submit it.
    const editor = page.locator('.editor-instance .monaco-editor').first();
    await editor.locator('.view-lines', { hasText: 'svc: Create Issue' }).waitFor();
    // The editor title's button and the palette entry follow one context key: the button shows first.
    await page.locator('.editor-actions a.action-label[aria-label="Create Issue"]').waitFor();
    // An empty draft is not submitted: it stays open.
    await runCommand(page, 'svc: Create Issue');
    await waitForMessage(page, 'svc: the description is empty: write it below the comment');
    await editor.locator('.view-lines').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(BODY);
    assert.equal(await paletteOffers(page, 'svc: Create Issue'), true, 'the active issue draft offers Create Issue');
    await screenshot(page, '44-issue-description-draft');
    await page.locator('.editor-actions a.action-label[aria-label="Create Issue"]').click();

    const said = await waitForMessage(page, /^svc: created issue IP-\d+: palette issue; its workspace is /, 30_000);
    const id = /created issue (IP-\d+)/.exec(said)![1];
    issue = JSON.parse(await ok(['issue', 'show', id, '--json'])) as IssueInfo;
    assert.deepEqual([issue.title, issue.body], [TITLE, BODY]);
    await page.locator('.tabs-container .tab', { hasText: 'Untitled' }).waitFor({ state: 'detached' });
    await rowByLabel(page, 'Reviews', `${id} ${TITLE}`).waitFor();
    assert.equal(await paletteOffers(page, 'svc: Create Issue'), false, 'the draft is gone with its command');

    // The message's button starts the work agent (`svc issue start`).
    await clickNotificationButton(page, `svc: created issue ${id}`, 'Start Work Agent');
    await quickPick(page, 'script');
    await input.fill('m');
    await input.press('Enter');
    await waitForMessage(
      page,
      new RegExp(
        `^svc: Work agent agent-${id.toLowerCase()} \\(#\\d+\\) of ${id}: starting in ${issue.workspace.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.`,
      ),
      30_000,
    );
    issue = JSON.parse(await ok(['issue', 'show', id, '--json'])) as IssueInfo;
    assert.ok(issue.agent, 'the issue has its work agent');
    await screenshot(page, '45-issue-work-agent-started');
    await clearNotifications(page);
  });

  it('"svc: Mark Issue Done" asks first, then pushes, opens the PR and requests a review like svc done', async () => {
    const { page, cs } = session();
    fs.writeFileSync(path.join(issue.workspace, 'greet.txt'), 'hello\n');
    git(issue.workspace, cs.scratch.env, 'add', '.');
    git(issue.workspace, cs.scratch.env, 'commit', '-q', '-m', 'greet');
    const sha = git(issue.workspace, cs.scratch.env, 'rev-parse', 'HEAD');
    // Each command is found by its own words: "Request Review" finds Request Review first, not Mark Issue Done.
    await openPalette(page);
    const input = page.locator('.quick-input-widget input.input');
    for (const [words, first] of [
      ['Request Review', 'svc: Request Review…'],
      ['Mark Issue Done', 'svc: Mark Issue Done (Push, Open the PR)…'],
    ]) {
      await input.fill(`>${words}`);
      await page.locator('.quick-input-list .monaco-list-row .label-name', { hasText: first }).first().waitFor();
      assert.equal(
        ((await page.locator('.quick-input-list .monaco-list-row .label-name').first().textContent()) ?? '')
          .replace(/\s+/g, ' ')
          .trim(),
        first,
      );
    }
    await page.keyboard.press('Escape');
    await runCommand(page, 'svc: Mark Issue Done (Push, Open the PR)…');
    await quickPick(page, issue.id);
    const dialog = await modalDialog(page);
    assert.equal(dialog.message, `Mark ${issue.id} done?`);
    assert.equal(
      dialog.detail,
      `svc pushes its branch, opens its pull request if none is open, and requests a review, as svc done ${issue.id} does.`,
    );
    await screenshot(page, '46-issue-done-modal');
    await dialog.click('Push and Request Review');
    const said = await waitForMessage(
      page,
      `svc: ${issue.id}: Pushed ${issue.branch} at ${sha.slice(0, 7)}; opened PR #`,
      60_000,
    );
    const pr = Number(/opened PR #(\d+)/.exec(said)![1]);
    assert.match(said, /; review r1 \(quick\) requested\.$/);
    const show = JSON.parse(await ok(['show', issue.id, '--json'])) as { pr: { number: number } };
    assert.equal(show.pr.number, pr);
    await clearNotifications(page);
  });
});
