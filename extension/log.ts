// The extension's one logger: the "svc" output channel (a LogOutputChannel, so levels
// and timestamps come from VS Code), with a component prefix per caller. The language
// client writes its own trace into the same channel.
import * as vscode from 'vscode';

export interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string, err?: unknown): void;
}

let channel: vscode.LogOutputChannel | undefined;

/** The shared channel, created on first use (activation creates it first). */
export function outputChannel(): vscode.LogOutputChannel {
  channel ??= vscode.window.createOutputChannel('svc', { log: true });
  return channel;
}

export function logger(component: string): Logger {
  const prefix = `[${component}] `;
  return {
    info: (m) => outputChannel().info(prefix + m),
    warn: (m) => outputChannel().warn(prefix + m),
    error: (m, err) => outputChannel().error(prefix + m + (err === undefined ? '' : '\n' + describe(err))),
  };
}

function describe(err: unknown): string {
  if (err instanceof Error) return err.stack ?? `${err.name}: ${err.message}`;
  return String(err);
}
