// Palette and view commands, every one registered here. Each runs through the error
// funnel: a refusal shows the daemon's message, a cancelled pick is quiet. A command
// registered with `needsDaemon` waits out a connect in progress and, while the daemon is
// down, says why and offers to start it instead of running; the others (the logs,
// starting the daemon, the Roles panel, which shows the daemon's state itself) always work.
import * as vscode from 'vscode';
import { funnel } from '../errors/errorFunnel';
import { outputChannel } from '../log';
import { AgentsPanel } from '../agents/agentsPanel';
import { RolesPanel } from '../roles/rolesPanel';
import type { CommandDeps } from './commandDeps';
import type { CommandId } from './commandIds';
import {
  answerConversation,
  archiveConversation,
  newConversation,
  openConversation,
  previewConversation,
  resumeConversation,
  stopConversation,
  successor,
  tellConversation,
  unarchiveConversation,
} from './conversationCommands';
import { showDaemonLog, showDaemonStatus, startDaemon, stopDaemon } from './daemonCommands';
import { issueDone, newIssue, startIssue } from './issueCommands';
import { runDoctor } from '../doctor/doctorCommand';
import { startLane } from './laneCommands';
import { copyBranch, openWorktreeInNewWindow } from './laneRowCommands';
import { reapLane } from './reapCommand';
import { abortReview, requestReview, restartReview } from './reviewCommands';
import { installSkillCommand } from './skillCommand';
import { installCliCommand, uninstallCliCommand } from './cliCommand';
import { exportRunRecord } from './runRecordCommand';
import { raiseBudget } from './budgetCommand';
import { mergePr, openPr, openReport, setDeckFilter } from './viewCommands';

export function registerCommands(d: CommandDeps): vscode.Disposable[] {
  const command = (id: CommandId, what: string, fn: (...args: unknown[]) => unknown, needs?: 'needsDaemon') =>
    vscode.commands.registerCommand(id, (...args: unknown[]) =>
      funnel(what, async () => {
        if (needs === 'needsDaemon') await d.connection.usable();
        return fn(...args);
      }),
    );
  const needsDaemon = 'needsDaemon';
  return [
    command('svc.startDaemon', 'start the daemon', () => startDaemon(d.connection)),
    command('svc.showDaemonStatus', 'show the daemon status', () => showDaemonStatus(d.connection)),
    command('svc.showDaemonLog', 'show the daemon log', () => showDaemonLog(d.connection)),
    command('svc.doctor', 'run the doctor', () => runDoctor(d.connection)),
    command('svc.showLog', 'show the log', () => outputChannel().show(true)),
    command('svc.openConversation', 'open the conversation', (arg) => openConversation(d, arg), needsDaemon),
    command('svc.previewConversation', 'open the conversation', (arg) => previewConversation(d, arg), needsDaemon),
    command('svc.newConversation', 'start a conversation', () => newConversation(d), needsDaemon),
    command('svc.tellConversation', 'tell the conversation', (arg) => tellConversation(d, arg), needsDaemon),
    command('svc.answerConversation', 'answer the conversation', (arg) => answerConversation(d, arg), needsDaemon),
    command('svc.stopConversation', 'stop the conversation', (arg) => stopConversation(d, arg), needsDaemon),
    command('svc.archiveConversation', 'archive the conversation', (arg) => archiveConversation(d, arg), needsDaemon),
    command('svc.handoffConversation', 'hand off the conversation', (arg) => successor(d, arg, 'handoff'), needsDaemon),
    command('svc.forkConversation', 'fork the conversation', (arg) => successor(d, arg, 'fork'), needsDaemon),
    command('svc.startLane', 'start a lane', (arg) => startLane(d, arg), needsDaemon),
    command('svc.reapLane', 'reap the lane', (arg) => reapLane(d, arg), needsDaemon),
    command('svc.requestReview', 'request a review', (arg) => requestReview(d, arg), needsDaemon),
    command('svc.abortReview', 'abort the review', (arg) => abortReview(d, arg), needsDaemon),
    command('svc.restartReview', 'restart the review', (arg) => restartReview(d, arg), needsDaemon),
    command('svc.openAgents', 'open the Agents page', () => AgentsPanel.show(d.extensionUri, d.connection), needsDaemon),
    command('svc.installSkill', 'install the svc-gauntlet-loop skill', () => installSkillCommand(d)),
    command('svc.installCli', "install the 'svc' command in PATH", () => installCliCommand(d)),
    command('svc.uninstallCli', "uninstall the 'svc' command from PATH", () => uninstallCliCommand()),
    command(
      'svc.refresh',
      'refresh the views',
      () => {
        d.deck.refresh();
        d.reviews.refresh();
      },
      needsDaemon,
    ),
    command('svc.openReport', 'open the report', (arg) => openReport(arg)),
    command('svc.deckShowArchived', 'show archived conversations', () => setDeckFilter(d, { keepArchived: true })),
    command('svc.deckHideArchived', 'hide archived conversations', () => setDeckFilter(d, { keepArchived: false })),
    command('svc.deckLiveOnly', 'show live conversations only', () => setDeckFilter(d, { liveOnly: true })),
    command('svc.deckShowAll', 'show every conversation', () => setDeckFilter(d, { liveOnly: false })),
    command('svc.mergePr', 'merge the PR', (arg) => mergePr(d, arg), needsDaemon),
    command('svc.openPr', 'open the PR', (arg) => openPr(d, arg)),
    command('svc.resumeConversation', 'resume the conversation', (arg) => resumeConversation(d, arg), needsDaemon),
    command('svc.unarchiveConversation', 'unarchive the conversation', (arg) => unarchiveConversation(d, arg), needsDaemon),
    command('svc.stopDaemon', 'stop the daemon', () => stopDaemon(d.connection, false), needsDaemon),
    command('svc.restartDaemon', 'restart the daemon', () => stopDaemon(d.connection, true), needsDaemon),
    command('svc.newIssue', 'create an issue', () => newIssue(d), needsDaemon),
    command('svc.startIssue', "start the issue's work agent", (arg) => startIssue(d, arg), needsDaemon),
    command('svc.issueDone', 'mark the issue done', (arg) => issueDone(d, arg), needsDaemon),
    command('svc.launchLane', 'launch the lane', () => d.drafts.submit('lane')),
    command('svc.createIssue', 'create the issue', () => d.drafts.submit('issue')),
    command('svc.openRoles', 'open the Roles panel', () => void RolesPanel.show(d.extensionUri, d.connection)),
    command('svc.exportRunRecord', 'export the run record', (arg) => exportRunRecord(d, arg), needsDaemon),
    command('svc.raiseBudget', 'raise the spend cap', (arg) => raiseBudget(d, arg), needsDaemon),
    command('svc.openWorktreeInNewWindow', "open the lane's worktree", (arg) => openWorktreeInNewWindow(d, arg), needsDaemon),
    command('svc.copyBranch', "copy the lane's branch", (arg) => copyBranch(d, arg), needsDaemon),
    { dispose: () => RolesPanel.open?.dispose() },
  ];
}
