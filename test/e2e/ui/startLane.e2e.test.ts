// Start Lane fails early, not after six steps. The model is resolved for the
// role before the brief (none set: the harness's models, a typed one, or Open Roles, which
// keeps the answers); Back keeps answers; reopening prefills them; a critic is offered
// builders with their report state and asked for the commit of one that has not
// reported; the brief is written in an editor and "svc: Launch Lane" launches it; a
// refused launch keeps the draft and the answers.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import type { LaneRecord } from '../../../shared/protocol/lanes';
import { git, makeRepo } from '../../helpers/scratch';
import { ok } from './cli';
import { session } from './session';
import {
  clearNotifications,
  contextMenuItem,
  openContainer,
  paletteOffers,
  quickPick,
  revealRow,
  rowByLabel,
  runCommand,
  screenshot,
  waitForMessage,
  webviewFrame,
} from './workbench';

const lanes = async () => JSON.parse(await ok(['lane', 'list', '--run', 'sl1', '--json'])) as LaneRecord[];

const input = (page: Page) => page.locator('.quick-input-widget input.input');

/**
 * Waits for the quick input step whose title is `title` ("svc: Start Lane (3/6)") and reads
 * it at once (an absent element is read as empty, never waited for): its value,
 * placeholder, prompt, focused row and visible rows (a pick's list is given a moment to
 * render its rows).
 */
async function step(
  page: Page,
  title: string,
): Promise<{ value: string; placeholder: string; prompt: string; active: string; items: string[] }> {
  const widget = page.locator('.quick-input-widget');
  await widget.locator('.quick-input-title', { hasText: title }).waitFor({ timeout: 15_000 });
  await page.waitForTimeout(200);
  // No named functions inside evaluate: the page cannot see tsx's helpers.
  const read = () =>
    widget.evaluate((w) => {
      const inputBox = w.querySelector<HTMLInputElement>('input.input');
      const list = w.querySelector<HTMLElement>('.quick-input-list');
      // The visible rows' labels (not their detail lines; the list keeps hidden rows of earlier picks).
      const rows = Array.from(w.querySelectorAll<HTMLElement>('.quick-input-list .monaco-list-row')).filter(
        (r) => r.offsetParent !== null,
      );
      const message = w.querySelector<HTMLElement>('.quick-input-message');
      return {
        value: inputBox?.value ?? '',
        placeholder: inputBox?.getAttribute('placeholder') ?? '',
        prompt: message && message.offsetParent !== null ? (message.textContent ?? '').trim() : '',
        active: (
          rows.find((r) => r.classList.contains('focused'))?.querySelector('.label-name')?.textContent ?? ''
        ).trim(),
        items: rows.map((r) => (r.querySelector('.quick-input-list-row .label-name')?.textContent ?? '').trim()),
        pick: !!list && list.offsetParent !== null,
      };
    });
  let got = await read();
  for (let i = 0; i < 20 && got.pick && !got.active; i++) {
    await page.waitForTimeout(100);
    got = await read();
  }
  return { value: got.value, placeholder: got.placeholder, prompt: got.prompt, active: got.active, items: got.items };
}
const enter = (page: Page) => input(page).press('Enter');
async function type(page: Page, value: string): Promise<void> {
  await input(page).fill(value);
  await enter(page);
}

/** Types the brief into the draft editor and launches it with the editor title's "Launch Lane". */
async function writeBrief(page: Page, text: string, shot?: string): Promise<void> {
  const editor = page.locator('.editor-instance .monaco-editor').first();
  await editor.locator('.view-lines', { hasText: 'svc: Launch Lane' }).waitFor();
  await editor.locator('.view-lines').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(text);
  if (shot) await screenshot(page, shot);
  await page.locator('.editor-actions a.action-label[aria-label="Launch Lane"]').click();
}

