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
import { buildDeck, deckContextValue } from '../../../extension/commandDeck/deckModel';
import type { DeckRow } from '../../../extension/commandDeck/deckModel';
import { toTreeItem } from '../../../extension/commandDeck/deckProvider';
import { COMMAND_IDS } from '../../../extension/commands/commands';
import { reviewNodes } from '../../../extension/reviews/reviewsModel';
import { reviewTreeItem } from '../../../extension/reviews/reviewsProvider';
import { ROLES_COMMAND } from '../../../extension/roles/registerRoles';
import type { IssueState } from '../../../shared/protocol/review';

const EXTENSION_ID = 'svc-dev.svc';

const REVIEW = {
  issue: { id: 'LP-1', project: 'lp', number: 1, title: 'e2e issue', body: '', branch: 'issue/lp-1', workspace: '/w', createdAt: 0, agent: null },
  pr: { number: 4, state: 'open', head: '1234567890', url: null, reviewState: 'in_review', ready: false, reasons: ['no approval for head 1234567'], checks: [] },
  run: { runId: 'r2', mode: 'quick', sha: '1234567890', phase: 'dispatched', verdict: null, worktree: null },
  reviewers: [{ id: 9, name: 'agent-lp-1-review', role: 'quick', runId: 'r2', model: 'm', alive: true, activity: 'working', report: { path: '/w/review.md', exists: false, verdict: null } }],
  journal: [],
} as IssueState;

interface Contributes {
  commands: { command: string }[];
  menus: Record<string, { command: string; when?: string }[]>;
}

const ROWS: DeckRow[] = [
  { id: 1, name: 'orch', title: 'orchestrator', kind: 'root', parentId: null, activity: 'idle' },
  { id: 2, name: 'b1', title: 'builder one', kind: 'lane', parentId: 1, activity: 'working', role: 'builder', run: 'r1', key: 'k', iteration: 1, git: { branch: 'lane/k', ahead: 2, dirty: true }, verdict: { verdict: 'NOT_YET', defects: 3, by: 3 } },
  { id: 3, name: 'c1', title: 'critic one', kind: 'lane', parentId: 1, activity: 'stopped', role: 'critic', run: 'r1', key: 'k', iteration: 1, judged: { key: 'k', iteration: 1 }, verdict: { verdict: 'NOT_YET', defects: 3, by: 3 } },
  { id: 4, name: 'b2', title: 'asking builder', kind: 'lane', parentId: 1, activity: 'needs-you', role: 'builder', run: 'r1', key: 'q', iteration: 1 },
  { id: 5, name: 'p1', title: 'reaped play', kind: 'lane', parentId: 1, activity: 'stopped', role: 'play', run: 'r1', key: 'p', iteration: 1, reaped: true },
];

