// Integrated terminals get the shim's folder (<extension>/bin, holding `svc`) first on
// PATH, and the window's SVC_HOME when one is set, through the environment variable
// collection, so `svc` in a terminal talks to the same daemon as this window.
import * as path from 'node:path';
import type * as vscode from 'vscode';

export function putShimOnTerminalPath(
  collection: vscode.GlobalEnvironmentVariableCollection,
  extensionPath: string,
  env: NodeJS.ProcessEnv,
): void {
  collection.clear();
  collection.description = 'Puts the svc command on PATH (and SVC_HOME, when this window has one)';
  collection.prepend('PATH', path.join(extensionPath, 'bin') + path.delimiter);
  const home = env.SVC_HOME?.trim();
  if (home) collection.replace('SVC_HOME', path.resolve(home));
}
