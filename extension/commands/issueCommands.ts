// Issue commands, as `svc issue new`, `svc issue start` and `svc done` do them: create an
// issue (its description written in an editor draft), start its work agent, and mark it
// done (push, open the PR, request a review). Refusals come back through the error funnel
// with the daemon's message.
import * as vscode from 'vscode';
import { isLive } from '../../shared/activity';
import { issuesDone, issuesList, issuesNew, issuesStart } from '../../shared/protocol/issues';
import type { IssueInfo } from '../../shared/protocol/issues';
import { projectsList } from '../../shared/protocol/projects';
import { pickerHarnesses } from '../doctor/harnessHealth';
import { NothingToDo, UserCancelled } from '../errors/errorFunnel';
import { logger } from '../log';
import type { CommandDeps } from './commandDeps';
import { ask } from './targets';

const log = logger('issues');

export const START_WORK_AGENT = 'Start Work Agent';

/** "svc: New Issue…": project, title, then the description in an editor draft ("svc: Create Issue" submits it) or none. */
export async function newIssue(d: CommandDeps): Promise<void> {
  const { projects } = await d.connection.request(projectsList, {});
  if (!projects.length)
    throw new NothingToDo(
      'an issue belongs to a project, and there is none: add one with svc project add <key> <path>',
    );
  const project =
    projects.length === 1
      ? projects[0].key
      : (
          await vscode.window.showQuickPick(
            projects.map((p) => ({ label: p.key, description: p.path })),
            { title: 'svc: New Issue (1/3)', placeHolder: 'Which project?' },
          )
        )?.label;
  if (!project) throw new UserCancelled();
  const title = (
    await ask({
      title: 'svc: New Issue (2/3)',
      prompt: `Title of the ${project} issue`,
      validateInput: (v) => (v.trim() ? undefined : 'the title is empty'),
    })
  ).trim();
  const how = await vscode.window.showQuickPick(
    [
      {
        label: 'Write the description in an editor',
        description: 'its acceptance criteria guide the requirements reviewer',
        editor: true,
      },
      { label: 'Create it with the title only', description: 'no description', editor: false },
    ],
    { title: 'svc: New Issue (3/3)', placeHolder: `Description of "${title}"` },
  );
  if (!how) throw new UserCancelled();
  const create = async (body: string) => {
    const i = await d.connection.request(issuesNew, { project, title, ...(body ? { body } : {}) });
    log.info(`created issue ${i.id}: ${i.title} (${i.workspace} on ${i.branch})`);
    d.reviews.refresh();
    void vscode.window
      .showInformationMessage(
        `svc: created issue ${i.id}: ${i.title}; its workspace is ${i.workspace} on ${i.branch}.`,
        START_WORK_AGENT,
      )
      .then((c) => c && vscode.commands.executeCommand('svc.startIssue', i.id));
  };
  if (!how.editor) return create('');
  await d.drafts.open(
    'issue',
    [
      `The description of ${project} issue "${title}".`,
      'Write it below this comment, then run "svc: Create Issue" (the button in the editor title bar).',
      'Closing this editor creates nothing.',
    ],
    '',
    { submit: create },
  );
}

async function listIssues(d: CommandDeps): Promise<IssueInfo[]> {
  return (await d.connection.request(issuesList, {})).issues;
}

/** The issue a command acts on: an id or a Reviews row, else a pick of `filter`'s issues. */
async function pickIssue(
  d: CommandDeps,
  given: string | undefined,
  what: string,
  filter: (i: IssueInfo) => boolean,
  none: string,
): Promise<string> {
  if (given) return given;
  const issues = (await listIssues(d)).filter(filter);
  if (!issues.length) throw new NothingToDo(none);
  const picked = await vscode.window.showQuickPick(
    issues
      .map((i) => ({
        label: i.id,
        description: i.title,
        detail: i.agent ? `work agent #${i.agent.id} ${i.agent.activity}` : 'no work agent yet',
      }))
      .reverse(),
    { title: `svc: ${what}`, placeHolder: `Which issue?` },
  );
  if (!picked) throw new UserCancelled();
  return picked.label;
}

/** "svc: Start Work Agent…" (`svc issue start`): harness and model, then the agent starts in the issue's workspace. */
export async function startIssue(d: CommandDeps, given: string | undefined): Promise<void> {
  const issue = await pickIssue(
    d,
    given,
    'Start Work Agent',
    (i) => !i.agent || !isLive(i.agent.activity),
    'every issue already has a live work agent (or there is no issue: "svc: New Issue…")',
  );
  const harnesses = await pickerHarnesses(d.connection);
  const harness = harnesses.length
    ? (
        await vscode.window.showQuickPick(harnesses, {
          title: `svc: Start Work Agent of ${issue} (1/2)`,
          placeHolder: 'Harness (the agent program)',
        })
      )?.harness
    : await ask({
        title: `svc: Start Work Agent of ${issue} (1/2)`,
        prompt: 'Harness (a profile of config.yaml, e.g. claude)',
      });
  if (!harness) throw new UserCancelled();
  const model = (
    await ask({
      title: `svc: Start Work Agent of ${issue} (2/2)`,
      prompt: `Model for ${harness}`,
      validateInput: (v) => (v.trim() ? undefined : 'a model is required (there is no default model)'),
    })
  ).trim();
  const r = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `svc: starting the work agent of ${issue}…` },
    () => d.connection.request(issuesStart, { issue, harness, model, noWait: true }),
  );
  const agent = r.issue.agent!;
  // The same line `svc issue start` prints.
  const line = `Work agent ${agent.name} (#${agent.id}) of ${r.issue.id}: ${r.outcome === 'notWaited' ? 'starting' : r.outcome} in ${r.issue.workspace}`;
  log.info(line);
  d.reviews.refresh();
  if ((await vscode.window.showInformationMessage(`svc: ${line}.`, 'Open')) === 'Open') d.panels.show(agent.id);
}

/** "svc: Issue Done…" (`svc done`): push the issue branch, open its PR if none is open, request a review. */
export async function issueDone(d: CommandDeps, given: string | undefined): Promise<void> {
  const issue = await pickIssue(
    d,
    given,
    'Issue Done',
    () => true,
    'there are no issues ("svc: New Issue…" creates one)',
  );
  const go = await vscode.window.showInformationMessage(
    `Mark ${issue} done?`,
    {
      modal: true,
      detail: `svc pushes its branch, opens its pull request if none is open, and requests a review, as svc done ${issue} does.`,
    },
    'Push and Request Review',
  );
  if (go !== 'Push and Request Review') throw new UserCancelled();
  const r = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `svc: ${issue} done: pushing and requesting a review…` },
    () => d.connection.request(issuesDone, { issue }),
  );
  // The lines `svc done` prints.
  const text = `Pushed ${r.issue.branch} at ${r.sha.slice(0, 7)}; ${r.opened ? 'opened' : 'updated'} PR #${r.pr.number}; ${r.reused ? `review ${r.runId} (${r.mode}) of this head is already under way` : `review ${r.runId} (${r.mode}) requested`}`;
  log.info(text);
  d.reviews.refresh();
  void vscode.window.showInformationMessage(`svc: ${issue}: ${text}.`);
}
