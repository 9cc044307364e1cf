// "svc: Doctor": the report `svc doctor` prints (the same formatter), in an output
// channel of its own. While the daemon is down, that is the report's one problem.
import * as vscode from 'vscode';
import { daemonDownReport, doctorText } from '../../shared/format/doctorText';
import { doctorRun } from '../../shared/protocol/doctor';
import type { DoctorReport } from '../../shared/protocol/doctor';
import type { DaemonConnection } from '../connection/daemonConnection';
import { DaemonDown } from '../connection/daemonErrors';

let channel: vscode.OutputChannel | undefined;

export async function runDoctor(connection: DaemonConnection): Promise<void> {
  let report: DoctorReport;
  try {
    report = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: 'svc: running the doctor' },
      () => connection.request(doctorRun, {}),
    );
  } catch (e) {
    if (!(e instanceof DaemonDown)) throw e;
    report = daemonDownReport(connection.whyDown(), connection.home);
  }
  channel ??= vscode.window.createOutputChannel('svc Doctor');
  channel.clear();
  channel.append(`svc doctor — ${new Date().toLocaleString()}\n\n${doctorText(report)}`);
  channel.show(true);
  if (report.problems > 0)
    void vscode.window.showWarningMessage(
      `svc doctor: ${report.problems} problem${report.problems === 1 ? '' : 's'}; each has its fix in the "svc Doctor" output.`,
    );
}
