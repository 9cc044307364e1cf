// The Roles panel as a person uses it in a real VS Code (code-server 4.100.3 in chromium): the Roles panel
// opens from the Command Deck's title button and the palette, shows a hand-written
// config.yaml with each value's source, sets the security reviewer's model and the review
// mode keeping every other byte of the file (comments included), refuses an empty model,
// effort `extreme` and an unknown mode next to the field without touching the files, and
// the next full review starts agent-<issue>-review-security with the panel's model, and
// a gauntlet role's host is set in the Host column to a host of config.yaml, then back to
// this machine.
// Runs last in the suite: it replaces SVC_HOME/config.yaml of the shared daemon.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import type { AgentStatus } from '../../../shared/protocol/conversations';
import type { IssueInfo } from '../../../shared/protocol/issues';
import type { IssueState } from '../../../shared/protocol/review';
import { eventually, makeRepo } from '../../helpers/scratch';
import { ok } from './cli';
import { CTL, reviewFixture } from './reviewFixture';
import { session, timing } from './session';
import {
  clickViewAction,
  openContainer,
  paneBody,
  rowBadge,
  rowByLabel,
  revealRow,
  runCommand,
  screenshot,
  webviewFrame,
} from './workbench';

const PROJECT = 'rp';
const SECURITY = 'roles.review.sub.security.model';
const MODE = 'roles.review.mode';
const EFFORT = 'roles.review.effort';
const BUILDER_EFFORT = `projects.${PROJECT}.gauntlet.roles.builder.effort`;
const NEW_MODEL = 'sec-e2e-model';

const field = (frame: Frame, key: string) => frame.locator(`.field[data-key="${key}"]`);

