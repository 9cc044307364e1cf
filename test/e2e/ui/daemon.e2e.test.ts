// Stopping the daemon ends every live agent, so "svc: Stop Daemon" and "svc:
// Restart Daemon" ask first in a modal that says how many, and afterwards offer to resume
// the agents they stopped. The palette offers them only while the daemon is connected.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AgentStatus } from '../../../shared/protocol/conversations';
import { eventually, makeRepo } from '../../helpers/scratch';
import { closeEditors, ok } from './cli';
import { installedSvc } from './codeServer';
import { session } from './session';
import {
  clearNotifications,
  clickNotificationButton,
  modalDialog,
  openContainer,
  paletteOffers,
  quickPick,
  runCommand,
  screenshot,
  statusItem,
  viewTitleIcons,
  waitForMessage,
  webviewFrameWith,
} from './workbench';

const daemonPid = async () => (JSON.parse(await ok(['daemon', 'status', '--json'])) as { pid: number }).pid;
const liveAgents = async () =>
  (JSON.parse(await ok(['status', '--json'])) as AgentStatus[]).filter((a) => a.alive).sort((a, b) => a.id - b.id);
const activity = async (id: number) =>
  (JSON.parse(await ok(['conv', 'show', String(id), '--json'])) as { activity: string }).activity;

