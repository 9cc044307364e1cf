// The `svc` shim installed from the .vsix, as the UI suites call it to set up what they then
// look at in the workbench (an issue marked done among them), and the one editor clean-up
// every suite uses.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { git } from '../../helpers/scratch';
import { writeBrief } from '../../helpers/scriptBrief';
import type { Step } from '../../helpers/scriptBrief';
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

/** A new issue of `project` with one committed change, marked done: its PR opened and its review requested. */
export async function issueDone(project: string, title: string): Promise<{ id: string; workspace: string }> {
  const issue = JSON.parse(await ok(['issue', 'new', '--project', project, '--title', title, '--json'])) as {
    id: string;
    workspace: string;
  };
  const env = session().cs.scratch.env;
  fs.writeFileSync(path.join(issue.workspace, 'feature.txt'), 'feature\n');
  git(issue.workspace, env, 'add', '.');
  git(issue.workspace, env, 'commit', '-q', '-m', 'the feature');
  await ok(['done', issue.id]);
  return issue;
}

/**
 * A script root conversation of `project` and one builder lane it launches (run `run`, key
 * `key`) running `steps`; `--no-wait` returns before the lane has started. Its conversation id.
 */
export async function startBuilder(
  project: string,
  o: { title: string; run: string; key: string; steps: Step[]; noWait?: boolean },
): Promise<number> {
  const root = JSON.parse(
    await ok([
      'conv',
      'new',
      '--project',
      project,
      '--harness',
      'script',
      '--model',
      'm',
      '--title',
      o.title,
      '--prompt',
      'I orchestrate.',
      '--json',
    ]),
  ) as { conversation: { id: number } };
  const briefs = path.join(session().cs.scratch.home, `briefs-${project}`);
  const out = await ok([
    'lane',
    'start',
    '--parent',
    String(root.conversation.id),
    '--harness',
    'script',
    '--model',
    'm',
    '--run',
    o.run,
    '--key',
    o.key,
    '--role',
    'builder',
    ...(o.noWait ? ['--no-wait'] : []),
    '--brief',
    writeBrief(briefs, `${o.key}.md`, o.steps),
  ]);
  return Number(/: conv (\d+) /.exec(out)![1]);
}
