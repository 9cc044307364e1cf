// Compare with Base in a real VS Code (code-server 4.100.3 in chromium): a builder lane's
// row opens VS Code's changes editor over its worktree against the commit the worktree was
// created from — its committed work, what it has not committed yet and new files git does
// not track, the base's text on the left, the files on disk on the right.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LaneRecord } from '../../../shared/protocol/lanes';
import { buildAndReport } from '../../helpers/lanes';
import { git, makeRepo } from '../../helpers/scratch';
import { ok, startBuilder } from './cli';
import { session, timing } from './session';
import { contextMenuItem, openContainer, revealRow, rowByDescription, runCommand, screenshot } from './workbench';

describe('Compare with Base on a builder row (code-server 4.100.3)', function () {
  this.timeout(120_000);

  it("opens VS Code's changes editor over the lane's worktree against its base: committed and uncommitted work", async () => {
    const { cs, page } = session();
    const t = Date.now();
    const { dir } = makeRepo(cs.scratch, 'cwb');
    await ok(['project', 'add', 'cwb', dir]);
    const id = await startBuilder('cwb', {
      title: 'compare root',
      run: 'cw',
      key: 'feat',
      steps: [{ run: buildAndReport('feature.txt', 'the feature'), check: true }],
    });
    await ok(['lane', 'wait', 'cw-feat-builder-i1', '--timeout', '60']);
    const lane = (JSON.parse(await ok(['lane', 'list', '--run', 'cw', '--json'])) as LaneRecord[]).find(
      (l) => l.id === id,
    )!;
    // The base is the commit the worktree was created from: origin's main, not the lane's own head.
    const base = git(dir, cs.scratch.env, 'rev-parse', 'origin/main');
    assert.equal(lane.baseSha, base);
    assert.notEqual(git(lane.cwd, cs.scratch.env, 'rev-parse', 'HEAD'), base);
    // Work not committed yet is part of the comparison too.
    fs.writeFileSync(path.join(lane.cwd, 'README.md'), '# cwb\nnot committed yet\n');
    fs.writeFileSync(path.join(lane.cwd, 'notes.txt'), 'not tracked yet\n');
    timing('builder lane with a commit and an uncommitted change', t);

    await openContainer(page, 'svc');
    const row = rowByDescription(page, 'Command Deck', `#${id} · `);
    await revealRow(page, 'Command Deck', row);
    await contextMenuItem(page, row, 'Compare with Base');
    // VS Code adds the number of files to the title it is given.
    const title = `${lane.title} ↔ base ${base.slice(0, 8)} (3 files)`;
    const tab = page.locator('.tabs-container .tab.active .label-name');
    await page.waitForFunction(
      (want) => document.querySelector('.tabs-container .tab.active .label-name')?.textContent === want,
      title,
      { timeout: 20_000 },
    );
    assert.equal(await tab.textContent(), title);
    // One entry per changed file, each a diff of the base's text against the file on disk.
    const editor = page.locator('.multiDiffEditor');
    const entries = editor.locator('.multiDiffEntry');
    await entries.nth(2).waitFor({ timeout: 20_000 });
    // Each entry's header names its file once: a changed file is not shown as a rename.
    const headers = await entries.evaluateAll((es) =>
      es.map((e) =>
        Array.from(e.querySelectorAll('.header .label-name'))
          .map((l) => (l.textContent ?? '').trim())
          .filter(Boolean),
      ),
    );
    assert.deepEqual(
      headers.sort((a, b) => (a[0] < b[0] ? -1 : 1)),
      [['README.md'], ['feature.txt'], ['notes.txt']],
    );
    const readme = editor.locator('.multiDiffEntry', {
      has: page.locator('.header .label-name', { hasText: /^README\.md$/ }),
    });
    const text = (side: string) =>
      readme
        .locator(`.editor.${side} .view-lines`)
        .evaluate((el) => (el as HTMLElement).innerText.replace(/\u00a0/g, ' '));
    // The base's side arrives once its document is read.
    for (let i = 0; i < 100 && !(await text('original').catch(() => '')).includes('# cwb'); i++)
      await page.waitForTimeout(200);
    assert.equal((await text('original')).trim(), '# cwb');
    assert.match(await text('modified'), /^# cwb\nnot committed yet/);
    await screenshot(page, '75-compare-with-base');
    await runCommand(page, 'View: Close All Editors');
  });
});
