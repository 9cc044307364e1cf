// In-host tests: run inside the real extension host (code-server 1.100.3) with the
// checkout as extensionDevelopmentPath. They cover activation, the command wiring
// against package.json, the deck's and the Reviews tree's items and context values
// against the menus' `when` clauses, the panels' commands, the daemon log command, and
// `svc` in an integrated terminal.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SvcTestApi } from '../../../extension/api';
import { buildDeck } from '../../../extension/commandDeck/deckModel';
import { toTreeItem } from '../../../extension/commandDeck/deckProvider';
import { COMMAND_IDS } from '../../../extension/commands/commandTable';
import { reviewNodes } from '../../../extension/reviews/reviewsModel';
import { reviewTreeItem } from '../../../extension/reviews/reviewsProvider';
import type { IssueState } from '../../../shared/protocol/review';
import { ROWS } from '../../helpers/deckRows';

const EXTENSION_ID = 'svc-dev.svc';

const REVIEW = {
  issue: {
    id: 'LP-1',
    project: 'lp',
    number: 1,
    title: 'e2e issue',
    body: '',
    branch: 'issue/lp-1',
    workspace: '/w',
    createdAt: 0,
    agent: null,
  },
  pr: {
    number: 4,
    state: 'open',
    head: '1234567890',
    url: null,
    reviewState: 'in_review',
    ready: false,
    reasons: ['no approval for head 1234567'],
    checks: [],
  },
  run: { runId: 'r2', mode: 'quick', sha: '1234567890', phase: 'dispatched', verdict: null, worktree: null },
  reviewers: [
    {
      id: 9,
      name: 'agent-lp-1-review',
      role: 'quick',
      runId: 'r2',
      model: 'm',
      alive: true,
      activity: 'working',
      report: { path: '/w/review.md', exists: false, verdict: null },
    },
  ],
  journal: [],
} as IssueState;

