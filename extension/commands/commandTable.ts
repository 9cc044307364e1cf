// Every command of the extension, declared once: its title and icon (package.json's
// `contributes.commands`), where it is offered (the palette and the menus, generated into
// package.json by `npm run commands`), how it depends on the daemon (its `when` clauses and
// its runtime guard both follow from `daemon`) and the words its errors use. commands.ts
// maps each id to its body, and the compiler holds that map to this table. No vscode
// import: the unit tier and the generator read it in plain Node.
import type { ArgKind, ArgOf } from './commandArgs';

/** The views whose title bars and rows carry commands (package.json `contributes.views`). */
export type ViewId = 'svc.inbox' | 'svc.commandDeck' | 'svc.reviews';

/** One place a command is offered besides the palette; `when` clauses are VS Code's. */
export type MenuPlace =
  /** A button or '…' item of a view's title bar. */
  | { at: 'view/title'; view: ViewId; group: string; when?: string }
  /** A row's context menu (or hover button, group `inline@n`) where its composed contextValue matches `item`. */
  | { at: 'view/item/context'; view: ViewId; item: RegExp; group: string }
  | { at: 'editor/title'; when: string; group: string }
  | { at: 'webview/context'; when: string };

export interface CommandSpec {
  title: string;
  /** A codicon id (without `$(…)`). */
  icon?: string;
  /** What it does, for its errors: "svc: cannot <what>: …". */
  what: string;
  /** What it acts on, read from the argument it is invoked with (commandArgs.ts); absent, it takes none. */
  takes?: ArgKind;
  /**
   * How it depends on the daemon; absent, it works without one. `needed`: it runs once the
   * daemon is usable (a connect in progress is waited out); while the daemon is down it says
   * why and offers to start it. `connectedOnly`: the same guard, and the palette and every
   * menu offer it only while connected (stopping a daemon that is not there means nothing).
   */
  daemon?: 'needed' | 'connectedOnly';
  /** The palette's `when` clause; `false` keeps it out of the palette (a row's command). Absent: always offered. */
  palette?: string | false;
  menus?: readonly MenuPlace[];
  /** Its keyboard shortcut (package.json `contributes.keybindings`), a chord under ctrl+alt+s like GitLens's own. */
  keys?: string;
}

const onDeckTitle = (group: string, when?: string): MenuPlace => ({
  at: 'view/title',
  view: 'svc.commandDeck',
  group,
  ...(when ? { when } : {}),
});
const onReviewsTitle = (group: string, when?: string): MenuPlace => ({
  at: 'view/title',
  view: 'svc.reviews',
  group,
  ...(when ? { when } : {}),
});
const onDeckRow = (item: RegExp, group: string): MenuPlace => ({
  at: 'view/item/context',
  view: 'svc.commandDeck',
  item,
  group,
});
const onReviewsRow = (item: RegExp, group: string): MenuPlace => ({
  at: 'view/item/context',
  view: 'svc.reviews',
  item,
  group,
});
/** An Inbox row (inboxModel.ts: `svc:inbox+<kind>[+conv][+lane]`). */
const onInboxRow = (item: RegExp, group: string): MenuPlace => ({
  at: 'view/item/context',
  view: 'svc.inbox',
  item,
  group,
});
const onEditorTitle = (when: string, group: string): MenuPlace => ({ at: 'editor/title', when, group });
const onWebview = (when: string): MenuPlace => ({ at: 'webview/context', when });

