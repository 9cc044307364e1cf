// A quick review's runs in a real VS Code (code-server 4.100.3 in chromium), on the st world
// (test/e2e/ui/stateWorld.ts): a reviewer row previews its report and a double-click keeps
// it, the run row stays collapsed across refreshes; an issue row requests a review on hover,
// the run before folds into collapsed "earlier runs" in the Reviews tree and the Command
// Deck, and the PR row merges on hover.
// Runs after the Roles suite: it replaces SVC_HOME/config.yaml of the shared daemon (its quick review).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { IssueState } from '../../../shared/protocol/review';
import { eventually } from '../../helpers/scratch';
import { closeEditors, ok } from './cli';
import { session, timing } from './session';
import { activeTab, PROJECT, stateWorld, tabs } from './stateWorld';
import {
  clickViewAction,
  hoverActions,
  modalDialog,
  openContainer,
  paneBody,
  rowByDescription,
  rowByLabel,
  runCommand,
  screenshot,
  setPaneExpanded,
  waitForMessage,
} from './workbench';

describe('review runs in the Reviews tree and the Command Deck (code-server 4.100.3)', function () {
  this.timeout(120_000);
  let id: Record<string, number> = {};
  /** The issue the quick review approved (the last two tests). */
  let reviewed = '';

  before(async () => {
    ({ id } = await stateWorld());
    await openContainer(session().page, 'svc');
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
      assert.deepEqual(await hoverActions(issueRow), ['Request Review… (Ctrl+Alt+S R)']);
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
