// Extension entry point: activation wires the daemon connection, the status bar, the
// terminal PATH, the views, the panels and the commands. The daemon outlives the window on purpose.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { daemonStatus } from '../shared/protocol/daemon';
import { conversationsStoppedByDaemon } from '../shared/protocol/stoppedByDaemon';
import { AgentsPanel } from './agents/agentsPanel';
import type { SvcTestApi } from './api';
import { AwarenessView } from './awareness/awarenessView';
import { needsYouCount } from './commandDeck/deckModel';
import type { DeckNode } from './commandDeck/deckModel';
import { DeckProvider } from './commandDeck/deckProvider';
import { inboxBadge } from './inbox/inboxModel';
import type { InboxNode } from './inbox/inboxModel';
import { InboxNotices } from './inbox/inboxNotices';
import { InboxProvider } from './inbox/inboxProvider';
import { InboxStatusBar } from './inbox/inboxStatusBar';
import { refreshCliLauncher } from './commands/cliCommand';
import { registerCommands } from './commands/commands';
import { watchSpendReports } from './commands/budgetCommand';
import { DaemonConnection } from './connection/daemonConnection';
import type { ConnectionState } from './connection/daemonConnection';
import { LiveQuery } from './connection/liveQuery';
import { DaemonStatusBar } from './connection/statusBar';
import { Drafts } from './compose/drafts';
import { ConversationPanels } from './conversations/conversationPanel';
import { watchSandboxTrouble } from './doctor/sandboxNotice';
import { closeDaemonDownNoticesOn } from './errors/daemonDownNotice';
import { logger, outputChannel } from './log';
import { ReviewsProvider } from './reviews/reviewsProvider';
import { issueContextValue } from './reviews/reviewsModel';
import type { ReviewNode } from './reviews/reviewsModel';
import { putShimOnTerminalPath } from './terminal/terminalPath';
import { registerPanelSerializers } from './webviews/serializers';

const log = logger('activate');