/** Runs "Start Lane…" from the launcher's Command Deck row (its context menu): the flow starts at the role. */
async function startFrom(page: Page, launcher: string): Promise<void> {
  const row = rowByLabel(page, 'Command Deck', launcher);
  await revealRow(page, 'Command Deck', row);
  await contextMenuItem(page, row, 'Start Lane…');
}

describe('Start Lane from VS Code: the model first, Back, kept answers, the brief in an editor', function () {
  this.timeout(180_000);
  let launcherTitle = '';
  let svcHome = '';

  // A failed step leaves its quick input (or the row's menu) open: close it, so the next test starts clean.
  afterEach(async () => {
    const { page } = session();
    for (let i = 0; i < 3 && (await page.locator('.quick-input-widget input.input').isVisible()); i++)
      await page.keyboard.press('Escape');
    if (await page.locator('.context-view .monaco-menu').isVisible()) await page.keyboard.press('Escape');
  });

  before(async () => {
    const { cs, page } = session();
    svcHome = cs.scratch.svcHome;
    await openContainer(page, 'svc');
    const { dir } = makeRepo(cs.scratch, 'sl');
    await ok(['project', 'add', 'sl', dir]);
    launcherTitle = 'lane launcher';
    await ok([
      'conv',
      'new',
      '--project',
      'sl',
      '--harness',
      'script',
      '--model',
      'm',
      '--title',
      launcherTitle,
      '--prompt',
      'I launch lanes.',
    ]);
    await runCommand(page, 'View: Close All Editors');
  });

  it("with no model set for builders offers the harness's models, a typed one or Open Roles; Back keeps answers; Open Roles keeps them all", async () => {
    const { page } = session();
    await startFrom(page, launcherTitle);
    const role = await step(page, 'svc: Start Lane (1/6)');
    assert.equal(role.active, 'builder');
    await quickPick(page, 'builder');
    await step(page, 'svc: Start Lane (2/');
    await type(page, 'sl1');
    const key = await step(page, 'svc: Start Lane (3/');
    assert.equal(key.prompt.startsWith('Lane key of the builder (short name inside run sl1)'), true, key.prompt);
    await type(page, 'web');
    await step(page, 'svc: Start Lane (4/');
    await quickPick(page, 'Default');
    const model = await step(page, 'svc: Start Lane (5/');
    assert.match(
      model.placeholder,
      /^No model is set for builders of project sl: pick one script offers, type one, or set one in Roles/,
    );
    assert.deepEqual(model.items.slice(-2), ['Another model…', 'Open Roles…']);
    await screenshot(page, '50-start-lane-model-unset');

    // Back: the harness step, then the key with its answer kept.
    await page.locator('.quick-input-widget .codicon-quick-input-back').click();
    await step(page, 'svc: Start Lane (4/');
    await page.locator('.quick-input-widget .codicon-quick-input-back').click();
    const back = await step(page, 'svc: Start Lane (3/');
    assert.equal(back.value, 'web', 'Back keeps the key');
    await enter(page);
    await step(page, 'svc: Start Lane (4/');
    await enter(page);
    await step(page, 'svc: Start Lane (5/');
    await quickPick(page, 'Open Roles…');
    await waitForMessage(
      page,
      'svc: set the model for builders of project sl in Roles, then run "svc: Start Lane…" again: your answers are kept.',
    );
    await webviewFrame(page, '#root');
    await screenshot(page, '51-start-lane-open-roles');
    await clearNotifications(page);
    await runCommand(page, 'View: Close All Editors');
  });

  it('reopened after the model is set, every step is prefilled; the brief is written in an editor and "Launch Lane" launches it', async () => {
    const { page } = session();
    await ok(['config', 'set', 'projects.sl.gauntlet.roles.builder.model', 'm']);
    assert.equal(await paletteOffers(page, 'svc: Launch Lane'), false, 'no brief draft yet');
    await startFrom(page, launcherTitle);
    assert.equal((await step(page, 'svc: Start Lane (1/')).active, 'builder');
    await enter(page);
    assert.equal((await step(page, 'svc: Start Lane (2/')).value, 'sl1');
    await enter(page);
    assert.equal((await step(page, 'svc: Start Lane (3/')).value, 'web');
    await enter(page);
    assert.equal((await step(page, 'svc: Start Lane (4/')).active, 'Default');
    await enter(page);
    const model = await step(page, 'svc: Start Lane (5/');
    assert.equal(model.active, 'm', 'the model set for builders is chosen');
    assert.equal(model.placeholder, 'Model for the builder');
    await enter(page);
    assert.equal((await step(page, 'svc: Start Lane (6/')).active, 'Write the brief in an editor');
    await enter(page);
    await page.locator('.editor-instance .monaco-editor .view-lines', { hasText: 'svc: Launch Lane' }).waitFor();
    // The editor title's button and the palette entry follow one context key: the button shows first.
    await page.locator('.editor-actions a.action-label[aria-label="Launch Lane"]').waitFor();
    assert.equal(await paletteOffers(page, 'svc: Launch Lane'), true, 'the active brief draft offers Launch Lane');
    const brief = 'Build the web page.\n\n- it says hello';
    await writeBrief(page, brief, '52-start-lane-brief-draft');
    const said = await waitForMessage(page, /^Lane sl1\/web builder i1: conv \d+ \(sl1-web-builder-i1\) in /, 30_000);
    assert.ok(said.length > 0);
    const lane = (await lanes()).find((l) => l.key === 'web' && l.role === 'builder')!;
    assert.equal(lane.model, 'm');
    assert.equal(fs.readFileSync(path.join(svcHome, 'agents', `conv-${lane.name}`, 'lane-brief.md'), 'utf8'), brief);
    await page.locator('.tabs-container .tab', { hasText: 'Untitled' }).waitFor({ state: 'detached' });
    await clearNotifications(page);
  });

  it('a refused launch keeps the draft and every answer; the flow reopens prefilled and the same draft launches', async () => {
    const { page } = session();
    await startFrom(page, launcherTitle);
    await step(page, 'svc: Start Lane (1/');
    await quickPick(page, 'builder');
    // The project's runs to join, each with its lanes, or a new one; the launcher's newest run first.
    const run = await step(page, 'svc: Start Lane (2/');
    assert.deepEqual([run.items, run.active], [['sl1', 'New run…'], 'sl1'], "the launcher's newest run");
    assert.match(
      run.placeholder,
      /^Run key \(names this pass of the loop\): join a run of the project, or start a new one$/,
    );
    const runDescriptions = await page
      .locator('.quick-input-widget .quick-input-list .monaco-list-row')
      .evaluateAll((rows) =>
        rows
          .filter((r) => (r as HTMLElement).offsetParent !== null)
          .map((r) => (r.querySelector('.label-description')?.textContent ?? '').trim()),
      );
    assert.equal(runDescriptions.length, 2);
    assert.match(runDescriptions[0], /^1 lane · 1 builder · 1 (idle|working|starting)$/);
    assert.equal(runDescriptions[1], 'type a run key');
    await screenshot(page, '53-start-lane-runs');
    await enter(page);
    await step(page, 'svc: Start Lane (3/');
    await type(page, 'web'); // its builder is live: the daemon refuses a second one
    for (const n of [4, 5, 6]) {
      await step(page, `svc: Start Lane (${n}/`);
      await enter(page);
    }
    const brief = 'A second web builder.';
    await writeBrief(page, brief);
    await waitForMessage(page, /^lane sl1\/web builder is already live: #\d+ \(sl1-web-builder-i1\) is \w+/, 30_000);
    await page.locator('.tabs-container .tab.active', { hasText: 'Untitled' }).waitFor();
    await screenshot(page, '53-start-lane-refused-draft-kept');
    await clearNotifications(page);

    // The draft stays open meanwhile.
    await startFrom(page, launcherTitle);
    assert.equal((await step(page, 'svc: Start Lane (1/')).active, 'builder');
    await enter(page);
    assert.equal((await step(page, 'svc: Start Lane (2/')).active, 'sl1');
    await enter(page);
    assert.equal((await step(page, 'svc: Start Lane (3/')).value, 'web', 'the refused answers are kept');
    await type(page, 'api');
    for (const n of [4, 5, 6]) {
      await step(page, `svc: Start Lane (${n}/`);
      await enter(page);
    }
    // The open draft comes back with its text; launch it as it is.
    const editor = page.locator('.editor-instance .monaco-editor').first();
    await editor.locator('.view-lines', { hasText: 'sl1/api' }).waitFor();
    await editor.locator('.view-lines', { hasText: brief }).waitFor();
    await page.locator('.editor-actions a.action-label[aria-label="Launch Lane"]').click();
    await waitForMessage(page, /^Lane sl1\/api builder i1: conv \d+ \(sl1-api-builder-i1\) in /, 30_000);
    const lane = (await lanes()).find((l) => l.key === 'api')!;
    assert.equal(fs.readFileSync(path.join(svcHome, 'agents', `conv-${lane.name}`, 'lane-brief.md'), 'utf8'), brief);
    await clearNotifications(page);
  });

  it('offers a critic the builders with their report state; one that has not reported asks for the commit, prefilled with its head', async () => {
    const { page } = session();
    const web = (await lanes()).find((l) => l.key === 'web' && l.role === 'builder')!;
    // A commit on the builder's branch, so its head is not the base.
    fs.writeFileSync(path.join(web.cwd, 'page.html'), '<p>hello</p>\n');
    git(web.cwd, session().cs.scratch.env, 'add', '.');
    git(web.cwd, session().cs.scratch.env, 'commit', '-q', '-m', 'page');
    const head = git(web.cwd, session().cs.scratch.env, 'rev-parse', 'HEAD');

    await startFrom(page, launcherTitle);
    await step(page, 'svc: Start Lane (1/');
    await quickPick(page, 'critic');
    assert.deepEqual((await step(page, 'svc: Start Lane (2/')).items, ['sl1', 'New run…']);
    await quickPick(page, 'sl1');
    const judge = await step(page, 'svc: Start Lane (3/');
    assert.deepEqual(judge.items, ['api', 'web']);
    const descriptions = await page
      .locator('.quick-input-widget .quick-input-list .monaco-list-row')
      .evaluateAll((rows) =>
        rows
          .filter((r) => (r as HTMLElement).offsetParent !== null)
          .map((r) => (r.querySelector('.label-description')?.textContent ?? '').trim()),
      );
    assert.deepEqual(descriptions, [
      'builder api i1 has not reported: judge it at a commit you name',
      'builder web i1 has not reported: judge it at a commit you name',
    ]);
    await screenshot(page, '54-start-lane-critic-builders');
    await quickPick(page, 'web');
    const at = await step(page, 'svc: Start Lane (4/');
    assert.equal(
      at.prompt.startsWith('Commit of builder web i1 to judge (it has not reported done, so name one)'),
      true,
      at.prompt,
    );
    assert.equal(at.value, head, "prefilled with the builder's head");
    await enter(page);
    await step(page, 'svc: Start Lane (5/');
    await quickPick(page, 'Default');
    const model = await step(page, 'svc: Start Lane (6/');
    assert.match(model.placeholder, /^No model is set for critics of project sl/);
    await quickPick(page, 'Another model…');
    await step(page, 'svc: Start Lane (6/');
    await type(page, 'm');
    await step(page, 'svc: Start Lane (7/');
    await enter(page);
    await writeBrief(page, 'Judge the page.');
    await waitForMessage(page, /^Lane sl1\/web critic i1: conv \d+ \(sl1-web-critic-i1\) in /, 30_000);
    const critic = (await lanes()).find((l) => l.role === 'critic')!;
    assert.equal(
      git(critic.cwd, session().cs.scratch.env, 'rev-parse', 'HEAD'),
      head,
      'the critic is checked out at the commit named',
    );
    await clearNotifications(page);
  });
});