/** Waits until `file` holds exactly `want` (the daemon writes it after the panel's message round trip). */
async function waitForFile(file: string, want: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let got = '';
  while (Date.now() < deadline) {
    got = fs.readFileSync(file, 'utf8');
    if (got === want) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.equal(got, want, `${file} did not become the expected text`);
}

/**
 * Offers `value` in a select the panel built (as a stale or tampered page could) and picks
 * it, in one step in the page: a re-render in between (a model probe's answer) would drop it.
 */
async function pickUnoffered(frame: Frame, key: string, value: string): Promise<void> {
  await field(frame, key)
    .locator('select')
    .evaluate((s: HTMLSelectElement, v) => {
      const o = document.createElement('option');
      o.value = v;
      o.textContent = v;
      s.append(o);
      s.value = v;
      s.dispatchEvent(new Event('change', { bubbles: true }));
    }, value);
}

describe('the Roles panel in VS Code (code-server 4.100.3)', function () {
  this.timeout(120_000);
  let configFile = '';
  let projectsFile = '';
  let seeded = '';
  /** config.yaml after the panel's two writes: the seed with exactly those two values replaced. */
  let written = '';
  let frame: Frame;
  /** The issue the full review approved. */
  let reviewed: IssueInfo | undefined;

  before(async () => {
    const { cs } = session();
    const { dir } = makeRepo(cs.scratch, PROJECT);
    await ok(['project', 'add', PROJECT, dir]);
    const fx = reviewFixture(path.join(cs.scratch.home, 'review-scripts'), PROJECT);
    configFile = path.join(cs.scratch.svcHome, 'config.yaml');
    projectsFile = path.join(cs.scratch.svcHome, 'projects.yaml');
    seeded = fx.configYaml;
    fs.writeFileSync(configFile, seeded);
    written = seeded
      .replace('    mode: quick        # quick', '    mode: full        # quick')
      .replace('        model: sec-old   # the', `        model: ${NEW_MODEL}   # the`);
    assert.equal(
      written.length,
      seeded.length - 'quick'.length + 'full'.length - 'sec-old'.length + NEW_MODEL.length,
      'both replacements apply',
    );
  });

  it("opens from the Command Deck's title bar ('…' menu) and from the palette, showing config.yaml's values and sources", async () => {
    const { page } = session();
    const t = Date.now();
    await openContainer(page, 'svc');
    await clickViewAction(page, 'Command Deck', 'Open Roles');
    frame = await webviewFrame(page, '[data-section="review"]');
    assert.equal(await page.locator('.tabs-container .tab.active .label-name').textContent(), 'svc Roles');
    timing('Roles panel opened from the view title', t);
    await runCommand(page, 'View: Close All Editors');
    await page.locator('.tabs-container .tab', { hasText: 'svc Roles' }).waitFor({ state: 'detached' });

    const t2 = Date.now();
    await runCommand(page, 'svc: Open Roles');
    frame = await webviewFrame(page, '[data-section="review"]');
    timing('Roles panel opened from the palette', t2);

    // The hand-written values, each with where it comes from.
    await field(frame, SECURITY)
      .locator('.source', { hasText: /^global · config\.yaml$/ })
      .waitFor();
    assert.equal(await field(frame, SECURITY).locator('input').inputValue(), 'sec-old');
    assert.equal(await field(frame, MODE).locator('select').inputValue(), 'quick');
    assert.equal(await field(frame, MODE).locator('.source').textContent(), 'global · config.yaml');
    const perf = field(frame, 'roles.review.sub.performance.model');
    assert.equal(await perf.locator('input').inputValue(), '');
    assert.equal(await perf.locator('input').getAttribute('placeholder'), 'parent-model (inherited)');
    assert.equal(await perf.locator('.source').textContent(), 'global · inherited from roles.review.model');
    assert.equal(
      await field(frame, EFFORT).locator('.source').textContent(),
      "unset · the harness's own default effort is used",
    );
    // A gauntlet role without a model says that a launch is refused.
    const builderModel = field(frame, `projects.${PROJECT}.gauntlet.roles.builder.model`);
    assert.equal(
      await builderModel.locator('.source').textContent(),
      'unset · a builder lane cannot start without a model: set one here, or give it at launch (there is no default model)',
    );
    assert.equal(await builderModel.locator('.source.warn').count(), 1);
    assert.equal(await frame.locator('.refusal').count(), 0);
  });

  it("fits its tables beside the sidebar: every role's column is in view at a 1100 px window", async () => {
    const { page } = session();
    const viewport = page.viewportSize()!;
    await page.setViewportSize({ width: 1100, height: viewport.height });
    try {
      await frame.locator(`table[data-project="${PROJECT}"]`).waitFor();
      const fit = async () =>
        frame.evaluate(() => {
          const page = document.documentElement;
          return Array.from(document.querySelectorAll('table')).map((t) => ({
            table: t.dataset.project ?? t.dataset.section ?? '',
            right: Math.round(t.getBoundingClientRect().right),
            page: page.clientWidth,
            pageScrolls: page.scrollWidth > page.clientWidth,
          }));
        });
      let tables = await fit();
      for (let i = 0; i < 20 && tables.some((t) => t.right > t.page); i++) {
        await page.waitForTimeout(100); // the panel takes the new width a frame later
        tables = await fit();
      }
      assert.deepEqual(
        tables.filter((t) => t.right > t.page || t.pageScrolls),
        [],
        `every table ends inside the panel (${tables[0]?.page} px wide)`,
      );
      await screenshot(page, '06a-roles-narrow');
    } finally {
      await page.setViewportSize(viewport);
      // A resize can replace the webview's frame: the tests after this one read the new one.
      frame = await webviewFrame(page, '[data-section="review"]');
    }
  });

  it("sets the security reviewer's model and the review mode: config.yaml keeps every other byte, comments included", async () => {
    const { page } = session();
    const t = Date.now();
    const model = field(frame, SECURITY).locator('input');
    await model.fill(NEW_MODEL);
    await model.press('Enter');
    await waitForFile(
      configFile,
      seeded.replace('        model: sec-old   # the', `        model: ${NEW_MODEL}   # the`),
    );
    timing('security model written', t);

    const t2 = Date.now();
    await field(frame, MODE).locator('select').selectOption('full');
    await waitForFile(configFile, written);
    timing('review mode written', t2);
    // The panel shows what the daemon now reads, with no refusal.
    await eventually(
      async () => (await field(frame, MODE).locator('select').inputValue()) === 'full',
      10_000,
      'the mode select shows full',
    );
    assert.equal(await field(frame, SECURITY).locator('input').inputValue(), NEW_MODEL);
    assert.equal(await frame.locator('.refusal').count(), 0);
    // The daemon agrees (what the review pipeline reads).
    assert.equal(await ok(['config', 'get', SECURITY, '--show-origin']), `global (${configFile})\t${NEW_MODEL}\n`);
    assert.equal(await ok(['config', 'get', MODE]), 'full\n');
    await screenshot(page, '06-roles');
  });

  it('refuses an empty model, a model no id can be, effort extreme and an unknown mode next to the field; the files stay byte for byte', async () => {
    const { page } = session();
    const projectsBefore = fs.readFileSync(projectsFile, 'utf8');
    const unchanged = '~/.svc/config.yaml is unchanged';

    // An empty model box is sent as '' (Clear is what removes a key): refused.
    const model = field(frame, SECURITY).locator('input');
    await model.fill('');
    await model.press('Enter');
    await field(frame, SECURITY).locator('.refusal[role="alert"]').waitFor();
    assert.equal(
      await field(frame, SECURITY).locator('.refusal').textContent(),
      `cannot set ${SECURITY} to '': a model must not be empty; ${unchanged}`,
    );
    // Characters no model id has are refused on the page: nothing reaches the daemon, no "Saved".
    await model.fill('bad model!');
    await model.press('Enter');
    await field(frame, SECURITY).locator('.refusal', { hasText: 'bad model!' }).waitFor();
    assert.equal(
      await field(frame, SECURITY).locator('.refusal').textContent(),
      `cannot set ${SECURITY} to 'bad model!': no model id has a space, '!' (a model id is letters, digits and . _ - : / @ + [ ]); nothing was saved`,
    );
    assert.equal(await field(frame, SECURITY).locator('.saved').count(), 0);

    // Effort and mode are selects offering only the valid values …
    const options = (key: string) =>
      field(frame, key)
        .locator('select option')
        .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    assert.deepEqual(await options(EFFORT), ['', 'low', 'medium', 'high']);
    assert.deepEqual(await options(MODE), ['', 'quick', 'full', 'none']);
    assert.deepEqual(await options(BUILDER_EFFORT), ['', 'low', 'medium', 'high']);
    // … and a value they do not offer is refused by the daemon all the same, shown at the field.
    await pickUnoffered(frame, EFFORT, 'extreme');
    await field(frame, EFFORT).locator('.refusal').waitFor();
    assert.equal(
      await field(frame, EFFORT).locator('.refusal').textContent(),
      `cannot set ${EFFORT} to 'extreme': Invalid option: expected one of "low"|"medium"|"high"; ${unchanged}`,
    );
    await pickUnoffered(frame, MODE, 'thorough');
    await field(frame, MODE).locator('.refusal').waitFor();
    assert.equal(
      await field(frame, MODE).locator('.refusal').textContent(),
      `cannot set ${MODE} to 'thorough': Invalid option: expected one of "quick"|"full"|"none"; ${unchanged}`,
    );
    await pickUnoffered(frame, BUILDER_EFFORT, 'extreme');
    await field(frame, BUILDER_EFFORT).locator('.refusal').waitFor();
    assert.equal(
      await field(frame, BUILDER_EFFORT).locator('.refusal').textContent(),
      `cannot set ${BUILDER_EFFORT} to 'extreme': Invalid option: expected one of "low"|"medium"|"high"; ~/.svc/projects.yaml is unchanged`,
    );

    // Only those fields say so; the selects show the values in effect again.
    assert.equal(await frame.locator('.refusal').count(), 4);
    assert.equal(await field(frame, MODE).locator('select').inputValue(), 'full');
    assert.equal(await field(frame, EFFORT).locator('select').inputValue(), '');
    assert.equal(fs.readFileSync(configFile, 'utf8'), written);
    assert.equal(fs.readFileSync(projectsFile, 'utf8'), projectsBefore);
    await screenshot(page, '06b-roles-refusals');
  });

  it('the next full review starts agent-<issue>-review-security with the model set in the panel (svc status --json)', async () => {
    const { cs } = session();
    const t = Date.now();
    const body = 'Acceptance criteria:\n1. The feature works.\n2. It is tested.\n';
    const issue = JSON.parse(
      await ok(['issue', 'new', '--project', PROJECT, '--title', 'roles e2e feature', '--body', body, '--json']),
    ) as IssueInfo;
    reviewed = issue;
    await ok(['issue', 'start', issue.id, '--harness', 'script', '--model', 'work-model']);
    const prefix = `agent-${issue.id.toLowerCase()}-review`;
    const ctl = path.join(cs.scratch.home, CTL, issue.id);
    const reviewers = await eventually(
      async () => {
        const agents = JSON.parse(await ok(['status', '--json'])) as AgentStatus[];
        const mine = agents.filter((a) => a.name.startsWith(prefix));
        return mine.length === 5 ? mine : undefined;
      },
      45_000,
      `the five reviewers of ${issue.id} in svc status (work agent's svc done said: ${fs.existsSync(path.join(ctl, 'done.out')) ? fs.readFileSync(path.join(ctl, 'done.out'), 'utf8') : 'nothing yet'})`,
    );
    timing('full review started', t);
    const models = Object.fromEntries(reviewers.map((a) => [a.name, a.model]));
    assert.deepEqual(models, {
      [prefix]: 'parent-model',
      [`${prefix}-security`]: NEW_MODEL,
      [`${prefix}-correctness`]: 'cor-model',
      [`${prefix}-performance`]: 'parent-model',
      [`${prefix}-requirements`]: 'parent-model',
    });
    for (const a of reviewers) assert.equal(a.harness, 'script', a.name);

    // The convoy finishes (so nothing of it runs on into the teardown).
    const t2 = Date.now();
    await eventually(
      async () => (JSON.parse(await ok(['show', issue.id, '--json'])) as IssueState).pr?.reviewState === 'approved',
      45_000,
      `${issue.id}'s review approved`,
    );
    timing('full review approved', t2);
  });

  it('shows an edit of config.yaml made outside the panel without a reload', async () => {
    const t = Date.now();
    const byHand = written.replace(
      '        model: cor-model\n',
      '        model: cor-by-hand   # edited in an editor\n',
    );
    assert.notEqual(byHand, written);
    fs.writeFileSync(configFile, byHand);
    const correctness = field(frame, 'roles.review.sub.correctness.model');
    await eventually(
      async () => (await correctness.locator('input').inputValue()) === 'cor-by-hand',
      10_000,
      'the correctness model box shows the edit',
    );
    assert.equal(await correctness.locator('.source').textContent(), 'global · config.yaml');
    timing('external edit shown', t);
  });

  it("sets a role's host in the Host column: a host of config.yaml's hosts:, or this machine", async () => {
    const { page } = session();
    const key = `projects.${PROJECT}.gauntlet.roles.builder.host`;
    const configBefore = fs.readFileSync(configFile, 'utf8');
    const select = field(frame, key).locator('select');
    const options = () =>
      select.locator('option').evaluateAll((os) => os.map((o) => [(o as HTMLOptionElement).value, o.textContent]));
    const unset = 'unset · builder lanes run on this machine, unless the launch names a host';
    assert.deepEqual(await options(), [['', 'this machine']]);
    assert.equal(await field(frame, key).locator('.source').textContent(), unset);
    // A host added to config.yaml is offered without a reload.
    fs.writeFileSync(configFile, `${configBefore}hosts:\n  big:\n    ssh: me@big.example\n    lanes_root: ~/lanes\n`);
    await eventually(async () => (await options()).length === 2, 10_000, 'the Host select to offer big');
    assert.deepEqual(await options(), [
      ['', 'this machine'],
      ['big', 'big'],
    ]);
    const t = Date.now();
    await select.selectOption('big');
    await field(frame, key)
      .locator('.source', { hasText: /^project · projects\.yaml$/ })
      .waitFor({ timeout: 10_000 });
    timing('builder host written', t);
    assert.equal(await ok(['config', 'get', key]), 'big\n');
    assert.match(fs.readFileSync(projectsFile, 'utf8'), /builder:\n(\s+\w+: .*\n)*\s+host: big\n/);
    await screenshot(page, '06c-roles-host');
    // "this machine" removes the key; the hosts go again.
    await select.selectOption('');
    await field(frame, key).locator('.source', { hasText: unset }).waitFor({ timeout: 10_000 });
    assert.doesNotMatch(fs.readFileSync(projectsFile, 'utf8'), /host:/);
    fs.writeFileSync(configFile, configBefore);
    await eventually(async () => (await options()).length === 1, 10_000, 'the Host select back to this machine only');
    assert.equal(await field(frame, key).locator('.refusal').count(), 0);
  });

  it('shows the convoy once in each tree with its verdict badge; reviewer rows open their report in a preview tab; expansion survives refreshes', async () => {
    const { page } = session();
    assert.ok(reviewed, 'the full review ran');
    const issue = reviewed.id;
    await runCommand(page, 'View: Close All Editors');
    // Every suite's rows are in the deck by now: a tall window renders them all (the tree draws only what is in view).
    const viewport = page.viewportSize()!;
    await page.setViewportSize({ width: viewport.width, height: 2000 });
    try {
      await convoyChecks(issue);
    } finally {
      await page.setViewportSize(viewport);
    }
  });
});

async function convoyChecks(issue: string): Promise<void> {
  {
    const { page } = session();
    // Command Deck: one convoy row under the work agent, not five grey reviewer rows repeating "<issue> review r1:".
    const convoy = rowByLabel(page, 'Command Deck', `${issue} review r1`);
    await revealRow(page, 'Command Deck', convoy);
    await convoy.locator('.label-description', { hasText: /^full · APPROVED$/ }).waitFor({ timeout: 20_000 });
    assert.equal((await rowBadge(convoy)).text, '✓');
    const deckLabels = await paneBody(page, 'Command Deck')
      .locator('.monaco-list-row[role="treeitem"] .label-name')
      .allTextContents();
    assert.equal(deckLabels.filter((l) => l.startsWith(`${issue} review`)).length, 1, deckLabels.join(', '));
    // The reviewers under it; the deck is longer than the window by now, so each is scrolled to.
    for (const role of ['review parent', 'security', 'correctness', 'performance', 'requirements'])
      await revealRow(page, 'Command Deck', rowByLabel(page, 'Command Deck', role));

    // Reviews: the run row with the verdict badge, its reviewers under it.
    const run = rowByLabel(page, 'Reviews', 'review r1 (full)');
    await revealRow(page, 'Reviews', run);
    await run.locator('.label-description', { hasText: /^APPROVED · at [0-9a-f]{7}$/ }).waitFor({ timeout: 20_000 });
    assert.equal((await rowBadge(run)).text, '✓');
    await screenshot(page, '07-review-convoy-verdict');

    const security = rowByLabel(page, 'Reviews', 'security');
    assert.equal((await rowBadge(security)).text, '✓');
    await security.click();
    const tab = page.locator('.tabs-container .tab.active');
    await tab.locator('.label-name', { hasText: /^security\.md$/ }).waitFor();
    assert.equal(
      await tab.locator('.monaco-icon-label.italic').count(),
      1,
      'a preview tab, as the Explorer opens files',
    );
    await screenshot(page, '07b-reviewer-report-opened');
    await runCommand(page, 'View: Close All Editors');

    // Collapse the run row and the deck's convoy; a refresh (and the daemon's change events) keeps them collapsed.
    for (const [row, pane] of [
      [run, 'Reviews'],
      [convoy, 'Command Deck'],
    ] as const) {
      await row.locator('.monaco-tl-twistie').click();
      assert.equal(await row.getAttribute('aria-expanded'), 'false', `${pane} row collapsed`);
    }
    await runCommand(page, 'svc: Refresh Views');
    await ok(['conv', 'list']);
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(
      await run.getAttribute('aria-expanded'),
      'false',
      'the Reviews run row stays collapsed after a refresh',
    );
    assert.equal(
      await convoy.getAttribute('aria-expanded'),
      'false',
      'the deck convoy stays collapsed after a refresh',
    );
  }
}
