// Daemon commands: start, stop and restart it, show its status, show its log. The log
// works while the daemon is down (it is a file in SVC_HOME). Stop and restart ask first
// when agents are live (they stop with the daemon), then offer to resume those agents.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { isLive } from '../../shared/activity';
import { waitForExit } from '../../shared/client/ensureDaemon';
import { errorMessage } from '../../shared/errors';
import { conversationsList, conversationsResume } from '../../shared/protocol/conversations';
import { daemonStatus, daemonStop } from '../../shared/protocol/daemon';
import { conversationsResumeStoppedByDaemon } from '../../shared/protocol/stoppedByDaemon';
import { homePaths } from '../../shared/svcHome';
import type { DaemonConnection } from '../connection/daemonConnection';
import { plural } from '../connection/statusText';
import { NothingToDo, SHOW_DAEMON_LOG, UserCancelled } from '../errors/errorFunnel';
import { logger } from '../log';
import { afterResume, afterStop, stopModal } from './daemonStopText';
import type { LiveAgent } from './daemonStopText';

const log = logger('daemon');

export async function startDaemon(connection: DaemonConnection): Promise<void> {
  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: 'svc: starting the daemon' },
    () => connection.start(),
  );
  const s = connection.state;
  if (s.kind === 'connected')
    void vscode.window.showInformationMessage(`svc daemon ${s.info.version} is running (pid ${s.info.pid}).`);
  else if (s.kind === 'noNode')
    void vscode.window.showErrorMessage(`svc cannot start its daemon: ${s.problem}. Fix: ${s.fix}.`);
  else
    void vscode.window
      .showErrorMessage(`svc: the daemon did not start: ${connection.whyDown()}.`, SHOW_DAEMON_LOG)
      .then((c) => c && vscode.commands.executeCommand('svc.showDaemonLog'));
}

export async function showDaemonStatus(connection: DaemonConnection): Promise<void> {
  const i = await connection.request(daemonStatus, {});
  const up = Math.round(i.uptimeMs / 60_000);
  const choice = await vscode.window.showInformationMessage(
    `svc daemon ${i.version} (build ${i.build}), pid ${i.pid}, up ${up} min: ${plural(i.conversations, 'conversation')}, ${i.live} live. SVC_HOME ${i.svcHome}`,
    SHOW_DAEMON_LOG,
  );
  if (choice) await vscode.commands.executeCommand('svc.showDaemonLog');
}

export async function showDaemonLog(connection: DaemonConnection): Promise<void> {
  const file = homePaths(connection.home).daemonLog;
  if (!fs.existsSync(file)) {
    void vscode.window.showInformationMessage(
      `svc: there is no daemon log yet (${file}); the daemon writes it when it first starts.`,
    );
    return;
  }
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
  const editor = await vscode.window.showTextDocument(doc, { preview: true });
  const end = doc.lineAt(doc.lineCount - 1).range.end;
  editor.revealRange(new vscode.Range(end, end));
}

/**
 * "svc: Stop Daemon" / "svc: Restart Daemon": a modal names the live agents that stop with
 * the daemon (none live: no question), the daemon stops them through the stop door and
 * exits, then a message offers to resume them (after starting the daemon again).
 */
export async function stopDaemon(connection: DaemonConnection, restart: boolean): Promise<void> {
  const s = connection.state;
  if (s.kind !== 'connected') return;
  const pid = s.info.pid;
  const { conversations } = await connection.request(conversationsList, {});
  const live: LiveAgent[] = conversations
    .filter((c) => isLive(c.activity))
    .map((c) => ({ id: c.id, name: c.name, title: c.title }));
  const ask = stopModal(live, restart);
  if (
    ask &&
    (await vscode.window.showWarningMessage(ask.message, { modal: true, detail: ask.detail }, ask.confirm)) !==
      ask.confirm
  )
    throw new UserCancelled();
  await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: `svc: ${restart ? 'restarting' : 'stopping'} the daemon…`,
    },
    async () => {
      await connection.request(daemonStop, { reason: `${restart ? 'restart' : 'stop'} from VS Code` });
      await waitForExit(pid, 60_000);
      if (restart) await connection.start();
    },
  );
  log.info(
    `daemon pid ${pid} ${restart ? 'restarted' : 'stopped'}; it stopped ${live.map((a) => `#${a.id}`).join(', ') || 'no agent'}`,
  );
  const now = connection.state;
  if (restart && now.kind !== 'connected') {
    void vscode.window
      .showErrorMessage(`svc: the daemon stopped but did not start again: ${connection.whyDown()}.`, SHOW_DAEMON_LOG)
      .then((c) => c && vscode.commands.executeCommand('svc.showDaemonLog'));
    return;
  }
  const said = afterStop(pid, live, restart && now.kind === 'connected' ? now.info.pid : undefined);
  const choice = said.resume
    ? await vscode.window.showInformationMessage(said.message, said.resume)
    : await vscode.window.showInformationMessage(said.message);
  if (choice && choice === said.resume) await resumeStopped(connection, live);
}

/**
 * "Resume All Stopped by the Daemon" (the deck's title bar while there are any): the
 * agents a stop or a crash of the daemon ended, whichever window stopped it, resumed by the
 * daemon as `svc conv resume --all-stopped-by-daemon` does; refusals are listed.
 */
export async function resumeStoppedByDaemon(connection: DaemonConnection): Promise<void> {
  const r = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'svc: resuming the agents the daemon stopped…' },
    () => connection.request(conversationsResumeStoppedByDaemon, { noWait: true }),
  );
  if (!r.resumed.length && !r.refused.length) throw new NothingToDo('no agent stopped by the daemon waits to resume');
  const agent = (c: LiveAgent): LiveAgent => ({ id: c.id, name: c.name, title: c.title });
  const text = afterResume(
    r.resumed.map((x) => agent(x.conversation)),
    r.refused.map((x) => ({ agent: agent(x.conversation), why: x.message })),
  );
  log.info(text);
  void (r.refused.length ? vscode.window.showWarningMessage(text) : vscode.window.showInformationMessage(text));
}

/** Starts the daemon if it is not connected, then resumes each conversation; refusals are listed, not thrown. */
async function resumeStopped(connection: DaemonConnection, agents: readonly LiveAgent[]): Promise<void> {
  if (connection.state.kind !== 'connected') await connection.start();
  await connection.usable();
  const resumed: LiveAgent[] = [];
  const failed: { agent: LiveAgent; why: string }[] = [];
  await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: `svc: resuming ${agents.length} agent${agents.length === 1 ? '' : 's'}…`,
    },
    async () => {
      for (const a of agents) {
        try {
          await connection.request(conversationsResume, { conv: String(a.id), noWait: true });
          resumed.push(a);
        } catch (e) {
          failed.push({ agent: a, why: errorMessage(e) });
        }
      }
    },
  );
  const text = afterResume(resumed, failed);
  log.info(text);
  void (failed.length ? vscode.window.showWarningMessage(text) : vscode.window.showInformationMessage(text));
}
