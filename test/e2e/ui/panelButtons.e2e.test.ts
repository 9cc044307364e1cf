// Buttons where the conversation panel used to print commands, in a real VS Code
// (code-server 4.100.3 in chromium), on the st world (test/e2e/ui/stateWorld.ts): Send anyway
// to a judge that has reported, Open report, Stop only while busy, Resume once stopped.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { closeEditors, ok } from './cli';
import { session, timing } from './session';
import { activeTab, panelOf, stateWorld } from './stateWorld';
import { quickPick, runCommand, screenshot } from './workbench';

describe('buttons instead of commands in the conversation panel (code-server 4.100.3)', function () {
  this.timeout(120_000);
  let id: Record<string, number> = {};
  let title: Record<string, string> = {};
  let verdictFile = '';

  before(async () => {
    ({ id, title, verdictFile } = await stateWorld());
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
});
