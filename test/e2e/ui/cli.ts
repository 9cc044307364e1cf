// The `svc` shim installed from the .vsix, as the UI suites call it to set up what they then
// look at in the workbench, and the one editor clean-up every suite uses.
import * as assert from 'node:assert/strict';
import { installedSvc } from './codeServer';
import { session } from './session';
import { runCommand } from './workbench';

/** Runs the installed `svc` against the shared code-server's SVC_HOME. */
export const svc = (args: string[]) => installedSvc(session().cs, args);

/** Runs `svc`, fails the test unless it exits `code` (0 unless told); its stdout. */
export async function ok(args: string[], code = 0): Promise<string> {
  const r = await svc(args);
  assert.equal(r.code, code, `svc ${args.join(' ')} exited ${r.code}: ${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

export const closeEditors = () => runCommand(session().page, 'View: Close All Editors');