describe('svc extension host', function () {
  this.timeout(30_000);
  let ext: vscode.Extension<SvcTestApi>;
  let api: SvcTestApi;

  before(async () => {
    const found = vscode.extensions.getExtension<SvcTestApi>(EXTENSION_ID);
    assert.ok(found, `${EXTENSION_ID} is not loaded`);
    ext = found;
    api = await ext.activate();
  });

  it('runs from the development path (the installed .vsix) and connects to the daemon of the scratch SVC_HOME', async () => {
    assert.equal(ext.extensionPath, process.env.SVC_E2E_EXTENSION_DIR);
    const s = await api.whenSettled(20_000);
    assert.equal(s.kind, 'connected', JSON.stringify(s));
    if (s.kind === 'connected') assert.equal(s.info.svcHome, process.env.SVC_HOME);
    // code-server is the web UI; .vscode-test.mjs (desktop VS Code) says so in SVC_E2E_RUNNER.
    assert.equal(
      vscode.env.uiKind,
      process.env.SVC_E2E_RUNNER === 'desktop' ? vscode.UIKind.Desktop : vscode.UIKind.Web,
    );
  });

  it('registers every command it declares (package.json contributes the same list: test/unit/extensionMenus)', async () => {
    const registered = new Set((await vscode.commands.getCommands(true)).filter((c) => c.startsWith('svc.')));
    for (const id of COMMAND_IDS) assert.ok(registered.has(id), `${id} is not registered`);
  });

  it('maps deck nodes to tree items: stable ids, nesting, coloured icons, verdict badges by resource URI, Markdown tooltips', () => {
    const [root] = buildDeck(ROWS);
    const rootItem = toTreeItem(root);
    assert.equal(rootItem.id, 'conv:1:tree');
    assert.equal(rootItem.collapsibleState, vscode.TreeItemCollapsibleState.Expanded);
    const builder = root.children[0];
    const item = toTreeItem(builder);
    assert.equal(item.id, 'conv:2:tree');
    // A row's click opens the preview tab (a double-click keeps it: previewConversation).
    assert.deepEqual(item.command, { command: 'svc.previewConversation', title: 'Open Conversation', arguments: [2] });
    assert.equal(item.label, 'builder one');
    assert.equal(item.description, '#2 · working · builder i1 · lane/k ↑2 · dirty');
    assert.deepEqual(
      [(item.iconPath as vscode.ThemeIcon).id, ((item.iconPath as vscode.ThemeIcon).color as vscode.ThemeColor).id],
      ['sync~spin', 'charts.blue'],
      'live work shows over the verdict icon',
    );
    assert.equal(item.resourceUri?.toString(), 'svc-deck:/conv%3A2%3Atree');
    assert.match((item.tooltip as vscode.MarkdownString).value, /^- verdict: NOT\\_YET · 3 defects \(critic #3\)$/m);
    const critic = toTreeItem(builder.children[0]);
    assert.equal(critic.id, 'conv:3');
    assert.equal(critic.description, '#3 · stopped · critic i1');
    assert.equal(critic.collapsibleState, vscode.TreeItemCollapsibleState.None);
    assert.deepEqual(
      [((critic.iconPath as vscode.ThemeIcon).color as vscode.ThemeColor).id, critic.resourceUri?.toString()],
      ['svc.verdict.notYet', 'svc-deck:/conv%3A3'],
    );
    assert.deepEqual(builder.badge, { text: '3', color: 'svc.verdict.notYet', tooltip: 'NOT YET: 3 defects' });
  });

  it('maps review state to Reviews tree items: PR, state, readiness, reviewers opening their conversation', () => {
    const [issue] = reviewNodes([REVIEW]);
    const item = reviewTreeItem(issue);
    assert.deepEqual(
      [item.id, item.label, item.description, item.contextValue],
      [
        'issue:LP-1:tree',
        'LP-1 e2e issue',
        'PR #4 · in review · not ready',
        'svc:review+issue+pr+in_review+running+run',
      ],
    );
    assert.equal((item.iconPath as vscode.ThemeIcon).id, 'sync~spin');
    const kids = issue.children.map(reviewTreeItem);
    assert.deepEqual(
      kids.map((k) => [k.label, k.description]),
      [
        ['merge: not ready', 'no approval for head 1234567'],
        ['review r2 (quick)', 'reviewing · at 1234567'],
      ],
    );
    const reviewer = reviewTreeItem(issue.children[1].children[0]);
    assert.deepEqual([reviewer.label, reviewer.description], ['reviewer (quick)', '#9 · working · m']);
    assert.deepEqual(reviewer.command, {
      command: 'svc.previewConversation',
      title: 'Open Conversation',
      arguments: [9],
    });
  });

  it('shows an empty deck while the daemon has no conversations', () => {
    assert.deepEqual(api.deckTopLevel(), []);
    assert.deepEqual(api.reviewsTopLevel(), []);
  });

  it('opens one Conversation panel per conversation, and the Agents page, through their commands', async () => {
    // The UI suite archived conversation #1; an archived conversation still opens.
    // A row's click opens a preview; the same row again within a double-click keeps it; an explicit open is kept.
    await vscode.commands.executeCommand('svc.previewConversation', 1);
    assert.deepEqual(api.panelStates(), [{ convId: 1, preview: true }]);
    await vscode.commands.executeCommand('svc.previewConversation', 1);
    assert.deepEqual(api.panelStates(), [{ convId: 1, preview: false }], 'a double-click keeps the tab');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await new Promise((r) => setTimeout(r, 200));
    await vscode.commands.executeCommand('svc.previewConversation', 1);
    await vscode.commands.executeCommand('svc.openConversation', '#1');
    assert.deepEqual(api.panelStates(), [{ convId: 1, preview: false }], 'an explicit open keeps the preview');
    await vscode.commands.executeCommand('svc.openConversation', 1);
    assert.deepEqual(api.openPanels(), [1]);
    await vscode.commands.executeCommand('svc.openAgents');
    const deadline = Date.now() + 10_000;
    while (!api.agentRows() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(
      api.agentRows()?.map((r) => [r.id, r.archived, r.role]),
      [[1, true, 'root']],
    );
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(api.openPanels(), []);
    assert.equal(api.agentRows(), undefined);
  });

  it('"svc: Show Daemon Log" opens the daemon log of the SVC_HOME', async () => {
    await vscode.commands.executeCommand('svc.showDaemonLog');
    const doc = vscode.window.activeTextEditor?.document;
    assert.equal(doc?.uri.fsPath, path.join(process.env.SVC_HOME!, 'logs', 'daemon.log'));
    assert.match(doc?.getText() ?? '', /\[main\]|\[daemon\]/);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('"svc: Start Daemon" says plainly when svc.nodePath is no node, and connects again once fixed', async () => {
    const config = vscode.workspace.getConfiguration('svc');
    try {
      await config.update('nodePath', '/nonexistent/bin/node', vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('svc.startDaemon');
      assert.deepEqual(api.connectionState(), {
        kind: 'noNode',
        problem: '"svc.nodePath" is /nonexistent/bin/node, which is not an executable file',
        fix: 'set "svc.nodePath" to the absolute path of a node binary',
      });
    } finally {
      await config.update('nodePath', undefined, vscode.ConfigurationTarget.Global);
    }
    await vscode.commands.executeCommand('svc.startDaemon');
    const s = await api.whenSettled(20_000);
    assert.equal(s.kind, 'connected', JSON.stringify(s));
  });

  it('puts the shim first on PATH in integrated terminals', async () => {
    const out = path.join(process.env.SVC_HOME!, '..', 'terminal-check.txt');
    fs.rmSync(out, { force: true });
    const terminal = vscode.window.createTerminal({
      name: 'svc e2e',
      shellPath: '/bin/sh',
      shellArgs: [
        '-c',
        `{ command -v svc; svc daemon status --json; echo "exit $?"; } > '${out}.tmp' 2>&1; mv '${out}.tmp' '${out}'`,
      ],
    });
    try {
      const deadline = Date.now() + 20_000;
      while (!fs.existsSync(out) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      const text = fs.readFileSync(out, 'utf8');
      const lines = text.trim().split('\n');
      assert.equal(lines[0], path.join(ext.extensionPath, 'bin', 'svc'), text);
      assert.equal(lines.at(-1), 'exit 0', text);
      const status = JSON.parse(lines.slice(1, -1).join('\n')) as { svcHome: string; started: boolean };
      assert.equal(status.svcHome, process.env.SVC_HOME);
      assert.equal(status.started, false, 'the terminal must reach the window’s daemon, not start one');
    } finally {
      terminal.dispose();
    }
  });
});
