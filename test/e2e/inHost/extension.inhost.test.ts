// In-host tests: run inside the real extension host (code-server 1.100.3) with the
// checkout as extensionDevelopmentPath. They cover activation, the command wiring
// against package.json, the deck's tree items and context values against the menus'
// `when` clauses, the daemon log command, and `svc` in an integrated terminal.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SvcTestApi } from '../../../extension/api';
import { buildDeck, deckContextValue } from '../../../extension/commandDeck/deckModel';
import type { DeckRow } from '../../../extension/commandDeck/deckModel';
import { toTreeItem } from '../../../extension/commandDeck/deckProvider';
import { COMMAND_IDS } from '../../../extension/commands/commands';

const EXTENSION_ID = 'svc-dev.svc';

interface Contributes {
  commands: { command: string }[];
  menus: Record<string, { command: string; when?: string }[]>;
}

const ROWS: DeckRow[] = [
  { id: 1, name: 'orch', title: 'orchestrator', kind: 'root', parentId: null, activity: 'idle' },
  { id: 2, name: 'b1', title: 'builder one', kind: 'lane', parentId: 1, activity: 'working', role: 'builder', run: 'r1', key: 'k', iteration: 1, git: { branch: 'lane/k', ahead: 2, dirty: true }, verdict: { verdict: 'NOT_YET', defects: 3, by: 3 } },
  { id: 3, name: 'c1', title: 'critic one', kind: 'lane', parentId: 1, activity: 'stopped', role: 'critic', run: 'r1', key: 'k', iteration: 1, judged: { key: 'k', iteration: 1 }, verdict: { verdict: 'NOT_YET', defects: 3, by: 3 } },
];

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

  it('runs from the development path and connects to the daemon of the scratch SVC_HOME', async () => {
    assert.equal(ext.extensionPath, path.resolve(__dirname, '..', '..', '..', '..'));
    const s = await api.whenSettled(20_000);
    assert.equal(s.kind, 'connected', JSON.stringify(s));
    if (s.kind === 'connected') assert.equal(s.info.svcHome, process.env.SVC_HOME);
    assert.equal(vscode.env.uiKind, vscode.UIKind.Web);
  });

  it('registers exactly the commands package.json contributes', async () => {
    const contributed = (ext.packageJSON.contributes as Contributes).commands.map((c) => c.command).sort();
    assert.deepEqual(contributed, [...COMMAND_IDS].sort());
    const registered = new Set((await vscode.commands.getCommands(true)).filter((c) => c.startsWith('svc.')));
    for (const id of COMMAND_IDS) assert.ok(registered.has(id), `${id} is contributed but not registered`);
  });

  it('composes context values that the view/item/context menus match', () => {
    const values = ROWS.map(deckContextValue);
    assert.deepEqual(values, ['svc:conv+root+idle+live', 'svc:conv+lane+builder+working+live+git+dirty+verdict', 'svc:conv+lane+critic+stopped+verdict']);
    const menus = (ext.packageJSON.contributes as Contributes).menus['view/item/context'];
    assert.ok(menus.length > 0);
    for (const m of menus) {
      const re = /viewItem =~ \/(.+?)\/(\s|$)/.exec(m.when ?? '');
      assert.ok(re, `menu ${m.command} has no viewItem regex: ${m.when}`);
      for (const v of values) assert.match(v, new RegExp(re[1]), `${m.command} does not show on ${v}`);
      assert.doesNotMatch('svc:review+issue', new RegExp(re[1]));
    }
  });

  it('maps deck nodes to tree items: stable ids, nesting, icons, verdict link', () => {
    const [root] = buildDeck(ROWS);
    const rootItem = toTreeItem(root);
    assert.equal(rootItem.id, 'conv:1');
    assert.equal(rootItem.collapsibleState, vscode.TreeItemCollapsibleState.Expanded);
    const builder = root.children[0];
    const item = toTreeItem(builder);
    assert.equal(item.id, 'conv:2');
    assert.deepEqual(item.command, { command: 'svc.openConversation', title: 'Open Conversation', arguments: [2] });
    assert.equal(item.label, 'builder one');
    assert.equal(item.description, '#2 · builder iter 1 · working · verdict NOT_YET · 3 defects ← #3 · lane/k ↑2 dirty');
    assert.equal((item.iconPath as vscode.ThemeIcon).id, 'sync~spin');
    const tooltip = item.tooltip as vscode.MarkdownString;
    assert.ok(tooltip.value.includes('(command:svc.openConversation?%5B3%5D)'), tooltip.value);
    assert.deepEqual(tooltip.isTrusted, { enabledCommands: ['svc.openConversation'] });
    const critic = toTreeItem(builder.children[0]);
    assert.equal(critic.id, 'conv:3');
    assert.equal(critic.description, '#3 · critic iter 1 · stopped · [NOT_YET · 3 defects]');
    assert.equal(critic.collapsibleState, vscode.TreeItemCollapsibleState.None);
  });

  it('shows an empty deck while the daemon has no conversations', () => {
    assert.deepEqual(api.deckTopLevel(), []);
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