/** The commands a view's item context menu shows for a context value (regex and == clauses, as VS Code reads them). */
function menuFor(menus: { command: string; when?: string; group?: string }[], view: string, contextValue: string, inline = false): string[] {
  return menus
    .filter((m) => (m.group === 'inline' || m.group?.startsWith('inline@')) === inline)
    .filter((m) => {
      const when = m.when ?? '';
      const v = /view == (\S+)/.exec(when);
      if (v && v[1] !== view) return false;
      const re = /viewItem =~ \/(.+?)\/(\s|$)/.exec(when);
      if (re) return new RegExp(re[1]).test(contextValue);
      const eq = /viewItem == '?([^'\s]+)'?/.exec(when);
      return eq ? eq[1] === contextValue : false;
    })
    .map((m) => m.command);
}

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
    assert.equal(vscode.env.uiKind, vscode.UIKind.Web);
  });

  it('registers exactly the commands package.json contributes', async () => {
    const contributed = (ext.packageJSON.contributes as Contributes).commands.map((c) => c.command).sort();
    // The Roles panel's command (issue 10) is contributed by its own change; it is registered either way.
    const ours = [...COMMAND_IDS, ...(contributed.includes(ROLES_COMMAND) ? [ROLES_COMMAND] : [])].sort();
    assert.deepEqual(contributed, ours);
    const registered = new Set((await vscode.commands.getCommands(true)).filter((c) => c.startsWith('svc.')));
    for (const id of [...COMMAND_IDS, ROLES_COMMAND]) assert.ok(registered.has(id), `${id} is not registered`);
  });

  it('composes context values whose menus offer exactly the right commands', () => {
    const nodes = buildDeck(ROWS);
    const values = ROWS.map(deckContextValue);
    assert.deepEqual(values, [
      'svc:conv+root+idle+live+launcher+succeed',
      'svc:conv+lane+builder+working+live+git+dirty+verdict',
      'svc:conv+lane+critic+stopped+verdict',
      'svc:conv+lane+builder+needs-you+live',
      'svc:conv+lane+play+stopped+reaped',
    ]);
    const menus = (ext.packageJSON.contributes as Contributes).menus['view/item/context'];
    const deck = (v: string) => menuFor(menus, 'svc.commandDeck', v);
    assert.deepEqual(deck(values[0]), ['svc.openConversation', 'svc.tellConversation', 'svc.stopConversation', 'svc.startLane', 'svc.handoffConversation', 'svc.forkConversation']);
    assert.deepEqual(deck(values[1]), ['svc.openConversation', 'svc.tellConversation', 'svc.stopConversation', 'svc.reapLane', 'svc.startLane']);
    assert.deepEqual(deck(values[2]), ['svc.openConversation', 'svc.reapLane', 'svc.archiveConversation', 'svc.startLane', 'svc.resumeConversation']);
    assert.deepEqual(menuFor(menus, 'svc.commandDeck', values[2], true), ['svc.resumeConversation'], 'a stopped lane offers Resume on hover');
    assert.deepEqual(menuFor(menus, 'svc.commandDeck', 'svc:conv+root+stopped+archived+launcher+succeed', true), ['svc.unarchiveConversation']);
    assert.deepEqual(deck(values[3]), ['svc.openConversation', 'svc.tellConversation', 'svc.answerConversation', 'svc.stopConversation', 'svc.reapLane', 'svc.startLane']);
    assert.deepEqual(menuFor(menus, 'svc.commandDeck', values[3], true), ['svc.answerConversation']);
    assert.deepEqual(deck(values[4]), ['svc.openConversation', 'svc.archiveConversation', 'svc.startLane']);
    assert.equal(nodes[0].children[0].children.length, 1, 'no verdict link row: the critic alone under its builder');
    assert.deepEqual(menuFor(menus, 'svc.commandDeck', values[1], true), ['svc.tellConversation', 'svc.stopConversation'], 'hover actions of a working lane');
    const reviewer = 'svc:conv+agent+stopped+succeed+reviewer+report';
    assert.deepEqual(deck(reviewer), ['svc.openConversation', 'svc.archiveConversation', 'svc.startLane', 'svc.handoffConversation', 'svc.forkConversation', 'svc.openReport']);
    assert.deepEqual(menuFor(menus, 'svc.commandDeck', 'svc:convoy+live+verdict', true), ['svc.abortReview']);
    assert.deepEqual(menuFor(menus, 'svc.reviews', 'svc:review+readiness+pr+mergeable+url', true), ['svc.mergePr', 'svc.openPr']);
    assert.deepEqual(menuFor(menus, 'svc.reviews', 'svc:review+readiness+pr'), []);
    assert.deepEqual(menuFor(menus, 'svc.reviews', 'svc:reviewer+stopped+report'), ['svc.openConversation', 'svc.openReport']);
    assert.deepEqual(menuFor(menus, 'svc.reviews', values[0]), [], 'deck menus stay in the deck');
    assert.deepEqual(menuFor(menus, 'svc.reviews', 'svc:review+issue+pr+in_review+running+run'), ['svc.requestReview', 'svc.startIssue', 'svc.issueDone', 'svc.abortReview', 'svc.restartReview']);
    assert.deepEqual(menuFor(menus, 'svc.reviews', 'svc:review+issue'), ['svc.requestReview', 'svc.startIssue', 'svc.issueDone']);
    assert.deepEqual(menuFor(menus, 'svc.reviews', 'svc:review+issue+worker'), ['svc.requestReview', 'svc.issueDone'], 'no second work agent while one is live');
    assert.deepEqual(menuFor(menus, 'svc.reviews', 'svc:reviewer+working+live'), ['svc.openConversation', 'svc.tellConversation', 'svc.stopConversation']);
  });

  it('maps deck nodes to tree items: stable ids, nesting, coloured icons, verdict badges by resource URI, Markdown tooltips', () => {
    const [root] = buildDeck(ROWS);
    const rootItem = toTreeItem(root);
    assert.equal(rootItem.id, 'conv:1:tree');
    assert.equal(rootItem.collapsibleState, vscode.TreeItemCollapsibleState.Expanded);
    const builder = root.children[0];
    const item = toTreeItem(builder);
    assert.equal(item.id, 'conv:2:tree');
    assert.deepEqual(item.command, { command: 'svc.openConversation', title: 'Open Conversation', arguments: [2] });
    assert.equal(item.label, 'builder one');
    assert.equal(item.description, '#2 · builder i1 · working · lane/k ↑2 · dirty');
    assert.deepEqual([(item.iconPath as vscode.ThemeIcon).id, ((item.iconPath as vscode.ThemeIcon).color as vscode.ThemeColor).id], ['sync~spin', 'charts.blue'], 'live work shows over the verdict icon');
    assert.equal(item.resourceUri?.toString(), 'svc-deck:/conv%3A2%3Atree');
    assert.match((item.tooltip as vscode.MarkdownString).value, /^- verdict: NOT\\_YET · 3 defects \(critic #3\)$/m);
    const critic = toTreeItem(builder.children[0]);
    assert.equal(critic.id, 'conv:3');
    assert.equal(critic.description, '#3 · critic i1 · stopped');
    assert.equal(critic.collapsibleState, vscode.TreeItemCollapsibleState.None);
    assert.deepEqual([((critic.iconPath as vscode.ThemeIcon).color as vscode.ThemeColor).id, critic.resourceUri?.toString()], ['list.warningForeground', 'svc-deck:/conv%3A3']);
    assert.deepEqual(builder.badge, { text: '3', color: 'list.warningForeground', tooltip: 'NOT YET: 3 defects' });
  });

  it('maps review state to Reviews tree items: PR, state, readiness, reviewers opening their conversation', () => {
    const [issue] = reviewNodes([REVIEW]);
    const item = reviewTreeItem(issue);
    assert.deepEqual([item.id, item.label, item.description, item.contextValue], ['issue:LP-1:tree', 'LP-1 e2e issue', 'PR #4 · in review · not ready', 'svc:review+issue+pr+in_review+running+run']);
    assert.equal((item.iconPath as vscode.ThemeIcon).id, 'sync~spin');
    const kids = issue.children.map(reviewTreeItem);
    assert.deepEqual(kids.map((k) => [k.label, k.description]), [
      ['merge: not ready', 'no approval for head 1234567'],
      ['review r2 (quick)', 'reviewing · at 1234567'],
    ]);
    const reviewer = reviewTreeItem(issue.children[1].children[0]);
    assert.deepEqual([reviewer.label, reviewer.description], ['reviewer (quick)', '#9 · working · m']);
    assert.deepEqual(reviewer.command, { command: 'svc.openConversation', title: 'Open Conversation', arguments: [9] });
  });

  it('shows an empty deck while the daemon has no conversations', () => {
    assert.deepEqual(api.deckTopLevel(), []);
    assert.deepEqual(api.reviewsTopLevel(), []);
  });

  it('opens one Conversation panel per conversation, and the Agents page, through their commands', async () => {
    // The UI suite archived conversation #1; an archived conversation still opens.
    await vscode.commands.executeCommand('svc.openConversation', 1);
    await vscode.commands.executeCommand('svc.openConversation', '#1');
    assert.deepEqual(api.openPanels(), [1]);
    await vscode.commands.executeCommand('svc.openAgents');
    const deadline = Date.now() + 10_000;
    while (!api.agentRows() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(api.agentRows()?.map((r) => [r.id, r.archived, r.role]), [[1, true, 'root']]);
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
      shellArgs: ['-c', `{ command -v svc; svc daemon status --json; echo "exit $?"; } > '${out}.tmp' 2>&1; mv '${out}.tmp' '${out}'`],
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
