// Palette and view commands. Each runs through the error funnel: while the daemon is
// down a command that needs it says why and offers to start it (commands call
// connection.usable() first), a refusal shows the daemon's message, a cancelled pick is
// quiet. Commands that do not need the daemon (the logs, starting it) always work.
import * as vscode from 'vscode';
import type { DeckNode } from '../commandDeck/deckModel';
import type { DeckProvider } from '../commandDeck/deckProvider';
import type { DaemonConnection } from '../connection/daemonConnection';
import type { ConversationPanels } from '../conversations/conversationPanel';
import { funnel } from '../errors/errorFunnel';
import { outputChannel } from '../log';
import type { ReviewsProvider } from '../reviews/reviewsProvider';
import { AgentsPanel } from '../agents/agentsPanel';
import { answerConversation, archiveConversation, newConversation, openConversation, resumeConversation, stopConversation, successor, tellConversation, unarchiveConversation } from './conversationCommands';
import { showDaemonLog, showDaemonStatus, startDaemon, stopDaemon } from './daemonCommands';
import { issueDone, newIssue, startIssue } from './issueCommands';
import type { Drafts } from '../compose/drafts';
import { runDoctor } from '../doctor/doctorCommand';
import { reapLane, startLane } from './laneCommands';
import { abortReview, requestReview, restartReview } from './reviewCommands';
import { installSkillCommand } from './skillCommand';
import { mergePr, openPr, openReport, setDeckFilter } from './viewCommands';

/** Every command id the extension registers; package.json must contribute each (an in-host test checks). */
export const COMMAND_IDS = [
  'svc.startDaemon',
  'svc.showDaemonStatus',
  'svc.showDaemonLog',
  'svc.doctor',
  'svc.showLog',
  'svc.openConversation',
  'svc.newConversation',
  'svc.tellConversation',
  'svc.answerConversation',
  'svc.stopConversation',
  'svc.archiveConversation',
  'svc.handoffConversation',
  'svc.forkConversation',
  'svc.startLane',
  'svc.reapLane',
  'svc.requestReview',
  'svc.abortReview',
  'svc.restartReview',
  'svc.openAgents',
  'svc.installSkill',
  'svc.refresh',
  'svc.openReport',
  'svc.deckShowArchived',
  'svc.deckHideArchived',
  'svc.deckLiveOnly',
  'svc.deckShowAll',
  'svc.mergePr',
  'svc.openPr',
  'svc.resumeConversation',
  'svc.unarchiveConversation',
  'svc.stopDaemon',
  'svc.restartDaemon',
  'svc.newIssue',
  'svc.startIssue',
  'svc.issueDone',
  'svc.launchLane',
  'svc.createIssue',
] as const;
export type CommandId = (typeof COMMAND_IDS)[number];

export interface CommandDeps {
  extensionUri: vscode.Uri;
  connection: DaemonConnection;
  deck: DeckProvider;
  deckView: vscode.TreeView<DeckNode>;
  reviews: ReviewsProvider;
  panels: ConversationPanels;
  /** Briefs and issue descriptions being written in editors. */
  drafts: Drafts;
}

export function registerCommands(d: CommandDeps): vscode.Disposable[] {
  const command = (id: CommandId, what: string, fn: (...args: unknown[]) => unknown) =>
    vscode.commands.registerCommand(id, (...args: unknown[]) => funnel(what, () => fn(...args)));
  return [
    command('svc.startDaemon', 'start the daemon', () => startDaemon(d.connection)),
    command('svc.showDaemonStatus', 'show the daemon status', () => showDaemonStatus(d.connection)),
    command('svc.showDaemonLog', 'show the daemon log', () => showDaemonLog(d.connection)),
    command('svc.doctor', 'run the doctor', () => runDoctor(d.connection)),
    command('svc.showLog', 'show the log', () => outputChannel().show(true)),
    command('svc.openConversation', 'open the conversation', (arg) => openConversation(d, arg)),
    command('svc.newConversation', 'start a conversation', () => newConversation(d)),
    command('svc.tellConversation', 'tell the conversation', (arg) => tellConversation(d, arg)),
    command('svc.answerConversation', 'answer the conversation', (arg) => answerConversation(d, arg)),
    command('svc.stopConversation', 'stop the conversation', (arg) => stopConversation(d, arg)),
    command('svc.archiveConversation', 'archive the conversation', (arg) => archiveConversation(d, arg)),
    command('svc.handoffConversation', 'hand off the conversation', (arg) => successor(d, arg, 'handoff')),
    command('svc.forkConversation', 'fork the conversation', (arg) => successor(d, arg, 'fork')),
    command('svc.startLane', 'start a lane', (arg) => startLane(d, arg)),
    command('svc.reapLane', 'reap the lane', (arg) => reapLane(d, arg)),
    command('svc.requestReview', 'request a review', (arg) => requestReview(d, arg)),
    command('svc.abortReview', 'abort the review', (arg) => abortReview(d, arg)),
    command('svc.restartReview', 'restart the review', (arg) => restartReview(d, arg)),
    command('svc.openAgents', 'open the Agents page', async () => {
      await d.connection.usable();
      AgentsPanel.show(d.extensionUri, d.connection);
    }),
    command('svc.installSkill', 'install the svc-gauntlet-loop skill', () => installSkillCommand(d)),
    command('svc.refresh', 'refresh the views', async () => {
      await d.connection.usable();
      d.deck.refresh();
      d.reviews.refresh();
    }),
    command('svc.openReport', 'open the report', (arg) => openReport(arg)),
    command('svc.deckShowArchived', 'show archived conversations', () => setDeckFilter(d, { keepArchived: true })),
    command('svc.deckHideArchived', 'hide archived conversations', () => setDeckFilter(d, { keepArchived: false })),
    command('svc.deckLiveOnly', 'show live conversations only', () => setDeckFilter(d, { liveOnly: true })),
    command('svc.deckShowAll', 'show every conversation', () => setDeckFilter(d, { liveOnly: false })),
    command('svc.mergePr', 'merge the PR', (arg) => mergePr(d, arg)),
    command('svc.openPr', 'open the PR', (arg) => openPr(d, arg)),
    command('svc.resumeConversation', 'resume the conversation', (arg) => resumeConversation(d, arg)),
    command('svc.unarchiveConversation', 'unarchive the conversation', (arg) => unarchiveConversation(d, arg)),
    command('svc.stopDaemon', 'stop the daemon', () => stopDaemon(d.connection, false)),
    command('svc.restartDaemon', 'restart the daemon', () => stopDaemon(d.connection, true)),
    command('svc.newIssue', 'create an issue', () => newIssue(d)),
    command('svc.startIssue', "start the issue's work agent", (arg) => startIssue(d, arg)),
    command('svc.issueDone', 'mark the issue done', (arg) => issueDone(d, arg)),
    command('svc.launchLane', 'launch the lane', () => d.drafts.submit('lane')),
    command('svc.createIssue', 'create the issue', () => d.drafts.submit('issue')),
  ];
}
