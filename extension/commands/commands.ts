// Registers every command of the table (commandTable.ts) with its body. Each runs through
// the error funnel: a refusal shows the daemon's message, a cancelled pick is quiet. A
// command the table marks as depending on the daemon waits out a connect in progress and,
// while the daemon is down, says why and offers to start it instead of running; the others
// (the logs, starting the daemon, the Roles panel, which shows the daemon's state itself)
// always work. The body's map is typed by the table: an id without a body, or a body
// without an id, does not compile.
import * as vscode from 'vscode';
import { funnel } from '../errors/errorFunnel';
import { outputChannel } from '../log';
import { AgentsPanel } from '../agents/agentsPanel';
import { RolesPanel } from '../roles/rolesPanel';
import type { CommandDeps } from './commandDeps';
import { COMMAND_IDS, COMMANDS } from './commandTable';
import type { ArgOfCommand, CommandId } from './commandTable';
import { ARG_READERS } from './commandArgs';
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
import { resumeStoppedByDaemon, showDaemonLog, showDaemonStatus, startDaemon, stopDaemon } from './daemonCommands';
import { issueDone, newIssue, startIssue } from './issueCommands';
import { runDoctor } from '../doctor/doctorCommand';
import { startLane } from './laneCommands';
import { compareWithBase, copyBranch, openWorktreeInNewWindow } from './laneRowCommands';
import { reapLane } from './reapCommand';
import { abortReview, dismissFinding, requestReview, restartReview } from './reviewCommands';
import { installSkillCommand } from './skillCommand';
import { installCliCommand, uninstallCliCommand } from './cliCommand';
import { exportRunRecord } from './runRecordCommand';
import { raiseBudget } from './budgetCommand';
import { mergePr, openPr, openReport, setDeckFilter } from './viewCommands';

/** Each command's body, given what it acts on as its `takes` reads it from VS Code's argument. */
type Bodies = { [Id in CommandId]: (arg: ArgOfCommand<Id>) => unknown };

export function registerCommands(d: CommandDeps): vscode.Disposable[] {
  const bodies: Bodies = {
    'svc.startDaemon': () => startDaemon(d.connection),
    'svc.showDaemonStatus': () => showDaemonStatus(d.connection),
    'svc.showDaemonLog': () => showDaemonLog(d.connection),
    'svc.doctor': () => runDoctor(d.connection),
    'svc.showLog': () => outputChannel().show(true),
    'svc.openConversation': (arg) => openConversation(d, arg),
    'svc.previewConversation': (arg) => previewConversation(d, arg),
    'svc.newConversation': () => newConversation(d),
    'svc.tellConversation': (arg) => tellConversation(d, arg),
    'svc.answerConversation': (arg) => answerConversation(d, arg),
    'svc.stopConversation': (arg) => stopConversation(d, arg),
    'svc.archiveConversation': (arg) => archiveConversation(d, arg),
    'svc.handoffConversation': (arg) => successor(d, arg, 'handoff'),
    'svc.forkConversation': (arg) => successor(d, arg, 'fork'),
    'svc.startLane': (arg) => startLane(d, arg),
    'svc.reapLane': (arg) => reapLane(d, arg),
    'svc.requestReview': (arg) => requestReview(d, arg),
    'svc.abortReview': (arg) => abortReview(d, arg),
    'svc.restartReview': (arg) => restartReview(d, arg),
    'svc.dismissFinding': (arg) => dismissFinding(d, arg),
    'svc.openAgents': () => AgentsPanel.show(d.extensionUri, d.connection),
    'svc.installSkill': () => installSkillCommand(d),
    'svc.installCli': () => installCliCommand(d),
    'svc.uninstallCli': () => uninstallCliCommand(),
    'svc.refresh': () => {
      d.deck.refresh();
      d.reviews.refresh();
      d.inbox.refresh();
    },
    // `<view>.focus` shows the svc container, expands the view and focuses it.
    'svc.openInbox': () => vscode.commands.executeCommand('svc.inbox.focus'),
    'svc.openRoles': () => void RolesPanel.show(d.extensionUri, d.connection),
    'svc.openReport': (arg) => openReport(arg),
    'svc.deckShowArchived': () => setDeckFilter(d, { keepArchived: true }),
    'svc.deckHideArchived': () => setDeckFilter(d, { keepArchived: false }),
    'svc.deckLiveOnly': () => setDeckFilter(d, { liveOnly: true }),
    'svc.deckShowAll': () => setDeckFilter(d, { liveOnly: false }),
    'svc.mergePr': (arg) => mergePr(d, arg),
    'svc.openPr': (arg) => openPr(d, arg),
    'svc.resumeConversation': (arg) => resumeConversation(d, arg),
    'svc.unarchiveConversation': (arg) => unarchiveConversation(d, arg),
    'svc.stopDaemon': () => stopDaemon(d.connection, false),
    'svc.restartDaemon': () => stopDaemon(d.connection, true),
    'svc.resumeStoppedByDaemon': () => resumeStoppedByDaemon(d.connection),
    'svc.newIssue': () => newIssue(d),
    'svc.startIssue': (arg) => startIssue(d, arg),
    'svc.issueDone': (arg) => issueDone(d, arg),
    'svc.launchLane': () => d.drafts.submit('lane'),
    'svc.createIssue': () => d.drafts.submit('issue'),
    'svc.exportRunRecord': (arg) => exportRunRecord(d, arg),
    'svc.raiseBudget': (arg) => raiseBudget(d, arg),
    'svc.openWorktreeInNewWindow': (arg) => openWorktreeInNewWindow(d, arg),
    'svc.copyBranch': (arg) => copyBranch(d, arg),
    'svc.compareWithBase': (arg) => compareWithBase(d, arg),
  };
  const register = (id: CommandId) => {
    const spec = COMMANDS[id];
    const body = bodies[id] as (arg: unknown) => unknown;
    return vscode.commands.registerCommand(id, (given: unknown) =>
      funnel(spec.what, async () => {
        if (spec.daemon) await d.connection.usable();
        return body(spec.takes ? ARG_READERS[spec.takes](given) : undefined);
      }),
    );
  };
  return [...COMMAND_IDS.map(register), { dispose: () => RolesPanel.open?.dispose() }];
}