export function activate(context: vscode.ExtensionContext): SvcTestApi {
  context.subscriptions.push(outputChannel());
  putShimOnTerminalPath(context.environmentVariableCollection, context.extensionPath, process.env);

  const connection = new DaemonConnection({
    distDir: path.join(context.extensionPath, 'dist'),
    env: process.env,
    nodeSetting: () => vscode.workspace.getConfiguration('svc').get<string>('nodePath'),
  });
  const statusBar = new DaemonStatusBar(connection);
  const inbox = new InboxProvider(connection);
  const inboxView = vscode.window.createTreeView<InboxNode>('svc.inbox', { treeDataProvider: inbox });
  const inboxStatusBar = new InboxStatusBar();
  const inboxNotices = new InboxNotices(connection);
  const deck = new DeckProvider(connection);
  const deckView = vscode.window.createTreeView<DeckNode>('svc.commandDeck', {
    treeDataProvider: deck,
    showCollapseAll: true,
  });
  const awareness = new AwarenessView(context.extensionUri, connection);
  const reviews = new ReviewsProvider(connection);
  const reviewsView = vscode.window.createTreeView<ReviewNode>('svc.reviews', {
    treeDataProvider: reviews,
    showCollapseAll: true,
  });
  const panels = new ConversationPanels(context.extensionUri, connection);
  const drafts = new Drafts();
  // The daemon's counts (conversations, live) shown in the status bar tooltip and the rail.
  const status = new LiveQuery(
    connection,
    'the daemon status',
    ['conversations'],
    () => connection.request(daemonStatus, {}),
    (v) => v.kind === 'value' && connection.updateInfo(v.value),
    250,
  );

  // The deck's title bar offers Resume All while the daemon ended agents nobody has resumed since.
  const stoppedByDaemon = new LiveQuery(
    connection,
    'the agents the daemon stopped',
    ['conversations'],
    () => connection.request(conversationsStoppedByDaemon, {}),
    (v) =>
      void vscode.commands.executeCommand(
        'setContext',
        'svc.stoppedByDaemon',
        v.kind === 'value' && v.value.conversations.length > 0,
      ),
    250,
  );

  // noModule: a Node was found, but this package has no SQLite module for it or this platform.
  const setContext = (s: ConnectionState) =>
    void vscode.commands.executeCommand(
      'setContext',
      'svc.daemon',
      s.kind === 'noNode' && s.module ? 'noModule' : s.kind,
    );
  setContext(connection.state);
  closeDaemonDownNoticesOn((close) => connection.onDidChangeState((s) => s.kind === 'connected' && close()));
  context.subscriptions.push(
    connection,
    status,
    stoppedByDaemon,
    statusBar,
    inbox,
    inboxView,
    inboxStatusBar,
    deck,
    deckView,
    awareness,
    awareness.register('svc.awareness'),
    reviews,
    reviewsView,
    panels,
    drafts,
    { dispose: () => AgentsPanel.open?.dispose() },
    connection.onDidChangeState(setContext),
    connection.onDidChangeState(
      (s) => s.kind === 'connected' && refreshCliLauncher(context.extensionUri.fsPath, connection.nodePath),
    ),
    deck.onDidChangeRows((rows) => statusBar.setNeedsYou(rows ? needsYouCount(rows) : undefined)),
    inbox.onDidChangeItems((items) => {
      // The count on the activity-bar icon, seen with the side bar closed or on another view.
      inboxView.badge = inboxBadge(items?.length ?? 0);
      inboxStatusBar.set(items);
      inboxNotices.update(items);
      // A stall is a fact beside a lane's activity: the deck marks the lane's row.
      deck.setStalls(
        new Map(
          (items ?? []).filter((i) => i.kind === 'stalled' && i.conversation).map((i) => [i.conversation!.id, i.title]),
        ),
      );
    }),
    watchSandboxTrouble(deck.onDidChangeRows),
    reviews.onDidChangeFacts((facts) => deck.setReviews(facts)),
    vscode.window.registerFileDecorationProvider(deck.badges),
    vscode.window.registerFileDecorationProvider(reviews.badges),
    // The palette offers Abort Review only while a reviewer runs.
    reviews.onDidChangeTreeData(
      () =>
        void vscode.commands.executeCommand(
          'setContext',
          'svc.reviewRunning',
          reviews.issues.some((s) => issueContextValue(s).includes('+running')),
        ),
    ),
    // The palette offers Start Work Agent and Mark Issue Done only once an issue exists.
    reviews.onDidChangeTreeData(
      () => void vscode.commands.executeCommand('setContext', 'svc.hasIssues', reviews.issues.length > 0),
    ),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('svc.nodePath') && connection.state.kind !== 'connected') void connection.start();
    }),
    ...registerCommands({
      extensionUri: context.extensionUri,
      connection,
      deck,
      deckView,
      reviews,
      inbox,
      panels,
      drafts,
    }),
    watchSpendReports(connection, (id) => deck.row(id)?.kind === 'lane'),
    ...registerPanelSerializers(context.extensionUri, connection, panels),
  );

  log.info(
    `activating svc (${(context.extension.packageJSON as { version: string }).version}), SVC_HOME ${connection.home}, ui ${vscode.env.uiKind === vscode.UIKind.Web ? 'web' : 'desktop'}${vscode.env.remoteName ? `, remote ${vscode.env.remoteName}` : ''}`,
  );
  void connection.start();

  return {
    connectionState: () => connection.state,
    deckTopLevel: () => deck.topLevel,
    inboxViewBadge: () => inboxView.badge,
    inboxTopLevel: () => inbox.topLevel,
    deckBadge: (nodeId) => deck.badges.badge(nodeId),
    reviewsBadge: (nodeId) => reviews.badges.badge(nodeId),
    reviewsTopLevel: () => reviews.topLevel,
    openPanels: () => panels.openIds,
    panelStates: () => panels.states,
    agentRows: () => AgentsPanel.open?.rows,
    whenSettled: (timeoutMs) =>
      new Promise((resolve) => {
        if (connection.state.kind !== 'connecting') return resolve(connection.state);
        const timer = setTimeout(() => (sub.dispose(), resolve(connection.state)), timeoutMs);
        const sub = connection.onDidChangeState((s) => {
          if (s.kind === 'connecting') return;
          clearTimeout(timer);
          sub.dispose();
          resolve(s);
        });
      }),
  };
}

export function deactivate(): void {
  // The daemon outlives the window on purpose; disposing the connection ends only ours.
}