const TABLE = {
  'svc.startDaemon': {
    title: 'Start Daemon',
    icon: 'debug-start',
    what: 'start the daemon',
    palette: 'svc.daemon != connected',
    menus: [onDeckTitle('8_daemon@0', 'svc.daemon != connected')],
  },
  'svc.showDaemonStatus': {
    title: 'Show Daemon Status',
    icon: 'pulse',
    what: 'show the daemon status',
    menus: [onDeckTitle('8_daemon@0', 'svc.daemon == connected')],
  },
  'svc.showDaemonLog': {
    title: "Show Daemon Log (the Daemon's File)",
    icon: 'output',
    what: 'show the daemon log',
    menus: [onDeckTitle('9_logs@1')],
  },
  'svc.doctor': {
    title: 'Doctor',
    icon: 'heart',
    what: 'run the doctor',
  },
  'svc.showLog': {
    title: 'Show Extension Log (This Window)',
    what: 'show the log',
  },
  'svc.openConversation': {
    title: 'Open Conversation',
    icon: 'go-to-file',
    what: 'open the conversation',
    takes: 'conversation',
    daemon: 'needed',
    menus: [
      onDeckRow(/^svc:conv\b/, '1_open@1'),
      onInboxRow(/^svc:inbox\+[^+]+\+conv\b/, '1_open@1'),
      onInboxRow(/^svc:inbox\+[^+]+\+conv\b/, 'inline@9'),
      onReviewsRow(/^svc:reviewer\b/, '1_open@1'),
      onDeckRow(/^svc:conv\b.*\+reviewer\b.*\+report\b/, 'inline@1'),
      onDeckRow(/^svc:convoy\b/, '1_open@1'),
      onReviewsRow(/^svc:reviewer\b.*\+report\b/, 'inline@1'),
    ],
  },
  'svc.previewConversation': {
    title: 'Open Conversation in the Preview Tab',
    icon: 'go-to-file',
    what: 'open the conversation',
    takes: 'conversation',
    daemon: 'needed',
    palette: false,
  },
  'svc.newConversation': {
    title: 'New Conversation',
    icon: 'add',
    what: 'start a conversation',
    daemon: 'needed',
    menus: [onDeckTitle('navigation@1')],
  },
  'svc.tellConversation': {
    title: 'Tell Conversation…',
    icon: 'comment',
    what: 'tell the conversation',
    takes: 'conversation',
    daemon: 'needed',
    menus: [
      onDeckRow(/^svc:conv\b.*\+live\b/, '2_talk@1'),
      onReviewsRow(/^svc:reviewer\b.*\+live\b/, '2_talk@1'),
      onDeckRow(/^svc:conv\b.*\+(idle|working)\b/, 'inline@2'),
      // A blocked report waits for the person's ruling: told to the lane.
      onInboxRow(/^svc:inbox\+blocked\b/, '0_act@1'),
      onInboxRow(/^svc:inbox\+blocked\b/, 'inline@1'),
    ],
  },
  'svc.answerConversation': {
    title: 'Answer Needs-You Request…',
    icon: 'bell-dot',
    what: 'answer the conversation',
    takes: 'conversation',
    daemon: 'needed',
    menus: [
      onDeckRow(/^svc:conv\b.*\+needs-you\b/, '2_talk@2'),
      onDeckRow(/^svc:conv\b.*\+needs-you\b/, 'inline@1'),
      onInboxRow(/^svc:inbox\+needs-you\b/, '0_act@1'),
      onInboxRow(/^svc:inbox\+needs-you\b/, 'inline@1'),
    ],
  },
  'svc.stopConversation': {
    title: 'Stop Conversation',
    icon: 'debug-stop',
    what: 'stop the conversation',
    takes: 'conversation',
    daemon: 'needed',
    menus: [
      onDeckRow(/^svc:conv\b.*\+live\b/, '3_lifecycle@1'),
      onReviewsRow(/^svc:reviewer\b.*\+live\b/, '3_lifecycle@1'),
      onDeckRow(/^svc:conv\b.*\+working\b/, 'inline@3'),
      onInboxRow(/^svc:inbox\+stalled\b/, '0_act@1'),
      onInboxRow(/^svc:inbox\+stalled\b/, 'inline@1'),
    ],
  },
  'svc.archiveConversation': {
    title: 'Archive Conversation',
    icon: 'archive',
    what: 'archive the conversation',
    takes: 'conversation',
    daemon: 'needed',
    menus: [onDeckRow(/^svc:conv\b(?!.*\+(live|archived)\b)/, '3_lifecycle@3')],
  },
  'svc.handoffConversation': {
    title: 'Hand Off Conversation…',
    icon: 'arrow-right',
    what: 'hand off the conversation',
    takes: 'conversation',
    daemon: 'needed',
    menus: [onDeckRow(/^svc:conv\b.*\+succeed\b/, '4_launch@2')],
  },
  'svc.forkConversation': {
    title: 'Fork Conversation…',
    icon: 'repo-forked',
    what: 'fork the conversation',
    takes: 'conversation',
    daemon: 'needed',
    menus: [onDeckRow(/^svc:conv\b.*\+succeed\b/, '4_launch@3')],
  },
  'svc.startLane': {
    title: 'Start Lane…',
    icon: 'run-all',
    what: 'start a lane',
    takes: 'conversation',
    daemon: 'needed',
    keys: 'ctrl+alt+s l',
    menus: [onDeckTitle('navigation@2'), onDeckRow(/^svc:conv\b/, '4_launch@1')],
  },
  'svc.openWorktreeInNewWindow': {
    title: 'Open Worktree in New Window',
    icon: 'empty-window',
    what: "open the lane's worktree",
    takes: 'conversation',
    daemon: 'needed',
    menus: [onDeckRow(/^svc:conv\+lane\b.*\+git\b(?!.*\+reaped\b)/, '1_open@3')],
  },
  'svc.compareWithBase': {
    title: 'Compare with Base',
    icon: 'diff-multiple',
    what: "compare the lane's worktree with its base",
    takes: 'conversation',
    daemon: 'needed',
    menus: [onDeckRow(/^svc:conv\+lane\+builder\b.*\+base\b(?!.*\+reaped\b)/, '1_open@4')],
  },
  'svc.copyBranch': {
    title: 'Copy Branch Name',
    icon: 'copy',
    what: "copy the lane's branch",
    takes: 'conversation',
    daemon: 'needed',
    menus: [onDeckRow(/^svc:conv\+lane\b.*\+git\b/, '6_copy@1')],
  },
  'svc.reapLane': {
    title: 'Reap Lane…',
    icon: 'trash',
    what: 'reap the lane',
    takes: 'conversation',
    daemon: 'needed',
    menus: [
      onDeckRow(/^svc:conv\+lane\b(?!.*\+reaped\b)/, '3_lifecycle@2'),
      onInboxRow(/^svc:inbox\+(failed-start|stalled)\+conv\+lane\b/, '0_act@3'),
      onInboxRow(/^svc:inbox\+failed-start\+conv\+lane\b/, 'inline@2'),
    ],
  },
  'svc.requestReview': {
    title: 'Request Review…',
    icon: 'eye',
    what: 'request a review',
    takes: 'issue',
    daemon: 'needed',
    keys: 'ctrl+alt+s r',
    menus: [
      onReviewsTitle('navigation@1'),
      onReviewsRow(/^svc:review\+issue\b/, '1_review@1'),
      onReviewsRow(/^svc:review\+issue\b(?!.*\+running\b)/, 'inline@1'),
    ],
  },
  'svc.abortReview': {
    title: 'Abort Review',
    icon: 'circle-slash',
    what: 'abort the review',
    takes: 'issue',
    daemon: 'needed',
    palette: 'svc.reviewRunning',
    menus: [
      onReviewsRow(/^svc:review\+issue\b.*\+running\b/, '1_review@2'),
      onDeckRow(/^svc:convoy\b.*\+live\b/, 'inline@1'),
      onDeckRow(/^svc:convoy\b.*\+live\b/, '1_review@1'),
      onReviewsRow(/^svc:review\+(issue|run)\b.*\+running\b/, 'inline@1'),
    ],
  },
  'svc.restartReview': {
    title: 'Restart Review…',
    icon: 'debug-restart',
    what: 'restart the review',
    takes: 'issue',
    daemon: 'needed',
    menus: [
      onReviewsRow(/^svc:review\+issue\b.*\+run\b/, '1_review@3'),
      // A stalled run offers it on its own row: the next step, one click away.
      onReviewsRow(/^svc:review\+run\b.*\+stalled\b/, 'inline@1'),
    ],
  },
  'svc.dismissFinding': {
    title: 'Dismiss Finding',
    icon: 'circle-slash',
    what: 'dismiss the finding',
    takes: 'finding',
    daemon: 'needed',
    palette: false,
    // An open finding nobody dismissed yet; a fixed one has nothing left to dismiss.
    menus: [onReviewsRow(/^svc:review\+finding\+(new|open)$/, 'inline@1')],
  },
  'svc.openAgents': {
    title: 'Open Agents Page',
    icon: 'organization',
    what: 'open the Agents page',
    daemon: 'needed',
    menus: [onDeckTitle('2_views@0')],
  },
  'svc.installSkill': {
    title: "Install the 'svc-gauntlet-loop' Skill",
    icon: 'extensions',
    what: 'install the svc-gauntlet-loop skill',
    menus: [onDeckTitle('9_logs@3')],
  },
  'svc.installCli': {
    title: "Install 'svc' Command in PATH",
    icon: 'terminal',
    what: "install the 'svc' command in PATH",
  },
  'svc.uninstallCli': {
    title: "Uninstall 'svc' Command from PATH",
    icon: 'terminal',
    what: "uninstall the 'svc' command from PATH",
  },
  'svc.refresh': {
    title: 'Refresh Views',
    icon: 'refresh',
    what: 'refresh the views',
    daemon: 'needed',
    menus: [onDeckTitle('9_logs@2'), onReviewsTitle('navigation@2')],
  },
  'svc.openRoles': {
    title: 'Open Roles',
    icon: 'settings-gear',
    what: 'open the Roles panel',
    menus: [onDeckTitle('2_views@1')],
  },
  'svc.openReport': {
    title: 'Open Report',
    icon: 'file-text',
    what: 'open the report',
    takes: 'file',
    palette: false,
    menus: [
      onDeckRow(/^svc:conv\b.*\+report\b/, '1_open@2'),
      onDeckRow(/^svc:conv\+lane\+(critic|verifier)\b.*\+report\b/, 'inline@0'),
      onReviewsRow(/^svc:reviewer\b.*\+report\b/, '1_open@2'),
    ],
  },
  'svc.deckShowArchived': {
    title: 'Show Archived',
    icon: 'archive',
    what: 'show archived conversations',
    palette: '!svc.deck.showArchived',
    menus: [onDeckTitle('3_filter@1', '!svc.deck.showArchived')],
  },
  'svc.deckHideArchived': {
    title: 'Hide Archived',
    icon: 'eye-closed',
    what: 'hide archived conversations',
    palette: 'svc.deck.showArchived',
    menus: [onDeckTitle('3_filter@1', 'svc.deck.showArchived')],
  },
  'svc.deckLiveOnly': {
    title: 'Live Only',
    icon: 'filter',
    what: 'show live conversations only',
    palette: '!svc.deck.liveOnly',
    menus: [onDeckTitle('navigation@3', '!svc.deck.liveOnly')],
  },
  'svc.deckShowAll': {
    title: 'Show Stopped Too',
    icon: 'filter-filled',
    what: 'show every conversation',
    palette: 'svc.deck.liveOnly',
    menus: [onDeckTitle('navigation@3', 'svc.deck.liveOnly')],
  },
  'svc.mergePr': {
    title: 'Merge PR',
    icon: 'git-merge',
    what: 'merge the PR',
    takes: 'pr',
    daemon: 'needed',
    menus: [
      onReviewsRow(/^svc:review\+readiness\b.*\+mergeable\b/, 'inline@1'),
      onReviewsRow(/^svc:review\+readiness\b.*\+mergeable\b/, '1_pr@1'),
    ],
  },
  'svc.openPr': {
    title: 'Open PR',
    icon: 'link-external',
    what: 'open the PR',
    takes: 'pr',
    menus: [
      onReviewsRow(/^svc:review\+(readiness|issue)\b.*\+url\b/, 'inline@2'),
      onReviewsRow(/^svc:review\+(readiness|issue)\b.*\+url\b/, '1_pr@2'),
    ],
  },
  'svc.resumeConversation': {
    title: 'Resume Conversation',
    icon: 'debug-continue',
    what: 'resume the conversation',
    takes: 'conversation',
    daemon: 'needed',
    menus: [
      onDeckRow(/^svc:conv\b(?!.*\+(live|archived|reaped|reviewer)\b)/, '3_lifecycle@0'),
      onDeckRow(/^svc:conv\b.*\+(stopped|failed-to-start)\b(?!.*\+(archived|reaped|reviewer)\b)/, 'inline@1'),
      // A failed start, or changes requested with no work agent alive: resuming is the next step.
      onInboxRow(/^svc:inbox\+(failed-start|changes-requested)\+conv\b/, '0_act@1'),
      onInboxRow(/^svc:inbox\+(failed-start|changes-requested)\+conv\b/, 'inline@1'),
    ],
  },
  'svc.unarchiveConversation': {
    title: 'Unarchive Conversation',
    icon: 'discard',
    what: 'unarchive the conversation',
    takes: 'conversation',
    daemon: 'needed',
    menus: [
      onDeckRow(/^svc:conv\b.*\+archived\b/, '3_lifecycle@4'),
      onDeckRow(/^svc:conv\b.*\+archived\b/, 'inline@1'),
    ],
  },
  'svc.stopDaemon': {
    title: 'Stop Daemon',
    icon: 'debug-stop',
    what: 'stop the daemon',
    daemon: 'connectedOnly',
    menus: [onDeckTitle('8_daemon@2')],
  },
  'svc.restartDaemon': {
    title: 'Restart Daemon',
    icon: 'debug-restart',
    what: 'restart the daemon',
    daemon: 'connectedOnly',
    menus: [onDeckTitle('8_daemon@1')],
  },
  'svc.resumeStoppedByDaemon': {
    title: 'Resume All Stopped by the Daemon',
    icon: 'debug-continue-small',
    what: 'resume the agents the daemon stopped',
    daemon: 'connectedOnly',
    // Offered while the daemon ended agents nobody has resumed or archived since (a stop, a crash).
    palette: 'svc.stoppedByDaemon',
    menus: [onDeckTitle('navigation@0', 'svc.stoppedByDaemon')],
  },
  'svc.newIssue': {
    title: 'New Issue…',
    icon: 'issues',
    what: 'create an issue',
    daemon: 'connectedOnly',
    menus: [onReviewsTitle('navigation@0')],
  },
  'svc.startIssue': {
    title: 'Start Work Agent…',
    icon: 'play',
    what: "start the issue's work agent",
    takes: 'issue',
    daemon: 'connectedOnly',
    palette: 'svc.hasIssues',
    menus: [onReviewsRow(/^svc:review\+issue\b(?!.*\+worker\b)/, '0_issue@1')],
  },
  'svc.issueDone': {
    title: 'Mark Issue Done (Push, Open the PR)…',
    icon: 'check-all',
    what: 'mark the issue done',
    takes: 'issue',
    daemon: 'connectedOnly',
    palette: 'svc.hasIssues',
    menus: [onReviewsRow(/^svc:review\+issue\b(?!.*\+ready\b)/, '0_issue@2')],
  },
  'svc.launchLane': {
    title: 'Launch Lane',
    icon: 'rocket',
    what: 'launch the lane',
    palette: 'svc.draft == lane',
    menus: [onEditorTitle('svc.draft == lane', 'navigation@1')],
  },
  'svc.createIssue': {
    title: 'Create Issue',
    icon: 'check',
    what: 'create the issue',
    palette: 'svc.draft == issue',
    menus: [onEditorTitle('svc.draft == issue', 'navigation@1')],
  },
  'svc.exportRunRecord': {
    title: 'Export Run Record…',
    icon: 'export',
    what: 'export the run record',
    takes: 'run',
    daemon: 'needed',
    menus: [onWebview("webviewId == 'svc.awareness' && webviewSection == 'runCard'")],
  },
  'svc.raiseBudget': {
    title: 'Raise Spend Cap…',
    icon: 'credit-card',
    what: 'raise the spend cap',
    takes: 'conversation',
    daemon: 'needed',
    menus: [
      onDeckRow(/^svc:conv\+lane\b(?!.*\+reaped\b)/, '3_lifecycle@99'),
      onInboxRow(/^svc:inbox\+spend\b/, '0_act@1'),
      onInboxRow(/^svc:inbox\+spend\b/, 'inline@1'),
    ],
  },
  'svc.openInbox': {
    title: 'Open Inbox',
    icon: 'inbox',
    keys: 'ctrl+alt+s i',
    what: 'open the Inbox',
  },
} satisfies Record<`svc.${string}`, CommandSpec>;

export type CommandId = keyof typeof TABLE;
/** The argument a command's body receives: what its `takes` reads, else nothing. */
export type ArgOfCommand<Id extends CommandId> = (typeof TABLE)[Id] extends { takes: infer K extends ArgKind }
  ? ArgOf<K>
  : undefined;
export const COMMANDS: Readonly<Record<CommandId, CommandSpec>> = TABLE;
/** Every command id, in the table's order. */
export const COMMAND_IDS = Object.keys(COMMANDS) as CommandId[];
