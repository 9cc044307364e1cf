// The "daemon is not connected" notice: one at a time (a second command while the daemon is
// down says its words in the same notice), dismissable, and gone by itself once the daemon
// is back, so no stale "not connected" stays on screen after a reconnect. A progress
// notification is the one kind of notification an extension can close; its Start Daemon
// and Show Daemon Log are command links in the message, since it carries no buttons.
import * as vscode from 'vscode';

/** Calls `close` each time the daemon is connected again (set at activation). */
type OnConnected = (close: () => void) => vscode.Disposable;
let connectedAgain: OnConnected | undefined;
/** The notice on screen, if any: its text is replaced by the newest refusal. */
let shown: vscode.Progress<{ message?: string }> | undefined;

export function closeDaemonDownNoticesOn(onConnected: OnConnected): void {
  connectedAgain = onConnected;
}

/** The notice's text: the refusal, then what to do about it as links. */
export const daemonDownText = (what: string, why: string): string =>
  `svc: cannot ${what}: ${why}. [Start Daemon](command:svc.startDaemon) · [Show Daemon Log](command:svc.showDaemonLog)`;

export function showDaemonDownNotice(what: string, why: string): void {
  const message = daemonDownText(what, why);
  if (shown) return shown.report({ message });
  void vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, cancellable: true },
    (progress, dismissed) =>
      new Promise<void>((resolve) => {
        shown = progress;
        progress.report({ message });
        const subs = [dismissed.onCancellationRequested(done), ...(connectedAgain ? [connectedAgain(done)] : [])];
        function done() {
          shown = undefined;
          for (const s of subs) s.dispose();
          resolve();
        }
      }),
  );
}