async function waitIdle(ids: number[], timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const got = await Promise.all(ids.map(activity));
    if (got.every((a) => a === 'idle')) return;
    if (Date.now() > deadline) assert.fail(`agents ${ids.join(', ')} are ${got.join(', ')}, not idle`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The message names ten and counts the rest ("… and 2 more."): every agent that was stopped, once. */
function resumedEvery(resumed: string, live: { id: number }[]): void {
  const listed = [...resumed.matchAll(/#(\d+) /g)].map((m) => Number(m[1]));
  const more = Number(/ and (\d+) more\.$/.exec(resumed)?.[1] ?? 0);
  assert.equal(listed.length, Math.min(10, live.length), resumed);
  assert.equal(listed.length + more, live.length, resumed);
  assert.ok(
    listed.every((id) => live.some((a) => a.id === id)),
    resumed,
  );
}

describe('Stop Daemon and Restart Daemon from VS Code', function () {
  this.timeout(180_000);
  const mine: number[] = [];

  before(async () => {
    const { cs, page } = session();
    await openContainer(page, 'svc');
    const { dir } = makeRepo(cs.scratch, 'dp');
    await ok(['project', 'add', 'dp', dir]);
    for (const title of ['daemon e2e one', 'daemon e2e two']) {
      const created = JSON.parse(
        await ok([
          'conv',
          'new',
          '--project',
          'dp',
          '--harness',
          'script',
          '--model',
          'm',
          '--title',
          title,
          '--prompt',
          'hello',
          '--json',
        ]),
      ) as {
        conversation: { id: number };
      };
      mine.push(created.conversation.id);
    }
    await waitIdle(mine);
  });

  it('asks in a modal how many live agents stop with it; Cancel leaves the daemon and its agents running', async () => {
    const { page } = session();
    const pid = await daemonPid();
    const live = await liveAgents();
    assert.ok(
      mine.every((id) => live.some((a) => a.id === id)),
      'both conversations are live',
    );
    await runCommand(page, 'svc: Stop Daemon');
    const dialog = await modalDialog(page);
    assert.equal(dialog.message, `Stop the svc daemon? It stops ${live.length} live agents.`);
    assert.match(
      dialog.detail,
      new RegExp(
        `^Stopping the daemon stops #${live[0].id} .* through the stop door\\. Their conversations and transcripts are kept; afterwards svc offers to resume them\\.$`,
      ),
    );
    assert.ok(dialog.buttons.includes(`Stop Daemon and ${live.length} Agents`), dialog.buttons.join(' | '));
    await screenshot(page, '40-stop-daemon-modal');
    await dialog.click('Cancel');
    assert.equal(await daemonPid(), pid, 'the daemon still runs');
    assert.deepEqual(
      (await liveAgents()).map((a) => a.id),
      live.map((a) => a.id),
    );
  });

  it('stops it on confirm; the palette then offers Start Daemon, not Stop; Start Daemon and Resume brings the agents back', async () => {
    const { page } = session();
    const pid = await daemonPid();
    const live = await liveAgents();
    // A panel left open while the daemon goes must say so, and offer nothing that cannot work.
    await runCommand(page, 'svc: Open Conversation');
    await quickPick(page, 'daemon e2e one');
    const panel = await webviewFrameWith(page, 'header .facts', `#${mine[0]} `);
    await panel.locator('header .activity[data-activity="idle"]').waitFor({ timeout: 15_000 });
    assert.equal(await panel.locator('.composer vscode-button.send').getAttribute('disabled'), null);
    await runCommand(page, 'svc: Stop Daemon');
    await (await modalDialog(page)).click(`Stop Daemon and ${live.length} Agents`);
    const said = await waitForMessage(
      page,
      `svc: the daemon stopped (pid ${pid}); it stopped ${live.length} agents: `,
      60_000,
    );
    assert.ok(said.includes(`#${live[0].id} `), said);
    await statusItem(page)
      .filter({ hasText: /^\s*svc: daemon down\s*$/ })
      .waitFor({ timeout: 15_000 });
    assert.equal(
      await paletteOffers(page, 'svc: Stop Daemon'),
      false,
      'Stop Daemon is hidden while the daemon is down',
    );
    assert.equal(
      await paletteOffers(page, 'svc: Restart Daemon'),
      false,
      'Restart Daemon is hidden while the daemon is down',
    );
    assert.equal(await paletteOffers(page, 'svc: Start Daemon'), true);
    await screenshot(page, '41-daemon-stopped-offers-resume');
    await panel
      .locator('header .activity[data-activity="unknown"]', { hasText: 'unknown: daemon not connected' })
      .waitFor({ timeout: 15_000 });
    assert.match(
      (await panel.locator('.banner').first().textContent()) ?? '',
      /^The svc daemon is not connected: .*nothing can be sent until it is back\.$/,
    );
    assert.equal(
      await panel.locator('.composer vscode-button.send').getAttribute('disabled'),
      '',
      'Send is off while the daemon is down',
    );
    assert.equal(
      await panel.locator('.stopped-note').textContent(),
      'The svc daemon is not connected: nothing can be sent or resumed until it is back.',
    );
    await screenshot(page, '41b-conversation-panel-daemon-down');

    await clickNotificationButton(page, 'svc: the daemon stopped', `Start Daemon and Resume All ${live.length}`);
    resumedEvery(await waitForMessage(page, 'svc: resumed ', 60_000), live);
    await statusItem(page)
      .filter({ hasText: /^\s*svc\s*$/ })
      .waitFor({ timeout: 20_000 });
    assert.notEqual(await daemonPid(), pid);
    await eventually(
      async () => JSON.stringify((await liveAgents()).map((a) => a.id)) === JSON.stringify(live.map((a) => a.id)),
      30_000,
      'every agent it stopped is live again',
    );
    await waitIdle(mine);
    // The panel comes back to the truth: the live activity, no banner, Send on.
    await panel.locator('header .activity[data-activity="idle"]').waitFor({ timeout: 30_000 });
    await panel.locator('.banner').first().waitFor({ state: 'hidden', timeout: 15_000 });
    assert.equal(await panel.locator('.composer vscode-button.send').getAttribute('disabled'), null);
    await runCommand(page, 'View: Close All Editors');
    assert.equal(await paletteOffers(page, 'svc: Start Daemon'), false, 'Start Daemon is hidden while connected');
    await screenshot(page, '42-agents-resumed');
    await clearNotifications(page);
  });

  it('Restart Daemon asks the same, comes back with a new pid, and offers Resume', async () => {
    const { page } = session();
    const pid = await daemonPid();
    const live = await liveAgents();
    await runCommand(page, 'svc: Restart Daemon');
    const dialog = await modalDialog(page);
    assert.equal(dialog.message, `Restart the svc daemon? It stops ${live.length} live agents.`);
    await dialog.click(`Restart Daemon and Stop ${live.length} Agents`);
    const said = await waitForMessage(
      page,
      new RegExp(`^svc: the daemon restarted \\(pid ${pid} → \\d+\\); it stopped ${live.length} agents: `),
      60_000,
    );
    const newPid = Number(/→ (\d+)\)/.exec(said)![1]);
    assert.equal(await daemonPid(), newPid);
    assert.equal(await activity(mine[0]), 'stopped');
    await screenshot(page, '43-daemon-restarted-offers-resume');
    await clickNotificationButton(page, 'svc: the daemon restarted', `Resume All ${live.length}`);
    await waitForMessage(page, 'svc: resumed ', 60_000);
    await waitIdle(mine);
    await clearNotifications(page);
  });

  it("after a stop from elsewhere, the deck's title bar offers Resume All until they are resumed", async () => {
    const { page } = session();
    const live = await liveAgents();
    const resumeAll = 'Resume All Stopped by the Daemon';
    await ok(['daemon', 'stop', '--force']);
    await statusItem(page)
      .filter({ hasText: /^\s*svc: daemon down\s*$/ })
      .waitFor({ timeout: 15_000 });
    assert.ok(!(await viewTitleIcons(page, 'Command Deck')).includes(resumeAll), 'nothing to resume while it is down');
    await ok(['daemon', 'status']); // the shim starts it again
    await statusItem(page)
      .filter({ hasText: /^\s*svc\s*$/ })
      .waitFor({ timeout: 20_000 });
    await eventually(
      async () => (await viewTitleIcons(page, 'Command Deck')).includes(resumeAll),
      15_000,
      'Resume All on the deck once the daemon is back',
    );
    await screenshot(page, '44-deck-offers-resume-all');
    await page
      .locator(`.sidebar .pane-header[aria-label="Command Deck Section"] a.action-label[aria-label="${resumeAll}"]`)
      .click();
    resumedEvery(await waitForMessage(page, 'svc: resumed ', 60_000), live);
    await eventually(
      async () => JSON.stringify((await liveAgents()).map((a) => a.id)) === JSON.stringify(live.map((a) => a.id)),
      30_000,
      'every agent the daemon stopped is live again',
    );
    await waitIdle(mine);
    await eventually(
      async () => !(await viewTitleIcons(page, 'Command Deck')).includes(resumeAll),
      15_000,
      'Resume All leaves once nothing waits to resume',
    );
    await clearNotifications(page);
  });

  // Last: it runs the daemon for a while with a bubblewrap that fails as AppArmor makes it fail
  // (Ubuntu 24.04+, Debian 13), then restarts it as before with every agent resumed.
  it('a lane whose sandbox cannot start gets one notification; Show Fix opens the fix, narrowest first', async () => {
    const { cs, page } = session();
    const live = await liveAgents();
    const fake = path.join(cs.scratch.root, 'bin-apparmor');
    fs.mkdirSync(fake, { recursive: true });
    const bwrap = path.join(fake, 'bwrap');
    fs.writeFileSync(bwrap, "#!/bin/sh\necho 'bwrap: setting up uid map: Permission denied' >&2\nexit 1\n", {
      mode: 0o755,
    });
    await ok(['daemon', 'stop', '--force']);
    const env = { ...cs.env, PATH: [fake, cs.env.PATH].join(path.delimiter) };
    const started = await installedSvc({ ...cs, env }, ['daemon', 'status']);
    assert.equal(started.code, 0, started.stderr);
    await clearNotifications(page);

    const failed = await installedSvc({ ...cs, env }, [
      'lane',
      'start',
      '--parent',
      String(mine[0]),
      '--run',
      'aa',
      '--key',
      'k',
      '--role',
      'builder',
      '--harness',
      'script',
      '--model',
      'm',
      '--prompt',
      'hi',
      '--title',
      'sandboxed lane',
    ]);
    assert.equal(failed.code, 1, failed.stdout);
    assert.match(
      failed.stderr,
      /^lane aa-k-builder-i1 failed to start: .*AppArmor restricts unprivileged user namespaces here/,
    );
    const [lane] = JSON.parse(await ok(['lane', 'list', '--run', 'aa', '--json'])) as { id: number }[];
    const told = `svc: lane #${lane.id} (sandboxed lane) did not start: its sandbox cannot start here: AppArmor restricts unprivileged user namespaces here`;
    await waitForMessage(page, told, 20_000);
    await screenshot(page, '45-sandbox-cannot-start');
    await clickNotificationButton(page, told, 'Show Fix');
    const fix = page.locator('.editor-instance .view-lines');
    await fix.filter({ hasText: '# The sandbox cannot start here' }).waitFor();
    await fix.filter({ hasText: `1. let bubblewrap alone use user namespaces with an AppArmor profile` }).waitFor();
    await fix
      .filter({
        hasText: '2. Or allow them for every program: sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0',
      })
      .waitFor();
    await fix.filter({ hasText: '3. Or run the lane unconfined with --sandbox off' }).waitFor();
    // A read-only page: its tab is not dirty, and closing it asks nothing.
    const tab = page.locator('.tabs-container .tab', { hasText: `sandbox fix for lane ${lane.id}.md` });
    await tab.waitFor();
    assert.doesNotMatch((await tab.getAttribute('class')) ?? '', /\bdirty\b/);
    await closeEditors();
    await tab.waitFor({ state: 'detached' });
    await clearNotifications(page);

    // As before: the failed lane reaped away, the real bubblewrap back, every agent resumed.
    await ok(['lane', 'reap', 'aa-k-builder-i1']);
    await ok(['daemon', 'stop', '--force']);
    await ok(['daemon', 'status']);
    await ok(['conv', 'resume', '--all-stopped-by-daemon']);
    await eventually(
      async () => JSON.stringify((await liveAgents()).map((a) => a.id)) === JSON.stringify(live.map((a) => a.id)),
      30_000,
      'every agent the daemon stopped is live again',
    );
    await waitIdle(mine);
    await clearNotifications(page);
  });
});
